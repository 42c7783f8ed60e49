#!/usr/bin/env node
// Builds the console (its own package in console/, an npm workspace of the root) into console/dist when its sources
// changed since the last build (a hash of them is kept in console/dist/.source-hash): the browser tests always drive
// the console as the tree holds it. The build is written aside and swapped in, so a test process reading console/dist
// meanwhile never sees a half-written build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const consoleDir = join(root, 'console');
const dist = join(consoleDir, 'dist');

/** Every file under `dir`, in a stable order. */
export function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/**
 * The console's own copy of a command it depends on (`vite`, `vitest`, `tsc`): npm installs a workspace's tools at the
 * root and links them in the root's node_modules/.bin, unless a version differs from the root's, when they go in
 * console/node_modules.
 */
export function consoleBin(name) {
  const own = join(consoleDir, 'node_modules/.bin', name);
  return existsSync(own) ? own : join(root, 'node_modules/.bin', name);
}

export function consoleSourceHash() {
  const hash = createHash('sha256');
  for (const f of [join(consoleDir, 'index.html'), join(consoleDir, 'vite.config.ts'), join(consoleDir, 'package.json'),
    join(root, 'package-lock.json'),
    ...walk(join(consoleDir, 'src'))]) hash.update(f.slice(root.length)).update(readFileSync(f));
  return hash.digest('hex');
}

export function buildConsoleIfChanged() {
  const hash = consoleSourceHash();
  const stamp = join(dist, '.source-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  process.stdout.write('Building the console…\n');
  const draft = join(consoleDir, `.dist-${process.pid}`);
  const built = spawnSync(consoleBin('vite'), ['build', consoleDir, '--outDir', draft, '--emptyOutDir', '--logLevel', 'warn'],
    { stdio: 'inherit', cwd: root });
  if (built.status !== 0) {
    rmSync(draft, { recursive: true, force: true });
    throw new Error('the console did not build');
  }
  writeFileSync(join(draft, '.source-hash'), hash);
  const old = join(consoleDir, `.dist-old-${process.pid}`);
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(draft, dist);
  rmSync(old, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) buildConsoleIfChanged();
