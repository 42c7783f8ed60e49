import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadSettings } from '../main.js';
import { DEBUG_SECRETS_FILE, replaceDebugEncryptionKey, withDebugSecrets } from './debug-secrets.js';
import { ConfigError } from './errors.js';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const dataDir = () => { const d = mkdtempSync(join(tmpdir(), 'gatehouse-debug-secrets-')); dirs.push(d); return join(d, 'data'); };
const stored = (dir: string) => JSON.parse(readFileSync(join(dir, DEBUG_SECRETS_FILE), 'utf8')) as Record<string, unknown>;
const KEY = 'an explicit secret of at least thirty-two bytes';

describe('debug secrets kept with the embedded database', () => {
  it('are generated at the first debug start into a private file, and the same ones are read at every later start', () => {
    const dir = dataDir();
    const first = withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir }, { adoptDebug: false });
    const file = join(dir, DEBUG_SECRETS_FILE);
    assert.deepEqual(first.secrets, { file, created: true, adopted: false, supplied: ['SVC_JWT_SECRET_KEY', 'SVC_ENCRYPTION_KEY'] });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), [DEBUG_SECRETS_FILE], 'no draft left behind');
    const content = stored(dir);
    assert.equal(content.debug, true);
    assert.equal(first.env.SVC_JWT_SECRET_KEY, content.jwt_secret_key);
    assert.equal(first.env.SVC_ENCRYPTION_KEY, content.encryption_key);

    const again = withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir }, { adoptDebug: false });
    assert.equal(again.secrets?.created, false);
    assert.deepEqual([again.env.SVC_JWT_SECRET_KEY, again.env.SVC_ENCRYPTION_KEY], [first.env.SVC_JWT_SECRET_KEY, first.env.SVC_ENCRYPTION_KEY]);
    // loadConfig then has no ephemeral secret to warn about.
    const loaded = loadSettings({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir });
    assert.equal(loaded.config.JWT_SECRET_KEY, content.jwt_secret_key);
    assert.deepEqual(loaded.warnings.filter((w) => /ephemeral/.test(w)), []);
  });

  it('give way to explicit settings, one by one', () => {
    const dir = dataDir();
    // An explicit secret and no file: nothing to generate, no file.
    assert.equal(withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir, SVC_JWT_SECRET_KEY: KEY }, { adoptDebug: false }).secrets, null);
    assert.equal(existsSync(join(dir, DEBUG_SECRETS_FILE)), false);
    const made = withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir }, { adoptDebug: false });
    // Once the file exists, an explicit secret wins and the file still gives the encryption key that sealed the data.
    const mixed = withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir, SVC_JWT_SECRET_KEY: KEY }, { adoptDebug: false });
    assert.deepEqual(mixed.secrets?.supplied, ['SVC_ENCRYPTION_KEY']);
    assert.equal(mixed.env.SVC_JWT_SECRET_KEY, KEY);
    assert.equal(mixed.env.SVC_ENCRYPTION_KEY, made.env.SVC_ENCRYPTION_KEY);
    const both = withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir, SVC_JWT_SECRET_KEY: KEY, SVC_ENCRYPTION_KEY: KEY }, { adoptDebug: false });
    assert.deepEqual(both.secrets?.supplied, []);
    assert.equal(both.env.SVC_ENCRYPTION_KEY, KEY);
  });

  it('are never used with PostgreSQL, memory://, or outside debug mode; a command without SVC_DEBUG adopts a debug directory', () => {
    const dir = dataDir();
    for (const env of [{ SVC_DEBUG: 'true', SVC_DATA_DIR: 'memory://' }, { SVC_DEBUG: 'true', SVC_DATA_DIR: dir, DATABASE_URL: 'postgres://h/db' },
      { SVC_DEBUG: 'false', SVC_DATA_DIR: dir }, { SVC_DATA_DIR: dir }]) {
      assert.equal(withDebugSecrets(env, { adoptDebug: true }).secrets, null, JSON.stringify(env));
    }
    assert.equal(existsSync(join(dir, DEBUG_SECRETS_FILE)), false, 'only a debug start creates the file');

    const made = withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir }, { adoptDebug: false });
    const beside = withDebugSecrets({ SVC_DATA_DIR: dir }, { adoptDebug: true });
    assert.equal(beside.secrets?.adopted, true);
    assert.equal(beside.env.SVC_DEBUG, 'true');
    assert.equal(beside.env.SVC_JWT_SECRET_KEY, made.env.SVC_JWT_SECRET_KEY);
    // An explicit SVC_DEBUG=false contradicts it, and a server never adopts it: the missing secret says what to do.
    assert.equal(withDebugSecrets({ SVC_DEBUG: 'false', SVC_DATA_DIR: dir }, { adoptDebug: true }).secrets, null);
    assert.equal(withDebugSecrets({ SVC_DATA_DIR: dir }, { adoptDebug: false }).secrets, null);
    assert.throws(() => loadSettings({ SVC_DATA_DIR: dir }, { adoptDebugDataDir: false }), (err: unknown) => err instanceof ConfigError
      && /^Missing setting SVC_JWT_SECRET_KEY: required outside debug mode .*; .* holds the data of `npm start` in debug mode, whose secrets are in .*debug-secrets\.json: run `npm start`, or set SVC_DEBUG=true to use them$/.test(err.message));
  });

  it('refuse a damaged file with a line naming it, and a rotation replaces the encryption key in place', () => {
    const dir = dataDir();
    const made = withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir }, { adoptDebug: false });
    const file = join(dir, DEBUG_SECRETS_FILE);
    replaceDebugEncryptionKey(file, KEY);
    const after = withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir }, { adoptDebug: false });
    assert.deepEqual([after.env.SVC_JWT_SECRET_KEY, after.env.SVC_ENCRYPTION_KEY], [made.env.SVC_JWT_SECRET_KEY, KEY]);
    assert.equal(statSync(file).mode & 0o777, 0o600);

    writeFileSync(file, '{"debug": true, "jwt_secret_key": "short"}');
    assert.throws(() => withDebugSecrets({ SVC_DEBUG: 'true', SVC_DATA_DIR: dir }, { adoptDebug: false }),
      (err: unknown) => err instanceof ConfigError && err.message.startsWith(`Invalid file ${file}: not the debug secrets Gatehouse wrote`));
  });
});
