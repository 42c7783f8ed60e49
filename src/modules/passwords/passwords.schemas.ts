import { Type, type Static } from 'typebox';
import { Body } from '../../http/schema.js';
import { CodeSent } from '../otp/otp.schemas.js';

export const Requirements = Type.Object({
  min_length: Type.Integer(),
  require_lowercase: Type.Boolean(),
  require_uppercase: Type.Boolean(),
  require_numbers: Type.Boolean(),
  require_special: Type.Boolean(),
});

export const RequirementsResponse = Type.Object({
  requirements: Requirements,
  min_length: Type.Integer(),
  max_length: Type.Integer(),
});

/** The body is bounded so that an anonymous caller cannot send megabytes to score; scoring is capped further. */
export const StrengthBody = Body({
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  email: Type.Optional(Type.String({ maxLength: 254 })),
});
export type StrengthInput = Static<typeof StrengthBody>;

export const StrengthResponse = Type.Object({
  score: Type.Integer({ minimum: 0, maximum: 4 }),
  strength: Type.Union([
    Type.Literal('very_weak'), Type.Literal('weak'), Type.Literal('fair'), Type.Literal('strong'), Type.Literal('very_strong'),
  ]),
  is_valid: Type.Boolean(),
  errors: Type.Array(Type.String()),
  requirements: Requirements,
});

// Long enough for any real password, short enough that nothing huge ever reaches the hasher; the policy caps it at 128.
const Password = Type.String({ minLength: 1, maxLength: 1024 });
/** Code fields take at most 6 characters: a one-time code is 6 digits. */
const Code = Type.String({ minLength: 1, maxLength: 6 });
const Contact = {
  email: Type.Optional(Type.String({ maxLength: 254 })),
  phone_country_code: Type.Optional(Type.String({ maxLength: 8 })),
  phone_number: Type.Optional(Type.String({ maxLength: 32 })),
};

export const ChangeBody = Body({
  current_password: Type.Optional(Password),
  otp_code: Type.Optional(Code),
  new_password: Password,
});
export type ChangeInput = Static<typeof ChangeBody>;

/** The pair a `password_change_only` caller gets back, with full scope. */
const RestrictedExit = {
  access_token: Type.Optional(Type.String()),
  refresh_token: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.Literal('Bearer')),
  expires_in: Type.Optional(Type.Integer()),
  refresh_expires_in: Type.Optional(Type.Integer()),
};

export const ChangeResponse = Type.Object({
  message: Type.String(),
  password_strength: Type.String(),
  sessions_revoked: Type.Integer(),
  ...RestrictedExit,
});

export const SetInitialBody = Body({ otp_code: Code, new_password: Password });
export type SetInitialInput = Static<typeof SetInitialBody>;
export const SetInitialResponse = Type.Object({ message: Type.String(), ...RestrictedExit });

export const ResetRequestBody = Body(Contact);
export type ResetRequestInput = Static<typeof ResetRequestBody>;
export const ResetRequestResponse = Type.Object(CodeSent);

/** `confirm_password` is optional (the Tenxyte SDK sends it, docs/migrating-from-tenxyte.md rule 4); when sent it must match. */
export const ResetConfirmBody = Body({ ...Contact, otp_code: Code, new_password: Password, confirm_password: Type.Optional(Password) });
export type ResetConfirmInput = Static<typeof ResetConfirmBody>;
export const ResetConfirmResponse = Type.Object({
  message: Type.String(),
  tokens_revoked: Type.Integer(),
  password_safe: Type.Boolean(),
});
