import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { SettingDef } from '../../src/config/settings.js';
import { SETTINGS } from '../../src/config/settings.js';
import {
  DEFAULT_README, END_MARKER, START_MARKER, extractSettingsTable, renderSettingsTable, replaceSettingsTable,
} from '../../scripts/settings-table.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/settings-table.ts', import.meta.url));

/** Splits a Markdown table row into its cells, honouring escaped pipes. */
const cells = (row: string): string[] =>
  row.slice(2, -2).split(/ \| /).map((c) => c.replace(/\\\|/g, '|'));

describe('README settings table', () => {
  it('matches the table rendered from settings.ts (run npm run docs:settings to update it)', {
    skip: existsSync(DEFAULT_README) ? false : 'README.md does not exist yet',
  }, () => {
    const readme = readFileSync(DEFAULT_README, 'utf8');
    assert.equal(extractSettingsTable(readme), renderSettingsTable(), 'README.md settings table is out of date: run npm run docs:settings');
  });
});

describe('renderSettingsTable', () => {
  const table = renderSettingsTable();
  const rows = table.split('\n');

  it('has the documented columns', () => {
    assert.deepEqual(cells(rows[0] ?? ''), ['Setting', 'Accepts', 'Default', 'development', 'medium', 'robust', 'Description']);
  });

  it('has one row per setting, in table order', () => {
    const names = rows.slice(2).map((r) => cells(r)[0]?.split(', ')[0]);
    assert.deepEqual(names, Object.keys(SETTINGS).map((k) => `\`SVC_${k}\``));
  });

  const rowOf = (name: string) => {
    const row = rows.find((r) => r.startsWith(`| \`${name}\``));
    assert.ok(row, `a row for ${name}`);
    return cells(row);
  };

  it('lists aliases next to the setting name', () => {
    assert.equal(rowOf('SVC_PORT')[0], '`SVC_PORT`, `PORT`');
    assert.equal(rowOf('SVC_DATABASE_URL')[0], '`SVC_DATABASE_URL`, `DATABASE_URL`');
  });

  it('shows what a setting accepts, its default and its description', () => {
    assert.deepEqual(rowOf('SVC_PORT').slice(1, 3), ['an integer from 0 to 65535', '`8000`']);
    assert.equal(rowOf('SVC_PORT')[6], SETTINGS.PORT.description);
  });

  it('uses the default label when there is one', () => {
    assert.equal(rowOf('SVC_SHORTCUT_SECURE_MODE')[2], SETTINGS.SHORTCUT_SECURE_MODE.defaultLabel);
  });

  it('shows a dash for a secret without default and for an empty list', () => {
    assert.equal(rowOf('SVC_JWT_SECRET_KEY')[2], '–');
    assert.equal(rowOf('SVC_TRUSTED_PROXIES')[2], '–');
  });

  it('shows each preset value, and nothing where a preset sets none', () => {
    assert.deepEqual(rowOf('SVC_JWT_ACCESS_TOKEN_LIFETIME').slice(3, 6), ['`3600`', '`900`', '`300`']);
    assert.deepEqual(rowOf('SVC_DEVICE_LIMIT_ACTION').slice(3, 6), ['`revoke_oldest`', '`revoke_oldest`', '`deny`']);
    assert.deepEqual(rowOf('SVC_HOST').slice(3, 6), ['', '', '']);
  });

  it('escapes pipes and joins lists with commas', () => {
    const settings: Record<string, SettingDef> = {
      MODE: { kind: 'enum', default: 'a', choices: ['a', 'b'], description: 'Either a | b.' },
      ORIGINS: { kind: 'list', default: ['x', 'y'], description: 'Origins.' },
    };
    const presets = { development: { MODE: 'b' }, medium: {}, robust: { ORIGINS: ['z'] } };
    const rendered = renderSettingsTable(settings, presets).split('\n');
    assert.equal(rendered[2], '| `SVC_MODE` | one of a, b | `a` | `b` |  |  | Either a \\| b. |');
    assert.equal(rendered[3], '| `SVC_ORIGINS` | a comma-separated list | `x,y` |  |  | `z` | Origins. |');
  });
});

describe('settings-table markers', () => {
  const readme = `# Title\n\nBefore.\n\n${START_MARKER}\nstale\n${END_MARKER}\n\nAfter.\n`;

  it('replaces only the text between the markers', () => {
    const updated = replaceSettingsTable(readme, 'TABLE');
    assert.equal(updated, `# Title\n\nBefore.\n\n${START_MARKER}\nTABLE\n${END_MARKER}\n\nAfter.\n`);
    assert.equal(extractSettingsTable(updated), 'TABLE');
  });

  it('refuses a README without markers, naming them', () => {
    assert.throws(() => replaceSettingsTable('# Title\n', 'TABLE'), (e: Error) => e.message.includes(START_MARKER) && e.message.includes(END_MARKER));
    assert.throws(() => extractSettingsTable(`${END_MARKER}\n${START_MARKER}\n`), /markers/);
  });
});

describe('settings-table command', () => {
  let dir: string;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { encoding: 'utf8' });

  before(() => { dir = mkdtempSync(join(tmpdir(), 'gatehouse-readme-')); });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  it('--check fails on a stale table, --write updates it, then --check passes', () => {
    const path = join(dir, 'README.md');
    writeFileSync(path, `# Title\n\n${START_MARKER}\nstale\n${END_MARKER}\n\nAfter.\n`);
    const stale = run('--check', path);
    assert.equal(stale.status, 1);
    assert.match(stale.stderr, /out of date/);

    const write = run('--write', path);
    assert.equal(write.status, 0, write.stderr);
    const written = readFileSync(path, 'utf8');
    assert.equal(extractSettingsTable(written), renderSettingsTable());
    assert.ok(written.startsWith('# Title\n\n') && written.endsWith(`${END_MARKER}\n\nAfter.\n`));

    const fresh = run('--check', path);
    assert.equal(fresh.status, 0, fresh.stderr);
  });

  it('--write fails with a clear message and leaves a README without markers untouched', () => {
    const path = join(dir, 'NO-MARKERS.md');
    writeFileSync(path, '# Title\n');
    const result = run('--write', path);
    assert.equal(result.status, 1);
    assert.ok(result.stderr.includes(START_MARKER), result.stderr);
    assert.equal(readFileSync(path, 'utf8'), '# Title\n');
  });

  it('prints the table without a flag', () => {
    const result = run();
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `${renderSettingsTable()}\n`);
  });
});
