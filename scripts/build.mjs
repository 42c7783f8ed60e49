#!/usr/bin/env node
// `npm run build` (run by `npm start`, and by `npm ci` through `prepare`): compiles the server into dist/, type-checks
// the console and builds it into console/dist — each step only when its inputs changed since it last succeeded. A
// step's inputs are hashed (contents, not dates: a checkout or a copy changes dates and nothing else) and the hash is
// written beside its output once the step has passed, so a failed step runs again next time. `rm -rf dist` forces
// the server steps. The compiler runs incrementally too (tsBuildInfoFile under dist/): a change recompiles what it
// touches only.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildConsoleIfChanged, walk } from './build-console.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const tsc = join(root, 'node_modules/.bin/tsc');

/** A hash of the files' paths and contents. */
function hashOf(files) {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.slice(root.length)).update('\0').update(readFileSync(f));
  return hash.digest('hex');
}

const shared = ['package.json', 'package-lock.json', 'tsconfig.json'].map((f) => join(root, f));

const STEPS = [
  {
    name: 'the server',
    stamp: join(dist, '.build-hash'),
    output: join(dist, 'cli/main.js'),
    inputs: () => [...shared, join(root, 'tsconfig.build.json'), ...walk(join(root, 'src'))],
    args: ['-p', 'tsconfig.build.json'],
  },
  {
    name: 'the console (type check)',
    stamp: join(dist, '.console-check-hash'),
    inputs: () => [join(root, 'package-lock.json'), join(root, 'console/package.json'), join(root, 'console/tsconfig.json'),
      ...walk(join(root, 'console/src'))],
    args: ['-p', 'console/tsconfig.json'],
  },
];

/** Runs `step` unless its inputs are those of its last success (and its output is still there). */
function runIfChanged(step) {
  const hash = hashOf(step.inputs());
  const fresh = existsSync(step.stamp) && readFileSync(step.stamp, 'utf8') === hash && (!step.output || existsSync(step.output));
  if (fresh) return;
  const ran = spawnSync(tsc, step.args, { stdio: 'inherit', cwd: root });
  if (ran.status !== 0) {
    process.stderr.write(`Building ${step.name} failed.\n`);
    process.exit(ran.status ?? 1);
  }
  mkdirSync(dist, { recursive: true });
  writeFileSync(step.stamp, hash);
}

for (const step of STEPS) runIfChanged(step);
buildConsoleIfChanged();
