import { Type } from 'typebox';
import { Body, Nullable } from '../../http/schema.js';
import { StoredText, UserResponse } from '../users/users.schemas.js';

// Long enough for any real password, short enough that nothing huge ever reaches the hasher.
const Password = Type.String({ minLength: 1, maxLength: 1024 });
const DeviceInfo = StoredText({ maxLength: 512 });
const TotpCode = Type.String({ maxLength: 32 });
const Email = StoredText({ maxLength: 254 });
const CountryCode = Type.String({ maxLength: 8 });
const PhoneNumber = Type.String({ maxLength: 32 });
const Name = StoredText({ maxLength: 150 });

export const RegisterBody = Body({
  email: Type.Optional(Email),
  phone_country_code: Type.Optional(CountryCode),
  phone_number: Type.Optional(PhoneNumber),
  password: Password,
  first_name: Type.Optional(Name),
  last_name: Type.Optional(Name),
  login: Type.Optional(Type.Boolean({ default: false })),
  device_info: Type.Optional(DeviceInfo),
});

export const LoginEmailBody = Body({
  email: Email,
  password: Password,
  totp_code: Type.Optional(TotpCode),
  device_info: Type.Optional(DeviceInfo),
});

export const LoginPhoneBody = Body({
  phone_country_code: CountryCode,
  phone_number: PhoneNumber,
  password: Password,
  totp_code: Type.Optional(TotpCode),
  device_info: Type.Optional(DeviceInfo),
});

const RefreshTokenField = Type.String({ maxLength: 512 });
export const RefreshBody = Body({ refresh_token: Type.Optional(RefreshTokenField) });
export const LogoutBody = Body({ refresh_token: Type.Optional(RefreshTokenField) });

/** The API's "Token response". `refresh_token` is absent in refresh-cookie mode. */
export const TokenResponse = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.Optional(Type.String()),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  refresh_expires_in: Type.Integer(),
  device_summary: Nullable(Type.String()),
  must_change_password: Type.Boolean(),
  token_scope: Type.Optional(Type.String()),
  requires_2fa: Type.Boolean(),
  deletion_pending: Type.Optional(Type.Boolean({ description: 'The account waits for its deletion: no refresh token, scope `deletion_pending`' })),
  scheduled_deletion_date: Type.Optional(Type.String({ format: 'date-time', description: 'When the grace period ends' })),
  session_id: Type.String(),
  device_id: Type.String(),
  user: UserResponse,
});

export const RegisterResponse = Type.Object({
  message: Type.String(),
  user: UserResponse,
  verification_required: Type.Object({ email: Type.Boolean(), phone: Type.Boolean() }),
  access_token: Type.Optional(Type.String()),
  refresh_token: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.Literal('Bearer')),
  expires_in: Type.Optional(Type.Integer()),
  refresh_expires_in: Type.Optional(Type.Integer()),
  device_summary: Type.Optional(Nullable(Type.String())),
  must_change_password: Type.Optional(Type.Boolean()),
  session_id: Type.Optional(Type.String()),
  device_id: Type.Optional(Type.String()),
});

export const RefreshResponse = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.Optional(Type.String()),
  access: Type.String({ description: 'Same as `access_token` (the Tenxyte SDK reads this name)' }),
  refresh: Type.Optional(Type.String({ description: 'Same as `refresh_token`, when that is in the body' })),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  refresh_expires_in: Type.Integer(),
  must_change_password: Type.Boolean(),
  token_scope: Type.Optional(Type.String()),
});

/**
 * A refresh answer as sent (after cookie mode has taken the refresh token out) with the names the Tenxyte SDK reads
 * beside the API's (docs/migrating-from-tenxyte.md): `access`, and `refresh` only where `refresh_token` is in the body.
 */
export const withSdkTokenNames = <T extends { access_token: string; refresh_token?: string }>(body: T) =>
  ({ ...body, access: body.access_token, ...(body.refresh_token ? { refresh: body.refresh_token } : {}) });

export const LogoutAllResponse = Type.Object({ message: Type.String(), devices_logged_out: Type.Integer() });
