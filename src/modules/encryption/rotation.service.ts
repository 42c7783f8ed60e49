import type { Clock } from '../../core/clock.js';
import type { Db, Executor } from '../../db/database.js';
import { deriveKey } from '../../security/seal.js';
import type { AuditService } from '../audit/audit.service.js';
import * as repo from './encryption.repo.js';
import { KEY_CHECK_TEXT } from './key-check.js';
import { opens, SEALED_COLUMNS, sealersOf, type SealedColumns, type Sealers } from './sealers.js';

type Deps = { db: Db; clock: Clock; audit: AuditService };

/** A rotation that cannot start: the message says why, in terms of the command's options. */
export class KeyRotationError extends Error {
  override name = 'KeyRotationError';
}

export interface RotationReport {
  /** Per kind (`TOTP secrets`…): values re-sealed, and values the old key did not open either (left as they were). */
  kinds: Array<{ what: string; resealed: number; unreadable: number }>;
}

const BATCH = 500;

/**
 * `gatehouse keys rotate-encryption`: every value sealed with the encryption key `from` is opened and sealed again with
 * `to`, in one transaction — all of them or none — together with the check value and the backup-code key (whose bytes
 * stay, so every backup code keeps working). `progress` gets a line per kind, and one per thousand values of a large one.
 */
export function createKeyRotationService({ db, clock, audit }: Deps) {
  async function rotate(input: { from: string; to: string }, progress: (line: string) => void): Promise<RotationReport> {
    const old = sealersOf(input.from);
    const next = sealersOf(input.to);
    return db.transaction().execute(async (trx) => {
      await repo.lockEncryptionKey(trx);
      await assertOldKeyOpens(trx, old);
      const kinds: RotationReport['kinds'] = [];
      for (const c of SEALED_COLUMNS) kinds.push(await resealColumns(trx, c, old, next, progress));
      const backupCodeKey = await repo.findSealedValue(trx, 'backup-code-key');
      const keyBytes = backupCodeKey ? old['backup-code-key'].open(backupCodeKey.sealed) : deriveKey(input.from, 'backup-codes').toString('base64url');
      const now = clock.now();
      await repo.saveSealedValue(trx, 'backup-code-key', next['backup-code-key'].seal(keyBytes), now);
      await repo.saveSealedValue(trx, 'key-check', next['key-check'].seal(KEY_CHECK_TEXT), now);
      progress('Backup-code key and check value: re-sealed');
      await audit.record({ event_type: 'encryption_key_rotated', severity: 'warning', details: {
        resealed: Object.fromEntries(kinds.map((k) => [k.what, k.resealed])),
        unreadable: Object.fromEntries(kinds.filter((k) => k.unreadable > 0).map((k) => [k.what, k.unreadable])),
        via: 'cli',
      } }, trx);
      return { kinds };
    });
  }

  /** `from` must be the key in use: it opens the check value or, before there was one, a stored value of each kind. */
  async function assertOldKeyOpens(trx: Executor, old: Sealers): Promise<void> {
    const check = await repo.findSealedValue(trx, 'key-check');
    if (check) {
      if (!opens(old['key-check'], check.sealed)) {
        throw new KeyRotationError('--from is not the key the stored secrets were sealed with: it does not open the check value');
      }
      return;
    }
    for (const c of SEALED_COLUMNS) {
      const [row] = await repo.sealedBatch(trx, c, 0, 1);
      const sealed = row && c.columns.map((col) => row.sealed[col]).find((v): v is string => typeof v === 'string');
      if (sealed && !opens(old[c.purpose], sealed)) {
        throw new KeyRotationError(`--from is not the key the stored secrets were sealed with: it does not open the stored ${c.what}`);
      }
    }
  }

  async function resealColumns(trx: Executor, c: SealedColumns, old: Sealers, next: Sealers, progress: (line: string) => void) {
    const total = await repo.countRows(trx, c.table);
    let resealed = 0;
    let unreadable = 0;
    let seen = 0;
    for (let after = 0; ;) {
      const rows = await repo.sealedBatch(trx, c, after, BATCH);
      for (const row of rows) {
        const values: Record<string, string | null> = {};
        for (const col of c.columns) {
          const sealed = row.sealed[col];
          if (typeof sealed !== 'string') continue;
          // A value the old key cannot open was sealed with a key lost before (a debug start's ephemeral one): no key
          // opens it, so it is left as it is and counted.
          if (!opens(old[c.purpose], sealed)) { unreadable++; continue; }
          values[col] = next[c.purpose].seal(old[c.purpose].open(sealed));
          resealed++;
        }
        if (Object.keys(values).length > 0) await repo.updateSealedRow(trx, c, row.k, values);
      }
      seen += rows.length;
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]!.k;
      if (seen % 1000 === 0) progress(`  ${c.what}: ${seen} of ${total} rows`);
    }
    progress(`${c.what[0]!.toUpperCase()}${c.what.slice(1)}: ${resealed} re-sealed`
      + `${unreadable ? `, ${unreadable} left as they were (the old key does not open them either)` : ''}`);
    return { what: c.what, resealed, unreadable };
  }

  return { rotate };
}

export type KeyRotationService = ReturnType<typeof createKeyRotationService>;
