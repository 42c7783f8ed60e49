import { Type, type Static } from 'typebox';
import { Body } from '../../http/schema.js';
import { TokenResponse } from '../auth/auth.schemas.js';
import { CodeSent } from '../otp/otp.schemas.js';
import { StoredText, UserResponse } from '../users/users.schemas.js';

const CountryCode = Type.String({ maxLength: 8 });
const PhoneNumber = Type.String({ maxLength: 32 });
const DeviceInfo = StoredText({ maxLength: 512 });
const TotpCode = Type.String({ maxLength: 32 });

export const OtpLoginRequestBody = Body({ phone_country_code: CountryCode, phone_number: PhoneNumber });
export type OtpLoginRequestInput = Static<typeof OtpLoginRequestBody>;

export const OtpLoginRequestResponse = Type.Object({ ...CodeSent, channel: Type.Literal('sms') });

/** The API's limits: the login code is 6 digits. */
export const OtpLoginVerifyBody = Body({
  phone_country_code: CountryCode,
  phone_number: PhoneNumber,
  otp_code: Type.String({ pattern: '^[0-9]{6}$' }),
  totp_code: Type.Optional(TotpCode),
  device_info: Type.Optional(DeviceInfo),
});
export type OtpLoginVerifyInput = Static<typeof OtpLoginVerifyBody>;

/** The API's "Token response"; the passwordless login's user also says whether the account has a password. */
export const OtpLoginResponse = Type.Object({
  ...TokenResponse.properties,
  user: Type.Object({ ...UserResponse.properties, has_usable_password: Type.Boolean() }),
});

/** `validation_url` is optional here so that its absence answers the API's 400 VALIDATION_URL_REQUIRED. */
export const MagicLinkRequestBody = Body({
  email: StoredText({ maxLength: 254 }),
  validation_url: Type.Optional(StoredText({ maxLength: 2048 })),
});
export type MagicLinkRequestInput = Static<typeof MagicLinkRequestBody>;

/** `token` is optional here so that its absence answers the API's 400 TOKEN_REQUIRED. */
export const MagicLinkVerifyQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 512 })),
  totp_code: Type.Optional(TotpCode),
  device_info: Type.Optional(DeviceInfo),
});
export type MagicLinkVerifyInput = Static<typeof MagicLinkVerifyQuery>;

export const MagicLinkVerifyResponse = Type.Object({ message: Type.String(), ...TokenResponse.properties });
