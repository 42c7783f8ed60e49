import { Type } from 'typebox';

/**
 * The proof a sensitive change accepts in its body in place of a recent sign-in (docs/security.md "Recent
 * authentication"). Spread into the body schema of each route that declares the `recentAuth()` guard.
 */
export const ReauthProofFields = {
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024,
    description: 'The account password, needed when the sign-in is older than SVC_REAUTH_MAX_AGE' })),
  totp_code: Type.Optional(Type.String({ maxLength: 32,
    description: 'With two-factor authentication on, a TOTP or backup code, sent with `password`' })),
};
