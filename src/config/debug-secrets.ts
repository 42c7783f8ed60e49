import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { systemClock } from '../core/clock.js';
import { ConfigError } from './errors.js';
import { embeddedDataDir, explicitSetting, type DebugSecrets, type Env } from './load.js';

/**
 * The secrets debug mode generates, kept with the embedded database they protect (docs/decisions.md "Debug secrets").
 * Without them every start of `npm start` drew a new JWT secret, and the key derived from it that seals TOTP secrets
 * and webhook secrets: a restart made them unreadable.
 */
export const DEBUG_SECRETS_FILE = 'debug-secrets.json';

const MIN_SECRET_BYTES = 32;

interface StoredSecrets {
  /** Always true: what tells a command run without SVC_DEBUG that this directory is a debug one. */
  debug: true;
  created_by: string;
  created_at: string;
  jwt_secret_key: string;
  encryption_key: string;
}

export interface ResolvedEnvironment {
  env: Env;
  secrets: DebugSecrets | null;
  warnings: string[];
}

/** Where the debug secrets of this environment's embedded database are, or null for PostgreSQL and `memory://`. */
export function debugSecretsFileOf(env: Env): string | null {
  const dir = embeddedDataDir(env);
  return dir === null ? null : resolve(dir, DEBUG_SECRETS_FILE);
}

const isSet = (env: Env, key: 'JWT_SECRET_KEY' | 'ENCRYPTION_KEY') => (explicitSetting(env, key) ?? null) !== null;

/**
 * Completes `env` with the data directory's debug secrets, in debug mode on the embedded database on disk: read from
 * the file, or generated and written to it when it does not exist yet and `SVC_JWT_SECRET_KEY` is not set. With
 * `adoptDebug` (one-shot commands), a directory whose file exists is taken as a debug one when `SVC_DEBUG` is not set,
 * so `npx gatehouse …` beside `npm start` finds the server's settings. Explicit settings always win; outside debug
 * mode the file is never read.
 */
export function withDebugSecrets(env: Env, opts: { adoptDebug: boolean }): ResolvedEnvironment {
  const none: ResolvedEnvironment = { env, secrets: null, warnings: [] };
  const file = debugSecretsFileOf(env);
  if (!file) return none;
  const askedDebug = explicitSetting(env, 'DEBUG');
  if (askedDebug === false || (askedDebug === undefined && !(opts.adoptDebug && existsSync(file)))) return none;
  const jwtSet = isSet(env, 'JWT_SECRET_KEY');
  let stored = readSecrets(file);
  let created = false;
  if (!stored) {
    if (jwtSet) return none; // nothing to generate: the explicit secret seals, as before
    ({ stored, created } = createSecrets(file));
  }
  const completed: Env = { ...env };
  const supplied: DebugSecrets['supplied'] = [];
  if (askedDebug === undefined) completed.SVC_DEBUG = 'true';
  if (!jwtSet) { completed.SVC_JWT_SECRET_KEY = stored.jwt_secret_key; supplied.push('SVC_JWT_SECRET_KEY'); }
  if (!isSet(env, 'ENCRYPTION_KEY')) { completed.SVC_ENCRYPTION_KEY = stored.encryption_key; supplied.push('SVC_ENCRYPTION_KEY'); }
  const warnings = (statSync(file).mode & 0o077) !== 0
    ? [`${file} can be read by other users of this machine: chmod 600 it (it holds the debug secrets)`] : [];
  return { env: completed, secrets: { file, created, adopted: askedDebug === undefined, supplied }, warnings };
}

function readSecrets(file: string): StoredSecrets | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConfigError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  const unusable = () => new ConfigError(`Invalid file ${file}: not the debug secrets Gatehouse wrote; restore it from a copy `
    + `(the data in ${dirname(file)} was sealed with them), or remove the whole directory to start afresh`);
  let parsed: Partial<StoredSecrets>;
  try { parsed = JSON.parse(text) as Partial<StoredSecrets>; } catch { throw unusable(); }
  const strong = (v: unknown) => typeof v === 'string' && Buffer.byteLength(v, 'utf8') >= MIN_SECRET_BYTES;
  if (parsed?.debug !== true || !strong(parsed.jwt_secret_key) || !strong(parsed.encryption_key)) throw unusable();
  return parsed as StoredSecrets;
}

/** A new file; if another process wrote one first (two starts at once), that one is used. */
function createSecrets(file: string): { stored: StoredSecrets; created: boolean } {
  const stored: StoredSecrets = {
    debug: true,
    created_by: 'gatehouse in debug mode (npm start); keep this file with the data: it seals what the database stores',
    created_at: systemClock.now().toISOString(),
    jwt_secret_key: randomBytes(48).toString('base64url'),
    encryption_key: randomBytes(32).toString('base64url'),
  };
  if (writeSecretsFile(file, stored, { replace: false })) return { stored, created: true };
  return { stored: readSecrets(file)!, created: false };
}

/**
 * After `gatehouse keys rotate-encryption` in a debug data directory whose encryption key came from the file: the file
 * names the new key, so the next start opens what the rotation re-sealed.
 */
export function replaceDebugEncryptionKey(file: string, encryptionKey: string): void {
  const stored = readSecrets(file);
  if (!stored) throw new ConfigError(`${file} has disappeared`);
  writeSecretsFile(file, { ...stored, encryption_key: encryptionKey }, { replace: true });
}

/**
 * Written whole or not at all: a private draft (mode 0600, synced to disk) is linked into place — `link` fails when
 * the name exists, so of two processes creating it one wins — or, to replace the file, renamed over it.
 * Answers false when the file already existed and `replace` is off.
 */
function writeSecretsFile(file: string, stored: StoredSecrets, opts: { replace: boolean }): boolean {
  mkdirSync(dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(draft, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(stored, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (opts.replace) { renameSync(draft, file); return true; }
    linkSync(draft, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    try { unlinkSync(draft); } catch { /* renamed, or already gone */ }
    syncDirectory(dirname(file));
  }
}

/** The new name survives a crash only once the directory is synced; not every platform allows it, hence best effort. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  } catch { /* best effort */ }
}
