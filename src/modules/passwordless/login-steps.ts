import { isAppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { LockErrorOptions, LockoutService } from '../auth/lockout.service.js';
import type { LoginUser } from '../users/lookup.js';

export { failureReasonOf } from '../users/account-state.js';

type Deps = { db: Db; lockout: LockoutService };

/** What passwordless logins add to the steps every sign-in shares (auth/sign-in.service.ts). */
export function createLoginSteps({ db, lockout }: Deps) {
  /**
   * Runs a step of the shared login (second factor, session) and restates a 423 it throws in the form the
   * caller's endpoint uses for `retry_after`.
   */
  async function restatingLock<T>(userId: number, opts: LockErrorOptions, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      if (isAppError(err) && err.code === 'ACCOUNT_LOCKED' && opts.retryAfter === 'timestamp') {
        throw await lockout.lockedErrorOf(userId, db, opts);
      }
      throw err;
    }
  }

  return { restatingLock };
}

export type LoginSteps = ReturnType<typeof createLoginSteps>;
