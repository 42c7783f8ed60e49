import type { Db } from '../../db/database.js';
import { deriveKey } from '../../security/seal.js';
import * as repo from './encryption.repo.js';
import type { Sealers } from './sealers.js';

/**
 * The HMAC key of the stored backup-code hashes (docs/authentication.md "Two-factor authentication"). A hash cannot be
 * re-made without the code, so changing the encryption key must not change this key: it is derived from the secret,
 * as it always was, until a rotation keeps it sealed under the new key in `sealed_values`. Read once per process: a
 * rotation keeps its bytes, so a value read before one stays right.
 */
export function backupCodeKeyOf(db: Db, secret: string, sealers: Sealers): () => Promise<Buffer> {
  let loaded: Promise<Buffer> | undefined;
  const load = async () => {
    const row = await repo.findSealedValue(db, 'backup-code-key');
    return row ? Buffer.from(sealers['backup-code-key'].open(row.sealed), 'base64url') : deriveKey(secret, 'backup-codes');
  };
  return () => (loaded ??= load().catch((err: unknown) => { loaded = undefined; throw err; }));
}
