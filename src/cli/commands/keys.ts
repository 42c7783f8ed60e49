import type { Env } from '../../config/load.js';
import { toIso } from '../../core/clock.js';
import { migrateToLatest } from '../../db/migrator.js';
import { checkStoredKey, openRuntime, type Runtime } from '../../main.js';
import type { KeyListing, Rotation } from '../../modules/keys/keys.service.js';
import { OPENID_ALGORITHM } from '../../modules/keys/openid-keys.js';
import { servedRuntime } from '../context.js';
import { print, printError, printJson, UsageError } from '../output.js';
import { runtimeOptions } from './database.js';

/**
 * Like the other one-shot commands, with Redis when configured: a rotation is announced to the running instances (over
 * Redis and PostgreSQL's NOTIFY).
 */
async function withKeys<T>(env: Env, fn: (rt: Runtime) => Promise<T>): Promise<T> {
  const served = servedRuntime();
  if (served) return fn(served);
  const rt = await openRuntime(env, { ...runtimeOptions(env), redis: true, warn: () => undefined });
  try {
    await migrateToLatest(rt.database.db);
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

const SOURCES = { secret: 'SVC_JWT_SECRET_KEY', environment: 'SVC_JWT_PRIVATE_KEY', database: 'database' } as const;
const date = (d: Date | null) => toIso(d)?.replace(/\.\d{3}Z$/, 'Z') ?? '-';

/** One row per key; a PURPOSE column once the OpenID Provider has keys of its own beside the access keys. */
function table(keys: KeyListing[]): string[] {
  const hasPurposes = keys.some((k) => k.purpose !== 'access');
  const purposeOf = (k: KeyListing) => (hasPurposes ? [k.purpose] : []);
  const rows = [['KID', 'ALGORITHM', ...(hasPurposes ? ['PURPOSE'] : []), 'STATE', 'SOURCE', 'CREATED', 'SIGNS UNTIL', 'VERIFIES UNTIL'],
    ...keys.map((k) => [k.kid, k.algorithm, ...purposeOf(k), k.state, SOURCES[k.source], date(k.created_at), date(k.superseded_at),
      date(k.verifies_until)])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}

/**
 * HS256 without SVC_JWT_SECRET_KEY (debug): every process draws a secret of its own, so the kid this process would
 * compute names no key any server signs with.
 */
const EPHEMERAL_SECRET = 'SVC_JWT_SECRET_KEY is not set: in debug mode each server process signs with a random secret of its '
  + 'own, so no key id can be listed here; set SVC_JWT_SECRET_KEY (at least 32 bytes) for a key that lasts';

/**
 * `gatehouse keys list [--json]`: every key with its state (active, verifying, retired), by the kid the tokens it signs
 * carry in their header.
 */
export async function keysListCommand(env: Env, opts: { json: boolean }): Promise<void> {
  await withKeys(env, async ({ container, loaded }) => {
    if (container.services.keys.source === 'secret' && loaded.sources.JWT_SECRET_KEY === 'derived') {
      if (opts.json) {
        printJson([]);
        printError(`gatehouse: ${EPHEMERAL_SECRET}`);
      } else {
        print(`No key to list. ${EPHEMERAL_SECRET}.`);
      }
      return;
    }
    const keys = await container.services.keys.list();
    if (opts.json) {
      printJson(keys.map((k) => ({ ...k, created_at: toIso(k.created_at), activated_at: toIso(k.activated_at),
        superseded_at: toIso(k.superseded_at), verifies_until: toIso(k.verifies_until) })));
      return;
    }
    if (keys.length === 0) {
      print('No signing key yet: the server creates one when it first starts (or run `gatehouse keys rotate`).');
      return;
    }
    for (const line of table(keys)) print(line);
  });
}

function printRotation(rotation: Rotation, what: string): void {
  print(`New ${what} ${rotation.kid} (${rotation.algorithm}) signs from now on.`);
  if (rotation.previous) {
    print(`Previous key ${rotation.previous.kid} keeps verifying until ${date(rotation.previous.verifies_until)}, then retires.`);
  }
}

/**
 * `gatehouse keys rotate`: a new key signs from now on; the previous one verifies until its last token has expired. The
 * OpenID Provider's own key set, when it has one, is rotated too (docs/resource-servers.md "The OpenID Provider's keys").
 */
export async function keysRotateCommand(env: Env): Promise<void> {
  await withKeys(env, async (rt) => {
    const { container } = rt;
    const { keys } = container.services;
    // The new keys are sealed with the configured encryption key: one that cannot open the stored ones must not seal them.
    const checkEncryptionKey = () => checkStoredKey(rt, { write: false, warn: (m) => printError(`warning: ${m}`) });
    if (keys.source !== 'database' && await keys.hasOpenIdKeySet()) {
      // Access keys Gatehouse does not manage: the OpenID Provider's own set is rotated alone.
      await checkEncryptionKey();
      print(`Generating an ${OPENID_ALGORITHM} key for the OpenID Provider…`);
      const openid = (await keys.rotateOpenId())!;
      printRotation(openid, 'OpenID Provider key');
      printAnnounced(openid);
      return;
    }
    if (keys.source === 'secret') {
      throw new UsageError('keys rotate: SVC_JWT_ALGORITHM is HS256, which signs with SVC_JWT_SECRET_KEY; set SVC_JWT_ALGORITHM to '
        + 'EdDSA, ES256 or RS256 for keys that Gatehouse generates and rotates');
    }
    if (keys.source === 'environment') {
      throw new UsageError('keys rotate: the signing key comes from SVC_JWT_PRIVATE_KEY and is not rotated by Gatehouse; unset it to '
        + 'let Gatehouse generate and rotate keys, or replace it (tokens signed with the old key are then refused)');
    }
    await checkEncryptionKey();
    print(`Generating a ${container.config.JWT_ALGORITHM} key…`);
    const rotation = await keys.rotate();
    printRotation(rotation, 'signing key');
    const openid = await keys.rotateOpenId();
    if (openid) printRotation(openid, 'OpenID Provider key');
    printAnnounced(openid ?? rotation);
  });
}

const printAnnounced = (rotation: Rotation) => print(rotation.announced
  ? 'Running instances were told and switch at once.'
  : 'Running instances could not be told; each switches at its next check of the keys, within 5 seconds.');
