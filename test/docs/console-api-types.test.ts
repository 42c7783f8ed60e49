import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { OpenAPI3 } from 'openapi-typescript';
import { currentApiTypes, DEFAULT_TYPES, relativeToPrefix, renderApiTypes } from '../../scripts/console-api-types.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/console-api-types.ts', import.meta.url));

describe('the console\'s API types', () => {
  let generated: string;
  before(async () => { generated = await currentApiTypes(); });

  it('are the types generated from the server\'s OpenAPI document (run npm run console:api-types to update them)', () => {
    assert.equal(readFileSync(DEFAULT_TYPES, 'utf8'), generated, 'console/src/api-types.ts is out of date: run npm run console:api-types');
  });

  it('name the API\'s paths relative to its prefix, with their answers', () => {
    assert.match(generated, /^ {4}"admin\/users\/\{id\}\/": \{$/m);
    assert.doesNotMatch(generated, /"\/api\//);
    assert.match(generated, /failed_login_count: number;/);
  });

  describe('the command', () => {
    let dir: string;
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { encoding: 'utf8' });
    before(() => { dir = mkdtempSync(join(tmpdir(), 'gatehouse-api-types-')); });
    after(() => { rmSync(dir, { recursive: true, force: true }); });

    it('--check fails on a stale file, naming the command that updates it', () => {
      const path = join(dir, 'stale.ts');
      writeFileSync(path, 'export interface paths {}\n');
      const stale = run('--check', path);
      assert.equal(stale.status, 1, stale.stderr);
      assert.match(stale.stderr, /out of date: run npm run console:api-types/);
    });

    it('--write writes the generated types', () => {
      const path = join(dir, 'written.ts');
      const write = run('--write', path);
      assert.equal(write.status, 0, write.stderr);
      assert.equal(readFileSync(path, 'utf8'), generated);
    });
  });
});

describe('relativeToPrefix', () => {
  const document = {
    openapi: '3.0.3', info: { title: 't', version: '1' },
    paths: {
      '/api/v1/auth/me/': { get: { responses: { 200: { description: 'me' } } } },
      '/health/live': { get: { responses: { 200: { description: 'live' } } } },
    },
  } as OpenAPI3;

  it('keeps the API\'s paths only, relative to the prefix', () => {
    const relative = relativeToPrefix(document, '/api/v1/auth/');
    assert.deepEqual(Object.keys(relative.paths ?? {}), ['me/']);
  });

  it('renders a module headed by how to regenerate it', async () => {
    const types = await renderApiTypes(relativeToPrefix(document, '/api/v1/auth/'));
    assert.ok(types.startsWith('/**\n'), types.slice(0, 80));
    assert.match(types.split('*/')[0] ?? '', /npm run console:api-types/);
    assert.match(types, /"me\/": \{/);
    assert.doesNotMatch(types, /health/);
  });
});
