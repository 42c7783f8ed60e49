import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { canSignIn } from '../users/account-state.js';
import type { PasswordVerifier } from '../users/password-verifier.js';
import * as users from '../users/lookup.js';
import type { LockoutService, LockTarget } from './lockout.service.js';
import type { LoginMeta, ProviderOutcome, SignInService } from './sign-in.service.js';

export type { LoginMeta, ProviderOutcome } from './sign-in.service.js';

type Deps = { db: Db; lockout: LockoutService; signIn: SignInService; verifyPassword: PasswordVerifier['verify'] };

export interface PasswordLoginInput {
  by: { email: string } | { phone: string };
  password: string;
  totp_code?: string | undefined;
  device_info?: string | undefined;
}

/** The password login; what follows the password is the sign-in every method shares (sign-in.service.ts). */
export function createLoginService({ db, lockout, signIn, verifyPassword }: Deps) {
  /** Inactive, banned and deleted accounts get the same answer as a wrong password, recorded with why. */
  async function refuseUnlessAdmitted(user: users.LoginUser, identifier: string, meta: LoginMeta): Promise<void> {
    if (canSignIn(user)) return;
    await signIn.failed(identifier, meta, user.id, user.is_banned ? 'banned' : 'inactive');
    throw new AppError('LOGIN_FAILED');
  }

  /**
   * The steps every password sign-in takes before its ending: find user → locked? → verify password → record attempt →
   * account state → second factor. Answers the account and the identifier it was found by.
   */
  async function checkCredentials(input: PasswordLoginInput, meta: LoginMeta, { secondFactor = true } = {}) {
    const identifier = 'email' in input.by ? input.by.email : input.by.phone;
    const user = await users.findUserForLogin(db, input.by);
    const target: LockTarget = user ? { userId: user.id, lockedUntil: user.locked_until } : { identifier };
    await signIn.assertNotLocked(target, identifier, meta, user?.id ?? null);
    // Same work whether or not the account exists (the verifier pads with the dummy hash).
    const passwordOk = await verifyPassword(user, input.password);
    if (!user || !passwordOk) {
      await signIn.failed(identifier, meta, user?.id ?? null, 'invalid_credentials');
      await lockout.recordFailure(target, meta);
      throw new AppError('LOGIN_FAILED');
    }
    await refuseUnlessAdmitted(user, identifier, meta);
    if (secondFactor) await signIn.secondFactor(user, input.totp_code, target, identifier, meta);
    return { user, identifier };
  }

  /**
   * POST login/email/ and login/phone/, as named steps: the credential checks, then token scope → session and device
   * limits → issue tokens.
   */
  async function loginWithPassword(input: PasswordLoginInput, meta: LoginMeta) {
    const { user, identifier } = await checkCredentials(input, meta);
    return signIn.completeLogin(user, identifier, input.device_info, meta);
  }

  /** The sign-in page of the authorization server (docs/oauth.md "Sign-in and consent"): the same checks, no session. */
  async function signInForProvider(input: PasswordLoginInput, meta: LoginMeta): Promise<{ user: { id: number }; outcome: ProviderOutcome }> {
    const { user, identifier } = await checkCredentials(input, meta, { secondFactor: false });
    // With 2FA the code is asked on a page of its own (secondFactorForProvider).
    if (user.is_2fa_enabled) return { user, outcome: 'second_factor_required' };
    return { user, outcome: await signIn.completeProviderSignIn(user, identifier, meta) };
  }

  /**
   * The second page of a sign-in on the authorization server, for an account whose password was right and which has 2FA:
   * the lock and account state again (they may have changed), the code (wrong ones count toward lockout), then the
   * same ending as the first page.
   */
  async function secondFactorForProvider(userId: number, identifier: string, code: string, meta: LoginMeta)
    : Promise<{ user: { id: number }; outcome: ProviderOutcome }> {
    const user = await users.findUserForLoginById(db, userId);
    if (!user) throw new AppError('LOGIN_FAILED');
    const target: LockTarget = { userId: user.id, lockedUntil: user.locked_until };
    await signIn.assertNotLocked(target, identifier, meta, user.id);
    await refuseUnlessAdmitted(user, identifier, meta);
    await signIn.secondFactor(user, code, target, identifier, meta);
    return { user, outcome: await signIn.completeProviderSignIn(user, identifier, meta) };
  }

  return { loginWithPassword, signInForProvider, secondFactorForProvider };
}

export type LoginService = ReturnType<typeof createLoginService>;
