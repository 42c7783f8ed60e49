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
        if (holder !== undefined && holder.pid !== process.pid && isAlive(holder.pid)) throw lockedError(dir, path, holder);
        takeOver(path, holder?.pid, dir);
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
  if (moved !== undefined && moved.pid !== staleHolder && moved.pid !== process.pid && isAlive(moved.pid)) {
    try { linkSync(aside, path); } catch { /* a third process holds it now */ }
    try { unlinkSync(aside); } catch { /* already gone */ }
    throw lockedError(dir, path, moved);
  }
  try { unlinkSync(aside); } catch { /* already gone */ }
}

interface Holder {
  pid: number;
  startedAt: string | undefined;
}

/**
 * What to do, in one line: the embedded database admits one process, and the usual holder is a server started by
 * `npm start` in another terminal (docs/decisions.md "The embedded database and the CLI").
 */
const lockedError = (dir: string, path: string, holder: Holder) => new DataDirLockedError(
  `The embedded database in ${dir} is in use by another Gatehouse process (pid ${holder.pid}`
  + `${holder.startedAt ? `, since ${holder.startedAt}` : ''}), and it admits one process at a time. `
  + 'Stop that process (Ctrl-C where `npm start` runs) and run this again; or, while it serves, do it through the HTTP API '
  + 'or the admin console. (A command started beside a running server reaches it by itself: docs/cli.md.) '
  + `Lock file: ${path}`,
);

/** The live process other than this one that holds the lock at `path`, if any. */
function liveHolder(path: string): Holder | undefined {
  const holder = readHolder(path);
  return holder !== undefined && holder.pid !== process.pid && isAlive(holder.pid) ? holder : undefined;
}

/** The pid of the live process holding `<dir>/gatehouse.lock`, if any (another process than this one). */
export const lockHolder = (dir: string): number | undefined => liveHolder(join(dir, 'gatehouse.lock'))?.pid;

/**
 * Fails with the message above when another live process holds the lock of `dir`, without taking it: lets a command
 * say so before it reads its settings or asks for anything. Nothing is written.
 */
export function refuseHeldDir(dir: string): void {
  const path = join(dir, 'gatehouse.lock');
  const holder = liveHolder(path);
  if (holder) throw lockedError(dir, path, holder);
}

function readHolder(path: string): Holder | undefined {
  try {
    const lock = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; started_at?: unknown };
    const pid = Number(lock.pid);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    const startedAt = typeof lock.started_at === 'string' ? lock.started_at.replace(/\.\d{3}Z$/, 'Z') : undefined;
    return { pid, startedAt };
  } catch {
    return undefined;
  }
}
