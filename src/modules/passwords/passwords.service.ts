import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';
import type { Executor } from '../../db/database.js';
import type { PasswordHasher } from '../../security/password-hash.js';
import type { BreachChecker } from './breach.js';
import * as history from './passwords.repo.js';
import { checkPasswordPolicy, contextWords, type PasswordContext } from './password-policy.js';
import { isCommonPassword, scorePassword } from './strength.js';

type Deps = { db: Executor; config: Config; hasher: PasswordHasher; breach: BreachChecker };

export interface NewPassword {
  password: string;
  /** The account the password is for (absent while creating one): its history is checked. */
  userId?: number | null;
  /** Who the password belongs to: their email local part and names are refused inside it. */
  context?: PasswordContext;
  /** The body field validation errors are reported under. */
  field?: string;
}

/**
 * docs/passwords-and-codes.md "The password policy": the policy as clients see it, a strength
 * estimate that applies it, and the one gate every new password passes (register, change, reset, set-initial,
 * CLI): rules and context words → 400 validation, history → 400 PASSWORD_REUSED, breach → 400 PASSWORD_BREACHED.
 */
export function createPasswordService({ db, config, hasher, breach }: Deps) {
  function requirements() {
    return {
      min_length: config.PASSWORD_MIN_LENGTH,
      require_lowercase: config.PASSWORD_REQUIRE_LOWERCASE,
      require_uppercase: config.PASSWORD_REQUIRE_UPPERCASE,
      require_numbers: config.PASSWORD_REQUIRE_NUMBERS,
      require_special: config.PASSWORD_REQUIRE_SPECIAL,
    };
  }

  /** Problems of `password` under the policy, for the account described by `context`; empty means acceptable. */
  const check = (password: string, context: PasswordContext = {}) => checkPasswordPolicy(password, config, context, isCommonPassword);

  function strength(password: string, context: PasswordContext = {}) {
    const errors = check(password, context);
    const inputs = [...contextWords(context), ...(context.email ? [context.email.trim().toLowerCase()] : [])];
    const { score, strength: label } = scorePassword(password, inputs);
    return { score, strength: label, is_valid: errors.length === 0, errors, requirements: requirements() };
  }

  /** The breach check per preset; the local list of common passwords answers when it is off. */
  const breached = (password: string) => (config.BREACH_CHECK_ENABLED ? breach.check(password) : Promise.resolve(breach.local(password)));

  /** True when `password` matches the account's current password or one of its `PASSWORD_HISTORY` previous ones. */
  async function reused(userId: number, password: string): Promise<boolean> {
    if (config.PASSWORD_HISTORY <= 0) return false;
    const hashes = await history.recentHashes(db, userId, config.PASSWORD_HISTORY);
    // A hash made before normalization holds the text as it was typed: compare that form too.
    const matches = await Promise.all(hashes.map(async (h) => await hasher.verify(h.hash, password)
      || (h.unnormalized && await hasher.verifyUnnormalized(h.hash, password))));
    return matches.some(Boolean);
  }

  /**
   * The checks that need I/O (history, breach), after the rules have passed. Throws the spec's errors; answers
   * whether the range API was consulted and did not list the password (`password_safe`).
   */
  async function screen(password: string, userId: number | null | undefined): Promise<{ safe: boolean }> {
    if (userId != null && await reused(userId, password)) throw new AppError('PASSWORD_REUSED');
    const result = await breached(password);
    if (result.breached) throw new AppError('PASSWORD_BREACHED');
    return { safe: result.source === 'range_api' };
  }

  /** Every check, then the argon2id hash of the accepted password. */
  async function vet({ password, userId, context = {}, field = 'new_password' }: NewPassword) {
    const problems = check(password, context);
    if (problems.length) throw AppError.validation({ [field]: problems });
    const { safe } = await screen(password, userId);
    return { hash: await hasher.hash(password), safe };
  }

  /** Remembers a password just set, for the history check. */
  async function remember(trx: Executor, userId: number, hash: string, now: Date): Promise<void> {
    if (config.PASSWORD_HISTORY > 0) await history.remember(trx, userId, hash, now, config.PASSWORD_HISTORY);
  }

  /**
   * Forgets the account's past passwords, when the password it had was removed as not the person's own
   * (docs/security.md "Pre-registration hijacking"): a choice of theirs is not measured against it.
   */
  async function forgetHistory(trx: Executor, userId: number): Promise<void> {
    await history.forgetAll(trx, userId);
  }

  /** Stores an accepted password: usable, no longer to be changed, and remembered for the history check. */
  async function store(trx: Executor, userId: number, hash: string, now: Date): Promise<void> {
    await history.setPassword(trx, userId, hash, now);
    await remember(trx, userId, hash, now);
  }

  /** The words of the account that its password must not contain. */
  async function contextOf(userId: number): Promise<PasswordContext> {
    const account = await history.findAccount(db, userId);
    return account ? { email: account.email, first_name: account.first_name, last_name: account.last_name } : {};
  }

  return { requirements, check, strength, screen, vet, remember, store, forgetHistory, contextOf };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
