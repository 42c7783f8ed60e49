import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time (user + system, milliseconds) of the processes a measured run involves, read from /proc: the server, every
 * PostgreSQL process on the machine and the load process itself. Linux only; elsewhere every figure is null.
 */
export interface CpuSnapshot {
  server: number | null;
  database: number | null;
  load: number;
}

/** USER_HZ: the unit of /proc/<pid>/stat's times, 100 on every Linux this runs on. */
const TICK_MS = 10;

function processCpuMs(pid: number | string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

function commandOf(pid: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

function postgresCpuMs(): number | null {
  let dirs: string[];
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of dirs) if (commandOf(pid) === 'postgres') total += processCpuMs(pid) ?? 0;
  return total;
}

export function cpuSnapshot(serverPid: number | undefined): CpuSnapshot {
  const own = process.cpuUsage();
  return {
    server: serverPid ? processCpuMs(serverPid) : null,
    database: postgresCpuMs(),
    load: (own.user + own.system) / 1000,
  };
}

/** CPU milliseconds per request between two snapshots; a figure is null when either side could not be read. */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuSnapshot | null {
  if (requests <= 0) return null;
  const per = (a: number | null, b: number | null) => (a === null || b === null ? null : (b - a) / requests);
  return { server: per(before.server, after.server), database: per(before.database, after.database), load: (after.load - before.load) / requests };
}
