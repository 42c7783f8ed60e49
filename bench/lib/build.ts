import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from './children.js';
import { ROOT } from './servers.js';

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Runs `npm run build`'s compiler when dist/ is missing or older than any source file. */
export async function buildIfNeeded(): Promise<void> {
  const entry = join(ROOT, 'dist/cli/main.js');
  const sources = Math.max(newestSourceMtime(join(ROOT, 'src')), statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs);
  if (existsSync(entry) && statSync(entry).mtimeMs >= sources) return;
  process.stderr.write('Building (dist/ is missing or older than src/)…\n');
  try {
    await runCommand(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, timeoutMs: 300_000 });
  } catch (err) {
    // tsc still emits JavaScript when it reports type errors; measure that, but say so.
    if (!existsSync(entry)) throw err;
    process.stderr.write(`warning: the build reported errors; measuring what it emitted.\n${(err as Error).message.slice(-1500)}\n`);
  }
}
