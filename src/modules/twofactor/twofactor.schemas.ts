import { Type, type Static } from 'typebox';
import { Body } from '../../http/schema.js';
import { ReauthProofFields } from '../auth/reauth.schemas.js';

// A TOTP code is 6 digits and a backup code 11 characters; a little slack for spaces people type.
const Code = Type.String({ maxLength: 32 });

/**
 * `code`, or its alias `totp_code` (docs/decisions.md; the Tenxyte SDK sends the alias); a missing code answers 400
 * CODE_REQUIRED, not a validation error; both sent and different is a validation error on `totp_code`.
 */
export const CodeBody = Body({ code: Type.Optional(Code), totp_code: Type.Optional(Code) });
export type CodeInput = Static<typeof CodeBody>;

/** No body, or the proof a setup needs when the sign-in is not recent (docs/security.md "Recent authentication"). */
export const SetupBody = Type.Union([Body(ReauthProofFields), Type.Null()]);

export const DisableBody = Body({
  code: Type.Optional(Code),
  totp_code: Type.Optional(Code),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type DisableInput = Static<typeof DisableBody>;

export const StatusResponse = Type.Object({
  is_enabled: Type.Boolean(),
  backup_codes_remaining: Type.Integer(),
});

const BackupCodes = Type.Array(Type.String());

export const SetupResponse = Type.Object({
  message: Type.String(),
  secret: Type.String(),
  qr_code: Type.String({ description: 'PNG image as a data: URI' }),
  provisioning_uri: Type.String(),
  backup_codes: BackupCodes,
  warning: Type.String(),
});

export const EnabledResponse = Type.Object({
  message: Type.String(),
  is_enabled: Type.Boolean(),
});

export const BackupCodesResponse = Type.Object({
  message: Type.String(),
  backup_codes: BackupCodes,
  warning: Type.String(),
});
