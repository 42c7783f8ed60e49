import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { canSignIn } from '../users/account-state.js';
import type { PasswordVerifier } from '../users/password-verifier.js';
import * as users from '../users/lookup.js';
import type { LockoutService, LockTarget } from './lockout.service.js';
import type { LoginMeta, SignInService } from './sign-in.service.js';

type Deps = { db: Db; lockout: LockoutService; signIn: SignInService; verifyPassword: PasswordVerifier['verify'] };

export interface PasswordLoginInput {
  by: { email: string } | { phone: string };
  password: string;
  totp_code?: string | undefined;
  device_info?: string | undefined;
}

/** The password login; what follows the password is the sign-in every method shares (sign-in.service.ts). */
export function createLoginService({ db, lockout, signIn, verifyPassword }: Deps) {
  /**
   * POST login/email/ and login/phone/, as named steps: find user → locked? → verify password → record attempt →
   * account state → second factor → token scope → session and device limits → issue tokens.
   */
  async function loginWithPassword(input: PasswordLoginInput, meta: LoginMeta) {
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
    // Inactive, banned and deleted accounts get the same answer as a wrong password.
    if (!canSignIn(user)) {
      await signIn.failed(identifier, meta, user.id, user.is_banned ? 'banned' : 'inactive');
      throw new AppError('LOGIN_FAILED');
    }
    await signIn.secondFactor(user, input.totp_code, target, identifier, meta);
    return signIn.completeLogin(user, identifier, input.device_info, meta);
  }

  return { loginWithPassword };
}

export type LoginService = ReturnType<typeof createLoginService>;
