import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Body, Nullable } from '../../http/schema.js';
import { TokenResponse } from '../auth/auth.schemas.js';
import { ReauthProofFields } from '../auth/reauth.schemas.js';
import { StoredText } from '../users/users.schemas.js';
import type { ListedCredential } from './passkeys.repo.js';

const When = Type.String({ format: 'date-time' });
const Free = { additionalProperties: true } as const;

/**
 * The browser's PublicKeyCredential as JSON. Only its shape is checked here: what it holds (base64url, CBOR,
 * signatures) is the WebAuthn library's to verify, and anything it refuses answers the ceremony's own code.
 */
const BrowserCredential = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 2048 }),
  rawId: Type.Optional(Type.String({ maxLength: 2048 })),
  type: Type.String({ maxLength: 32 }),
  response: Type.Object({}, { ...Free, description: 'clientDataJSON, attestationObject or authenticatorData and signature, base64url' }),
  clientExtensionResults: Type.Optional(Type.Object({}, Free)),
  authenticatorAttachment: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
}, { ...Free, description: 'The browser response (`PublicKeyCredential.toJSON()`, or @simplewebauthn/browser\'s answer)' });

const ChallengeId = Type.Optional(Type.Integer({ minimum: 1, description: 'From the begin answer; optional: the challenge is found from clientDataJSON' }));

/** With `password` (and `totp_code`) when the sign-in is not recent (docs/security.md "Recent authentication"). */
export const RegisterBeginBody = Type.Union([Body({
  ...ReauthProofFields,
  authenticator_attachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform'), Type.Literal('any')], {
    description: '`platform` (default): a passkey on this device; `cross-platform`: a security key or a phone; `any`: the browser offers both' })),
}), Type.Null()]);

export const RegisterCompleteBody = Body({
  challenge_id: ChallengeId,
  credential: BrowserCredential,
  device_name: Type.Optional(StoredText({ maxLength: 100 })),
});
export type RegisterCompleteInput = Static<typeof RegisterCompleteBody>;

export const AuthenticateBeginBody = Type.Union([Body({
  email: Type.Optional(Type.String({ maxLength: 254, description: 'Omit for resident-key mode (the authenticator names the account)' })),
}), Type.Null()]);

export const AuthenticateCompleteBody = Body({
  challenge_id: ChallengeId,
  credential: BrowserCredential,
  device_info: Type.Optional(StoredText({ maxLength: 512 })),
});
export type AuthenticateCompleteInput = Static<typeof AuthenticateCompleteBody>;

/** The begin answers: WebAuthn options as JSON, `challenge_id`, and the same options under `publicKey`. */
export const BeginResponse = Type.Object({ challenge: Type.String(), challenge_id: Type.Integer(), publicKey: Type.Object({}, Free) }, Free);

export const RegisteredCredential = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  device_name: Type.String({ description: 'The same as `name`: the Tenxyte SDK reads this one' }),
  created_at: When,
  last_used_at: Nullable(When),
  device_type: Type.String({ description: '`singleDevice` or `multiDevice` (synced)' }),
  is_active: Type.Boolean(),
});

export const RegisterCompleteResponse = Type.Object({ message: Type.String(), credential: RegisteredCredential });

export const PasskeyLoginResponse = Type.Object({
  ...TokenResponse.properties,
  access: Type.String({ description: 'The same as `access_token` (the Tenxyte SDK reads this one)' }),
  refresh: Nullable(Type.String({
    description: 'The same as `refresh_token`: null in cookie mode, and when none is issued (the Tenxyte SDK reads this one)' })),
  message: Type.String(),
  credential_used: Type.String({ description: 'The name of the passkey that signed in' }),
});

/** A passkey as `webauthn/credentials/` lists it (docs/passkeys.md "Managing passkeys"). */
export const ListedPasskey = Type.Object({
  id: Type.Integer(),
  device_name: Type.String(),
  created_at: When,
  last_used_at: Nullable(When),
  authenticator_type: Nullable(Type.String({ description: '`platform` or `cross-platform`' })),
  is_resident_key: Type.Boolean(),
  is_active: Type.Boolean(),
});

export const PasskeyList = Type.Object({ credentials: Type.Array(ListedPasskey), count: Type.Integer() });

export const toListedPasskey = (r: ListedCredential) => ({
  id: r.id, device_name: r.device_name, created_at: toIso(r.created_at)!, last_used_at: toIso(r.last_used_at),
  authenticator_type: r.authenticator_type, is_resident_key: r.is_resident_key, is_active: r.is_active,
});
