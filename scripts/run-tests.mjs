#!/usr/bin/env node
// Runs the whole suite with Node's test runner (through tsx). Arguments narrow it to files or folders.
// It first builds, once per migration set, the migrated PGlite data dir that every test process loads.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { buildConsoleIfChanged, consoleBin } from './build-console.mjs';

const root = new URL('..', import.meta.url).pathname;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}
const testFiles = (dir) => walk(dir).filter((f) => f.endsWith('.test.ts'));

const targets = process.argv.slice(2);
const nodeTargets = targets.filter((t) => !relative(root, resolve(root, t)).startsWith('console'));
const roots = nodeTargets.length ? nodeTargets.map((t) => resolve(root, t)) : targets.length ? [] : [join(root, 'src'), join(root, 'test')];
const missing = roots.filter((p) => !existsSync(p));
if (missing.length) {
  console.error(`no such test file or folder: ${missing.map((p) => relative(root, p)).join(', ')}`);
  process.exit(1);
}
/**
 * Files known to take longest (servers in child processes, clusters, browsers), heaviest first; the others follow,
 * largest first. The runner starts files in this order, so the long ones do not come last and leave one worker
 * idle while the other finishes them.
 */
const SLOW_FIRST = [
  'test/cluster/', 'test/faults/', 'test/cli/restart-secrets', 'test/cli/lock-file', 'test/browser/', 'test/console/',
  'test/docs/', 'test/cli/', 'test/integration/', 'test/jobs/',
];
/** Whether `f` lies under one of `prefixes` (paths relative to the root). */
const under = (f, prefixes) => prefixes.some((prefix) => relative(root, f).startsWith(prefix));
const rank = (f) => {
  const i = SLOW_FIRST.findIndex((prefix) => under(f, [prefix]));
  return i < 0 ? SLOW_FIRST.length : i;
};
/**
 * Files that need a process of their own: they start servers, clusters, browsers or commands in child processes, send
 * signals, or change what the whole process writes. The others share a few processes (test/helpers/shard.ts), which
 * saves starting Node, loading the code and opening the embedded database for each file.
 */
const OWN_PROCESS = ['test/cluster/', 'test/faults/', 'test/cli/', 'test/browser/', 'test/console/', 'test/docs/'];
const ownProcess = (f) => under(f, OWN_PROCESS);
/** How many processes the shared files are spread over: a few, so both workers stay busy to the end. */
const SHARDS = Math.max(1, Number(process.env.TEST_SHARDS) || 4);
const shardDir = join(tmpdir(), `gatehouse-test-shards-${process.pid}`);

/**
 * The units the test runner starts, heaviest first: the shared files spread evenly (by size) over SHARDS entry files
 * written to shardDir, then the files that run alone.
 */
function plan(all) {
  const alone = all.filter(ownProcess);
  const pooled = all.filter((f) => !ownProcess(f));
  const count = Math.min(SHARDS, pooled.length);
  if (count < 2 || process.env.TEST_SHARDS === '0') return { units: all.map((f) => relative(root, f)), shards: 0 };
  const groups = Array.from({ length: count }, () => ({ files: [], weight: 0 }));
  for (const { f, size } of pooled.map((f) => ({ f, size: sizes.get(f) })).sort((a, b) => b.size - a.size)) {
    const lightest = groups.reduce((min, g) => (g.weight < min.weight ? g : min));
    lightest.files.push(f);
    lightest.weight += size;
  }
  mkdirSync(shardDir, { recursive: true });
  const runner = JSON.stringify(join(root, 'test/helpers/shard.ts'));
  const entries = groups.map((g, i) => {
    const entry = join(shardDir, `shard-${i + 1}-of-${count}.test.mjs`);
    writeFileSync(entry, `import { runShard } from ${runner};\nawait runShard(${JSON.stringify(g.files.sort(), null, 1)});\n`);
    return entry;
  });
  return { units: [...entries, ...alone.map((f) => relative(root, f))], shards: count };
}

/**
 * What does not depend on the database (the documentation checked against the code, the container files, the console's
 * pure logic) runs in the PGlite pass only: CI's PostgreSQL pass (TEST_SKIP_PGLITE=1) leaves it out.
 */
