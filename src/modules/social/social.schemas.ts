import { Type, type Static } from 'typebox';
import { Body } from '../../http/schema.js';
import { TokenResponse } from '../auth/auth.schemas.js';
import { StoredText } from '../users/users.schemas.js';

const Opaque = Type.String({ minLength: 1, maxLength: 4096 });

/**
 * `POST social/<provider>/` (docs/social-login.md "Signing in"): one of a code (with its redirect URI), a provider access
 * token or an ID token.
 */
export const SocialLoginBody = Body({
  code: Type.Optional(Opaque),
  authorization_code: Type.Optional(Opaque),
  redirect_uri: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  code_verifier: Type.Optional(Type.String({ minLength: 43, maxLength: 128, pattern: '^[A-Za-z0-9._~-]+$' })),
  access_token: Type.Optional(Opaque),
  id_token: Type.Optional(Opaque),
  nonce: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  mfa_token: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'From the browser flow\'s `error=2FA_REQUIRED` redirect; send with totp_code' })),
  totp_code: Type.Optional(Type.String({ maxLength: 32 })),
  device_info: Type.Optional(StoredText({ maxLength: 512 })),
});
export type SocialLoginInput = Static<typeof SocialLoginBody>;

export const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 64 }) });

export const SocialLoginResponse = Type.Object({
  ...TokenResponse.properties,
  message: Type.String(),
  provider: Type.String({ description: 'The configured provider name (`google`, …), never its `provider_*` alias' }),
  is_new_user: Type.Boolean(),
});

export const AuthorizeQuery = Type.Object({
  access_key: Type.Optional(Type.String({ maxLength: 128 })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
});

export const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
  code_verifier: Type.Optional(Type.String({ maxLength: 128 })),
  state: Type.Optional(Type.String({ maxLength: 256 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  error_description: Type.Optional(Type.String({ maxLength: 2048 })),
  iss: Type.Optional(Type.String({ maxLength: 2048 })),
  scope: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type CallbackInput = Static<typeof CallbackQuery>;
