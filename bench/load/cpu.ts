import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time (user + system, milliseconds) of the processes a measured run involves, read from /proc: the server (or
 * each instance of it), PostgreSQL (the scenario database's connections and the server's own processes), every Redis
 * process and the load process itself. Linux only; elsewhere every figure is null.
 */
export interface CpuSnapshot {
  /** The server's process, or the sum over its instances. */
  server: number | null;
  /** The server's main thread alone (its event loop: JavaScript, parsing, I/O callbacks); the rest is its thread pool. */
  serverMain?: number | null;
  /** Each instance's process, in the order of the job's `serverPids`, when the load was split over several. */
  servers?: Array<number | null>;
  database: number | null;
  /** Every `redis-server` process: only the multi-instance scenarios configure Redis, others should read about 0. */
  redis?: number | null;
  load: number;
}

/** What is read at each end of the measured run: PostgreSQL and Redis per process, so processes that come and go count right. */
export interface CpuReading {
  servers: Array<number | null>;
  serverMains: Array<number | null>;
  database: Map<string, number> | null;
  redis: Map<string, number> | null;
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

function readProc(pid: string, file: 'comm' | 'cmdline'): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * A PostgreSQL client connection titles its process `postgres: <cluster>: <user> <database> <host>(<port>) <state>`.
 * On a machine where other work uses the same PostgreSQL, its connections to other databases are not the scenario's:
 * they are left out. The server's own processes (WAL writer, checkpointer and the like) do work for every database
 * and are counted.
 */
function isOtherDatabasesConnection(pid: string, database: string): boolean {
  const title = readProc(pid, 'cmdline')?.replace(/\0/g, ' ') ?? '';
  const match = /^postgres: [^:]*: \S+ (\S+) (?:\S+\(\d+\)|\[local\]) /.exec(title);
  return match !== null && match[1] !== database;
}

/**
 * CPU time of the PostgreSQL processes (with `database`, without other databases' connections) and of every
 * `redis-server`, by pid; null when /proc cannot be read.
 */
function sharedServicesCpuMs(database: string | undefined): { database: Map<string, number>; redis: Map<string, number> } | null {
  let dirs: string[];
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const databaseMs = new Map<string, number>();
  const redis = new Map<string, number>();
  for (const pid of dirs) {
    const command = readProc(pid, 'comm');
    const into = command === 'postgres' ? databaseMs : command === 'redis-server' ? redis : null;
    if (!into || (into === databaseMs && database && isOtherDatabasesConnection(pid, database))) continue;
    const ms = processCpuMs(pid);
    if (ms !== null) into.set(pid, ms);
  }
  return { database: databaseMs, redis };
}

/** `database`: the scenario's PostgreSQL database, when it has one (see isOtherDatabasesConnection). */
export function cpuSnapshot(serverPids: number[], database?: string): CpuReading {
  const own = process.cpuUsage();
  const shared = sharedServicesCpuMs(database);
  return {
    servers: serverPids.map((pid) => processCpuMs(pid)),
    serverMains: serverPids.map((pid) => processCpuMs(pid, true)),
    database: shared?.database ?? null,
    redis: shared?.redis ?? null,
    load: (own.user + own.system) / 1000,
  };
}

/**
 * Milliseconds spent between two readings by processes keyed by pid. Counts the processes alive at the end: a backend
 * started meanwhile counts whole, one that ended meanwhile (a pool closing an idle connection) drops out rather than
 * turning the sum negative.
 */
function spentByPid(before: Map<string, number> | null, after: Map<string, number> | null): number | null {
  if (!before || !after) return null;
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** Per-instance differences, and their sum (null when any instance could not be read, or there is none). */
function spentByInstance(before: Array<number | null>, after: Array<number | null>) {
  const each = after.map((ms, i) => (ms === null || before[i] == null ? null : ms - before[i]!));
  const total = each.length && each.every((ms) => ms !== null) ? each.reduce<number>((a, b) => a + b!, 0) : null;
  return { each, total };
}

/** CPU milliseconds per request between two readings; a figure is null when either side could not be read. */
export function cpuPerRequest(before: CpuReading, after: CpuReading, requests: number): CpuSnapshot | null {
  if (requests <= 0) return null;
  const perRequest = (ms: number | null) => (ms === null ? null : ms / requests);
  const server = spentByInstance(before.servers, after.servers);
  const serverMain = spentByInstance(before.serverMains, after.serverMains);
  return {
    server: perRequest(server.total),
    serverMain: perRequest(serverMain.total),
    ...(server.each.length > 1 ? { servers: server.each.map(perRequest) } : {}),
    database: perRequest(spentByPid(before.database, after.database)),
    redis: perRequest(spentByPid(before.redis, after.redis)),
    load: (after.load - before.load) / requests,
  };
}