const DATABASE_INDEPENDENT = ['test/docs/'];
const secondPass = process.env.TEST_SKIP_PGLITE === '1';
const sizes = new Map(roots.flatMap((p) => (statSync(p).isDirectory() ? testFiles(p) : [p]))
  .filter((f) => !secondPass || !under(f, DATABASE_INDEPENDENT))
  .map((f) => [f, statSync(f).size]));
const files = [...sizes.keys()]
  .map((f) => ({ f, rank: rank(f), size: sizes.get(f) }))
  .sort((a, b) => a.rank - b.rank || b.size - a.size || a.f.localeCompare(b.f))
  .map(({ f }) => f);
const consoleUnits = (targets.length === 0 && !secondPass) || targets.length > nodeTargets.length;
if (files.length === 0 && !consoleUnits) {
  console.error(`no test files under ${targets.join(' ') || 'src/ and test/'}`);
  process.exit(1);
}

const hash = createHash('sha256');
// Named relative to the root: every clone of the same sources shares the prepared database.
for (const f of [...walk(join(root, 'src/db')).sort(), join(root, 'test/helpers/database.ts')]) {
  hash.update(relative(root, f)).update(readFileSync(f));
}
const template = join(tmpdir(), `gatehouse-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
if (files.length > 0 && !process.env.TEST_DATABASE_URL && !existsSync(template)) {
  process.stdout.write('Preparing the embedded test database…\n');
  // Written aside and renamed into place, so a run starting meanwhile never loads a half-written file.
  const draft = `${template}.${process.pid}.tmp`;
  const prep = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/prepare-test-db.ts'), draft], { stdio: 'inherit', cwd: root });
  if (prep.status !== 0) {
    rmSync(draft, { force: true });
    process.exit(prep.status ?? 1);
  }
  renameSync(draft, template);
}

// The command tests run `gatehouse` in child processes: from the build (what `npm start` and an installation run),
// brought up to date first, which saves each child compiling the sources as it loads them. The build step does
// nothing when its inputs did not change (CI has just built it); if it fails, the children run from source.
const SPAWNS_COMMANDS = ['test/cli/', 'test/faults/', 'test/cluster/', 'test/docs/'];
let commandsFrom = 'source';
if (files.some((f) => under(f, SPAWNS_COMMANDS))) {
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: ['ignore', 'pipe', 'pipe'], cwd: root,
    encoding: 'utf8' });
  if (build.status === 0) commandsFrom = 'build';
  else process.stdout.write(`The build failed, so the command tests run gatehouse from source:\n${build.stdout}${build.stderr}\n`);
}

// The console's tests serve console/dist: built from the sources as they are now.
if (files.some((f) => under(f, ['test/console/']))) {
  try {
    buildConsoleIfChanged();
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

const concurrency = Math.max(1, Math.min(availableParallelism(), Number(process.env.TEST_CONCURRENCY) || availableParallelism()));
const where = process.env.TEST_DATABASE_URL ? `PostgreSQL${process.env.TEST_REDIS_URL ? ' + Redis' : ''}` : 'PGlite';
if (files.length > 0) {
  const { units, shards } = plan(files);
  process.stdout.write(`Running ${files.length} test file(s) on ${where}, ${concurrency} at a time: ${shards} group(s) of files `
    + `sharing a process, ${units.length - shards} in a process of their own`
    + `${secondPass ? ` (${DATABASE_INDEPENDENT.join(', ')} and the console's unit tests: in the PGlite pass only)` : ''}\n`);
  const result = spawnSync(process.execPath, [
    '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'test/helpers/durations-reporter.mjs')}`, '--test-reporter-destination=stdout', ...units,
  ], { stdio: 'inherit', cwd: root, env: { ...process.env, GATEHOUSE_TEST_PGLITE_TEMPLATE: template, GATEHOUSE_TEST_COMMANDS_FROM: commandsFrom,
    NODE_ENV: 'test' } });
  rmSync(shardDir, { recursive: true, force: true });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The console's pure logic (tree building, chart series…) has its unit tests beside it, run by Vitest; with the
// whole suite, or when the console is named.
if (consoleUnits) {
  process.stdout.write('Running the console\'s unit tests (Vitest)\n');
  const units = spawnSync(consoleBin('vitest'), ['run', '--root', 'console', '--passWithNoTests'],
    { stdio: 'inherit', cwd: root });
  process.exit(units.status ?? 1);
}
process.exit(0);
