import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

const isAlive = (pid: number): boolean => {
  try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; }
};

/**
 * PGlite takes no lock of its own and two processes on one directory corrupt it, so we hold
 * `<dir>/gatehouse.lock` (created with O_EXCL) for as long as the database is open.
 * A lock left by a process that no longer runs is taken over.
 */
export function acquireDirLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'gatehouse.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, started_at: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try { unlinkSync(path); } catch { /* already gone */ }
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(path);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `The embedded database in ${dir} is in use by another Gatehouse process (pid ${holder}); ` +
          'stop the server first, or use the HTTP API instead',
        );
      }
      try { unlinkSync(path); } catch { /* raced with another process: retry */ }
    }
  }
  throw new DataDirLockedError(`Could not take the lock on ${path}`);
}

function readHolder(path: string): number | undefined {
  try {
    const pid = Number((JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown }).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
