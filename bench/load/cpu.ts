import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time (user + system, milliseconds) of the processes a measured run involves, read from /proc: the server, every
 * PostgreSQL process on the machine and the load process itself. Linux only; elsewhere every figure is null.
 */
export interface CpuSnapshot {
  server: number | null;
  /** The server's main thread alone (its event loop: JavaScript, parsing, I/O callbacks); the rest is its thread pool. */
  serverMain?: number | null;
  database: number | null;
  load: number;
}

/** What is read at each end of the measured run: PostgreSQL per process, so processes that come and go count right. */
export interface CpuReading {
  server: number | null;
  serverMain: number | null;
  database: Map<string, number> | null;
  load: number;
}

/** USER_HZ: the unit of /proc/<pid>/stat's times, 100 on every Linux this runs on. */
const TICK_MS = 10;

/** `/proc/<pid>/stat` covers every thread of the process; `/proc/<pid>/task/<pid>/stat` its main thread alone. */
function processCpuMs(pid: number | string, mainThreadOnly = false): number | null {
  try {
    const stat = readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
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

/** CPU time of every PostgreSQL process, by pid. */
function postgresCpuMs(): Map<string, number> | null {
  let dirs: string[];
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const byPid = new Map<string, number>();
  for (const pid of dirs) {
    if (commandOf(pid) !== 'postgres') continue;
    const ms = processCpuMs(pid);
    if (ms !== null) byPid.set(pid, ms);
  }
  return byPid;
}

export function cpuSnapshot(serverPid: number | undefined): CpuReading {
  const own = process.cpuUsage();
  return {
    server: serverPid ? processCpuMs(serverPid) : null,
    serverMain: serverPid ? processCpuMs(serverPid, true) : null,
    database: postgresCpuMs(),
    load: (own.user + own.system) / 1000,
  };
}

/**
 * CPU milliseconds per request between two readings; a figure is null when either side could not be read.
 * PostgreSQL counts the processes alive at the end: a backend started meanwhile counts whole, one that ended
 * meanwhile (a pool closing an idle connection) drops out rather than turning the sum negative.
 */
export function cpuPerRequest(before: CpuReading, after: CpuReading, requests: number): CpuSnapshot | null {
  if (requests <= 0) return null;
  const server = before.server === null || after.server === null ? null : (after.server - before.server) / requests;
  const serverMain = before.serverMain === null || after.serverMain === null ? null : (after.serverMain - before.serverMain) / requests;
  let database: number | null = null;
  if (before.database && after.database) {
    let spent = 0;
    for (const [pid, ms] of after.database) spent += ms - (before.database.get(pid) ?? 0);
    database = spent / requests;
  }
  return { server, serverMain, database, load: (after.load - before.load) / requests };
}
