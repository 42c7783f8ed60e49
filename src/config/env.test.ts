import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readEnvironment } from './env.js';

const FROM_REAL_ENV = 'GATEHOUSE_ENV_TEST_REAL';

describe('readEnvironment', () => {
  let dir: string;
  let empty: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-env-'));
    empty = mkdtempSync(join(tmpdir(), 'gatehouse-env-empty-'));
    writeFileSync(join(dir, '.env'), [
      '# comment',
      'GATEHOUSE_ENV_TEST_FILE_ONLY=from-file',
      'GATEHOUSE_ENV_TEST_QUOTED="two words"',
      `${FROM_REAL_ENV}=from-file`,
      'GATEHOUSE_ENV_TEST_OVERRIDDEN=from-file',
      '',
    ].join('\n'));
    process.env[FROM_REAL_ENV] = 'from-process';
  });

  after(() => {
    delete process.env[FROM_REAL_ENV];
    rmSync(dir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it('reads .env from the given directory', () => {
    const env = readEnvironment(dir);
    assert.equal(env.GATEHOUSE_ENV_TEST_FILE_ONLY, 'from-file');
    assert.equal(env.GATEHOUSE_ENV_TEST_QUOTED, 'two words');
  });

  it('lets a variable of the real environment win over the file', () => {
    assert.equal(readEnvironment(dir)[FROM_REAL_ENV], 'from-process');
  });

  it('lets the overrides argument win over the file and the real environment', () => {
    const env = readEnvironment(dir, { GATEHOUSE_ENV_TEST_OVERRIDDEN: 'from-overrides', [FROM_REAL_ENV]: 'from-overrides' });
    assert.equal(env.GATEHOUSE_ENV_TEST_OVERRIDDEN, 'from-overrides');
    assert.equal(env[FROM_REAL_ENV], 'from-overrides');
  });

  it('still contains the real environment', () => {
    assert.equal(readEnvironment(dir).PATH, process.env.PATH);
  });

  it('works without a .env file', () => {
    const env = readEnvironment(empty);
    assert.equal(env.GATEHOUSE_ENV_TEST_FILE_ONLY, undefined);
    assert.equal(env[FROM_REAL_ENV], 'from-process');
  });
});
