import { ConfigError } from '../../config/errors.js';
import type { LoadedConfig } from '../../config/load.js';
import type { Db } from '../../db/database.js';
import * as repo from './encryption.repo.js';
import { opens, SEALED_COLUMNS, type Sealers } from './sealers.js';

/** The text sealed as the check value: any constant would do, the point is that it opens. */
export const KEY_CHECK_TEXT = 'gatehouse:key-check:v1';

export interface KeyCheckOptions {
  /** Write the check value when there is none (server start-up); off for a check that must change nothing. */
  write: boolean;
  /**
   * `ephemeral`: a key drawn for this process (debug mode on PostgreSQL or `memory://`): what an earlier start sealed is
   * lost by design, so it is reported and the check value replaced. `new-debug-secrets`: debug secrets kept for the
   * first time, in a directory whose earlier starts sealed with ephemeral keys: that old data is reported, not refused.
   */
  lenient: 'ephemeral' | 'new-debug-secrets' | false;
  /** The setting the key comes from, and how (keySettingOf). */
  setting: KeySetting;
  warn: (message: string) => void;
  now: Date;
}

export interface KeySetting {
  name: 'SVC_ENCRYPTION_KEY' | 'SVC_JWT_SECRET_KEY';
  /** Said after the name in messages: where the key comes from when that is not plain. */
  detail: string;
}

/** Which setting the key that seals comes from, for messages that tell what to change. */
export function keySettingOf(loaded: Pick<LoadedConfig, 'config' | 'debugSecrets'>): KeySetting {
  const fromFile = loaded.debugSecrets?.file;
  if (loaded.config.ENCRYPTION_KEY !== null) {
    const filled = loaded.debugSecrets?.supplied.includes('SVC_ENCRYPTION_KEY');
    return { name: 'SVC_ENCRYPTION_KEY', detail: filled ? ` (taken from ${fromFile})` : '' };
  }
  return { name: 'SVC_JWT_SECRET_KEY', detail: ' (SVC_ENCRYPTION_KEY is not set, so the encryption key is derived from SVC_JWT_SECRET_KEY)' };
}

export type KeyCheckOutcome = 'verified' | 'written' | 'replaced' | 'no-table';

/**
 * Proves at start-up that the encryption key opens what the database stores, so that a wrong key stops the start with
 * a line naming the setting instead of answering 500 at each TOTP check and failing every webhook delivery.
 * The check value (`sealed_values.key-check`) is written at the first start and opened at every later one. A database
 * without one (written before it existed) has the key tried on one stored value of each kind first.
 */
export async function checkEncryptionKey(db: Db, sealers: Sealers, opts: KeyCheckOptions): Promise<KeyCheckOutcome> {
  const checkOpens = (sealed: string) => opens(sealers['key-check'], sealed) && sealers['key-check'].open(sealed) === KEY_CHECK_TEXT;
  if (!(await repo.hasSealedValues(db))) {
    await refuseUnreadable(db, sealers, opts);
    return 'no-table';
  }
  const existing = await repo.findSealedValue(db, 'key-check');
  if (existing) {
    if (checkOpens(existing.sealed)) return 'verified';
    if (opts.lenient !== 'ephemeral') throw mismatch(opts.setting);
    opts.warn('the secrets stored in the database were sealed by an earlier start with another ephemeral key and cannot be '
      + 'decrypted: the TOTP secrets, backup codes and webhook secrets stored then are lost (set SVC_JWT_SECRET_KEY to keep them '
      + 'across restarts)');
    if (opts.write) await replaceCheck(db, sealers, opts.now);
    return 'replaced';
  }
  await refuseUnreadable(db, sealers, opts);
  if (!opts.write) return 'verified';
  await repo.insertSealedValue(db, 'key-check', sealers['key-check'].seal(KEY_CHECK_TEXT), opts.now);
  // Another instance starting at the same moment may have written it first, with its key.
  const written = await repo.findSealedValue(db, 'key-check');
  if (!written || !checkOpens(written.sealed)) throw mismatch(opts.setting);
  return 'written';
}

/** The stored values this key cannot open, in words; refused unless lenient (then reported). */
async function refuseUnreadable(db: Db, sealers: Sealers, opts: KeyCheckOptions): Promise<void> {
  const unreadable = await unreadableKinds(db, sealers);
  if (unreadable.length === 0) return;
  if (!opts.lenient) {
    throw new ConfigError(`Invalid setting ${opts.setting.name}: it cannot decrypt ${unreadable.join(', ')}; set the ${opts.setting.name} `
      + `it was sealed with${opts.setting.detail}`);
  }
  opts.warn(`the encryption key cannot decrypt ${unreadable.join(', ')}, sealed by an earlier start with an ephemeral key: the `
    + 'accounts with two-factor authentication must have it reset (gatehouse user reset-2fa EMAIL) and set it up again, and '
    + 'those webhooks need a new secret');
}

/** One stored value of each kind, tried: the kinds whose value does not open. */
async function unreadableKinds(db: Db, sealers: Sealers): Promise<string[]> {
  const found: string[] = [];
  const signing = await repo.latestSigningKey(db);
  if (signing && !opens(sealers['signing-keys'], signing.private_key_sealed)) found.push(`the stored signing key ${signing.kid}`);
  for (const c of SEALED_COLUMNS.filter((s) => s.table !== 'signing_keys')) {
    for (const column of c.columns) {
      const sealed = await repo.anySealed(db, c.table, column);
      if (sealed !== undefined && !opens(sealers[c.purpose], sealed)) { found.push(`the stored ${c.what}`); break; }
    }
  }
  if (await repo.hasSealedValues(db)) {
    const backup = await repo.findSealedValue(db, 'backup-code-key');
    if (backup && !opens(sealers['backup-code-key'], backup.sealed)) found.push('the backup-code key');
  }
  return found;
}

async function replaceCheck(db: Db, sealers: Sealers, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await repo.lockEncryptionKey(trx);
    await repo.saveSealedValue(trx, 'key-check', sealers['key-check'].seal(KEY_CHECK_TEXT), now);
    // The backup codes made under the lost key are lost with it: new ones are made with the key derived from this one.
    await repo.deleteSealedValue(trx, 'backup-code-key');
  });
}

function mismatch(setting: KeySetting): ConfigError {
  return new ConfigError(`Invalid setting ${setting.name}: it cannot decrypt the secrets stored in the database (TOTP secrets, `
    + `backup codes, webhook secrets, signing keys), which were sealed with another key${setting.detail}; set the key they were `
    + 'sealed with, or re-seal them for this one with `gatehouse keys rotate-encryption --from <that key> --to <this key>`');
}
