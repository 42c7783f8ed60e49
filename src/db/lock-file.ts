import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

const isAlive = (pid: number): boolean => {
  try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; }
};

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * PGlite takes no lock of its own and two processes on one directory corrupt it, so we hold
 * `<dir>/gatehouse.lock` for as long as the database is open. The lock is written to a private file
 * first and then hard-linked into place (`link` fails when the name exists), so nobody ever reads a
 * half-written lock. A lock left by a process that no longer runs is taken over.
 */
export function acquireDirLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'gatehouse.lock');
  const draft = `${path}.${process.pid}`;
  writeFileSync(draft, JSON.stringify({ pid: process.pid, started_at: new Date().toISOString() }), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(draft, path);
        return releaser(path);
      } catch (err) {
        if (errorCode(err) !== 'EEXIST') throw err;
        const holder = readHolder(path);
        // Our own pid in the lock means a previous run under the same pid (a restarted container) left it.
        if (holder !== undefined && holder !== process.pid && isAlive(holder)) throw lockedError(dir, path, holder);
        takeOver(path, holder, dir);
      }
    }
  } finally {
    try { unlinkSync(draft); } catch { /* already gone */ }
  }
  throw new DataDirLockedError(`Could not take the lock ${path}; another process is starting on ${dir}`);
}

function releaser(path: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try { unlinkSync(path); } catch { /* already gone */ }
  };
  process.on('exit', release);
  return release;
}

/**
 * Moves a stale lock aside under a private name (a rename has one winner), then checks that what was moved
 * is the stale lock that was read: if a live process took the lock in between, its lock is put back.
 */
function takeOver(path: string, staleHolder: number | undefined, dir: string): void {
  const aside = `${path}.stale.${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return; // released or taken over meanwhile: try again
    throw err;
  }
  const moved = readHolder(aside);
  if (moved !== staleHolder && moved !== undefined && moved !== process.pid && isAlive(moved)) {
    try { linkSync(aside, path); } catch { /* a third process holds it now */ }
    try { unlinkSync(aside); } catch { /* already gone */ }
    throw lockedError(dir, path, moved);
  }
  try { unlinkSync(aside); } catch { /* already gone */ }
}

const lockedError = (dir: string, path: string, holder: number) => new DataDirLockedError(
  `The embedded database in ${dir} is in use by another Gatehouse process (pid ${holder}); ` +
  `stop the server first, or use the HTTP API instead (lock file: ${path})`,
);

/** The live process holding `<dir>/gatehouse.lock`, if any (another process than this one). */
export function lockHolder(dir: string): number | undefined {
  const holder = readHolder(join(dir, 'gatehouse.lock'));
  return holder !== undefined && holder !== process.pid && isAlive(holder) ? holder : undefined;
}

function readHolder(path: string): number | undefined {
  try {
    const pid = Number((JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown }).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
