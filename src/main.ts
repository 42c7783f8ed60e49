import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig, type Env, type LoadedConfig } from './config/load.js';
import { buildContainer, type Container } from './container.js';
import { systemClock } from './core/clock.js';
import { throttled } from './core/throttle.js';
import { openDatabase, type Database } from './db/create-db.js';
import type { Db } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { openRedis } from './db/redis.js';
import { seed, seedOptionsOf } from './db/seed/seed.js';
import { startScheduler } from './jobs/scheduler.js';

export interface Runtime {
  loaded: LoadedConfig;
  database: Database;
  container: Container;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  redis?: boolean;
  warn?: (m: string) => void;
  /** Serving: every query is bounded, so a stalled database answers 503 quickly (see `OpenOptions.boundQueries`). */
  boundQueries?: boolean;
  /** Where database connection errors are reported (at most one line a minute); `warn` by default. */
  logDatabaseError?: (m: string) => void;
}

/** A lost connection repeats for every pooled connection during an outage: one line a minute says it. */
const DATABASE_ERROR_LOG_INTERVAL_MS = 60_000;

const warnOnStderr = (m: string) => { process.stderr.write(`warning: ${m}\n`); };

/** loadConfig → openDatabase → (Redis) → buildContainer. Used by the server and by every CLI command. */
export async function openRuntime(env: Env, opts: RuntimeOptions = {}): Promise<Runtime> {
  const loaded = loadConfig(env);
  const warn = opts.warn ?? warnOnStderr;
  for (const w of loaded.warnings) warn(w);
  const logDatabaseError = opts.logDatabaseError ?? warn;
  const onConnectionError = throttled((err: Error) => logDatabaseError(
    `database connection error: ${err.message}; the connection is dropped and replaced when needed`
    + ` (further ones are not reported for ${DATABASE_ERROR_LOG_INTERVAL_MS / 1000} s)`),
  DATABASE_ERROR_LOG_INTERVAL_MS, () => systemClock.now().getTime());
  const database = await openDatabase(loaded.config, { boundQueries: opts.boundQueries, onConnectionError });
  const redis = opts.redis && loaded.config.REDIS_URL ? await openRedis(loaded.config.REDIS_URL, warn) : null;
  try {
    const container = await buildContainer({ config: loaded.config, database, redis });
    return {
      loaded, database, container,
      close: async () => {
        await database.close();
        if (redis) await redis.quit().catch(() => redis.disconnect());
      },
    };
  } catch (err) {
    await database.close();
    redis?.disconnect();
    throw err;
  }
}

export interface ServeOptions {
  migrate: boolean;
  /** Runs after migrations and before listening (quickstart's seed and first application). */
  beforeListen?: (runtime: Runtime) => Promise<void>;
  onListening?: (url: string, runtime: Runtime) => void;
}

/**
 * Migrations and seeding, on PostgreSQL through a connection of their own: the serving pool bounds every query,
 * and a migration (a `create index` on a large table, waiting for another instance's migration lock) may take longer.
 */
async function migrateAndSeed(runtime: Runtime): Promise<void> {
  const { database, loaded } = runtime;
  const run = async (db: Db) => { await migrateToLatest(db); await seed(db, seedOptionsOf(loaded.config)); };
  if (database.kind !== 'postgres') return run(database.db);
  const unbounded = await openDatabase({ ...loaded.config, DATABASE_POOL_SIZE: 1 });
  try { await run(unbounded.db); } finally { await unbounded.close(); }
}

/** Migrates (unless told not to), listens, and drains in-flight requests on SIGTERM/SIGINT. */
export async function serve(env: Env, opts: ServeOptions): Promise<void> {
  let app: FastifyInstance | undefined;
  const runtime = await openRuntime(env, {
    redis: true,
    boundQueries: true,
    // Into the server's JSON logs once the app exists; on stderr before (while migrating).
    logDatabaseError: (m) => (app ? app.log.warn(m) : warnOnStderr(m)),
  });
  const { config } = runtime.loaded;
  try {
    if (opts.migrate) await migrateAndSeed(runtime);
    await opts.beforeListen?.(runtime);
    app = await buildApp(runtime.container);
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (err) {
    await app?.close().catch(() => undefined);
    await runtime.close();
    throw err;
  }
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  opts.onListening?.(`http://${host}:${port}${config.API_PREFIX}`, runtime);

  const stopJobs = startScheduler(runtime.container, app.log);
  const server = app.server;
  const drain = trackInFlight(server);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app!.log.info({ signal }, 'shutting down: draining in-flight requests');
    stopJobs();
    drain.start();
    const force = setTimeout(() => {
      app!.log.error('drain timed out; closing connections');
      server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT * 1000);
    force.unref();
    let exitCode = 0;
    try {
      await app!.close();
    } catch (err) {
      app!.log.error({ err }, 'error while draining');
      exitCode = 1;
    } finally {
      clearTimeout(force);
      await runtime.close().catch(() => { exitCode = 1; });
    }
    process.exit(exitCode);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Node's `server.close()` destroys every connection it deems idle, and it deems one idle as soon as its
 * answer has called `end()`, even while that answer is still buffered for a slow reader and pipelined
 * answers wait behind it: they would be cut off. So while draining, idle connections are reaped only when
 * no answer is left to write; that also closes each keep-alive connection once its last answer is out,
 * instead of leaving it to hold the process until the drain timeout.
 */
function trackInFlight(server: Server): { start(): void } {
  const inFlight = new Set<ServerResponse>();
  const closeIdleConnections = server.closeIdleConnections.bind(server);
  let draining = false;
  const reapWhenDone = () => { if (inFlight.size === 0) closeIdleConnections(); };
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (res.writableFinished || res.destroyed) return;
    inFlight.add(res);
    const settled = () => {
      if (!inFlight.delete(res)) return;
      if (draining) setImmediate(reapWhenDone);
    };
    res.once('finish', settled); // every byte handed to the socket
    res.once('close', settled);
  });
  return {
    start() {
      draining = true;
      server.closeIdleConnections = reapWhenDone;
    },
  };
}
