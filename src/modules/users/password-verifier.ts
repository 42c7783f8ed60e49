import type { Db } from '../../db/database.js';
import { createForeignHashVerifier, type ForeignHashVerifier } from '../../security/foreign-hash-verify.js';
import { defaultHashConcurrency, normalizePassword, type PasswordHasher } from '../../security/password-hash.js';
import * as repo from './users.repo.js';

/** What checking an account's password reads. */
export interface PasswordAccount {
  id: number;
  password_hash: string | null;
  has_usable_password: boolean;
  password_hash_unnormalized: boolean;
}

type Deps = { db: Db; hasher: PasswordHasher; foreign?: ForeignHashVerifier };

/**
 * The one password check of every sign-in and every confirmation by password. Hashes hold NFKC(password); those made
 * before normalization (marked by migration 0008) hold the raw text and are tried raw when the normalized form fails,
 * then upgraded. The work never depends on the account: a missing or passwordless account is checked against the
 * dummy hash, and when the input changes under NFKC (the only case where a raw try can differ) every caller pays the
 * second verify — against the dummy hash unless the account is marked — so the fallback is no timing oracle.
 *
 * Hashes imported from another system (`gatehouse users import`: bcrypt, Django's, scrypt, argon2 at other parameters)
 * are checked by the foreign verifier, and replaced by argon2id on the first success, only while the row still holds
 * the imported hash. The import marks them unnormalized, since their systems hashed the text as typed. Their cost is
 * their own until then: an unknown account still costs one argon2id verify of the dummy hash.
 */
export function createPasswordVerifier({ db, hasher, foreign = createForeignHashVerifier(defaultHashConcurrency()) }: Deps) {
  /** Whether `encoded` is the hash of `text` taken as given: Gatehouse's own hashes by the hasher, imported ones by theirs. */
  const check = (encoded: string, text: string): Promise<boolean> =>
    (hasher.needsRehash(encoded) ? foreign.verify(encoded, text) : hasher.verifyUnnormalized(encoded, text));

  async function verify(account: PasswordAccount | undefined, password: string): Promise<boolean> {
    const stored = account?.has_usable_password && account.password_hash ? account.password_hash : null;
    if (await check(stored ?? hasher.dummyHash, normalizePassword(password))) {
      if (stored === null) return false;
      await upgrade(account!, stored, password);
      return true;
    }
    if (normalizePassword(password) === password) return false;
    const marked = stored !== null && account!.password_hash_unnormalized;
    const rawOk = await check(marked ? stored : hasher.dummyHash, password);
    if (!marked || !rawOk) return false;
    await repo.replacePasswordHash(db, account!.id, stored, await hasher.hash(password));
    return true;
  }

  /**
   * A correct password whose hash is outdated is re-hashed at once: other argon2 parameters or an imported hash, or a hash marked as
   * unnormalized (the normalized form matched, so the text was already NFKC: only the mark goes).
   */
  async function upgrade(account: PasswordAccount, stored: string, password: string) {
    if (hasher.needsRehash(stored)) await repo.replacePasswordHash(db, account.id, stored, await hasher.hash(password));
    else if (account.password_hash_unnormalized) await repo.replacePasswordHash(db, account.id, stored, stored);
  }

  return { verify };
}

export type PasswordVerifier = ReturnType<typeof createPasswordVerifier>;
