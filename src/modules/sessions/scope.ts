import type { Config } from '../../config/settings.js';
import type { TokenScope } from '../../security/jwt.js';

/** What the scope of a new access token depends on. */
export interface ScopeSubject {
  must_change_password: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  is_2fa_enabled: boolean;
  /** The session's sign-in proved two factors another way: `passkey` (a passkey that verified the user). */
  second_factor?: string | null;
}

/**
 * docs/api.md "Token scopes", for logins and refreshes alike: an administrator (is_staff or is_superuser) without 2FA
 * gets `2fa_setup_only`, which takes precedence over `password_change_only`; once 2FA is on, the flag to change
 * the password is enforced. A session opened with a passkey that verified the user proved two factors
 * (docs/decisions.md "Passkeys"): the gate counts it, at the login and at every refresh.
 */
export function tokenScopeFor(u: ScopeSubject, config: Pick<Config, 'FORCE_PASSWORD_CHANGE_ON_FIRST_LOGIN_ENABLED'>): TokenScope {
  if ((u.is_staff || u.is_superuser) && !u.is_2fa_enabled && u.second_factor !== 'passkey') return '2fa_setup_only';
  return u.must_change_password && config.FORCE_PASSWORD_CHANGE_ON_FIRST_LOGIN_ENABLED ? 'password_change_only' : 'full';
}
