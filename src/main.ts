import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { debugSecretsFileOf, withDebugSecrets } from './config/debug-secrets.js';
import { ConfigError, embeddedDataDir, loadConfig, type Env, type LoadedConfig } from './config/load.js';
import { buildContainer, type Container } from './container.js';
import { systemClock } from './core/clock.js';
import { throttled } from './core/throttle.js';
import { openDatabase, type Database } from './db/create-db.js';
import { refuseHeldDir } from './db/lock-file.js';
import type { Db } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { openRedis } from './db/redis.js';
import { seed, seedOptionsOf } from './db/seed/seed.js';
import { trackConnections, type ConnectionDrain } from './http/drain.js';
import { startScheduler } from './jobs/scheduler.js';
import { checkEncryptionKey, keySettingOf } from './modules/encryption/key-check.js';

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
  /**
   * Without SVC_DEBUG, take a data directory that `npm start` made (it holds debug-secrets.json) as a debug one: so the
   * one-shot commands run beside it find its settings. On by default; `serve` turns it off, so that a server never
   * goes into debug mode unasked.
   */
  adoptDebugDataDir?: boolean;
  /** A fresh embedded database starts from this migrated data directory (see `OpenOptions.pgliteTemplate`). */
  pgliteTemplate?: Blob;
}

/** A lost connection repeats for every pooled connection during an outage: one line a minute says it. */
const DATABASE_ERROR_LOG_INTERVAL_MS = 60_000;

const warnOnStderr = (m: string) => { process.stderr.write(`warning: ${m}\n`); };

/**
 * The settings of `env`, completed in debug mode by the data directory's debug secrets (config/debug-secrets.ts). A
 * setting missing outside debug mode, in a directory that `npm start` made, is reported with what to do.
 */
export function loadSettings(env: Env, opts: { adoptDebugDataDir?: boolean } = {}): LoadedConfig {
  const resolved = withDebugSecrets(env, { adoptDebug: opts.adoptDebugDataDir ?? true });
  try {
    const loaded = loadConfig(resolved.env);
    return { ...loaded, warnings: [...resolved.warnings, ...loaded.warnings], debugSecrets: resolved.secrets };
  } catch (err) {
    const file = debugSecretsFileOf(env);
    if (!(err instanceof ConfigError) || !err.message.startsWith('Missing setting') || !file || !existsSync(file)) throw err;
    throw new ConfigError(`${err.message}; ${dirname(file)} holds the data of \`npm start\` in debug mode, whose secrets are in `
      + `${file}: run \`npm start\`, or set SVC_DEBUG=true to use them`);
  }
}

/** loadConfig → openDatabase → (Redis) → buildContainer. Used by the server and by every CLI command. */
export async function openRuntime(env: Env, opts: RuntimeOptions = {}): Promise<Runtime> {
  const dataDir = embeddedDataDir(env);
  if (dataDir) refuseHeldDir(resolve(dataDir));
  const loaded = loadSettings(env, opts);
  const warn = opts.warn ?? warnOnStderr;
  for (const w of loaded.warnings) warn(w);
  const logDatabaseError = opts.logDatabaseError ?? warn;
  const onConnectionError = throttled((err: Error) => logDatabaseError(
    `database connection error: ${err.message}; the connection is dropped and replaced when needed`
    + ` (further ones are not reported for ${DATABASE_ERROR_LOG_INTERVAL_MS / 1000} s)`),
  DATABASE_ERROR_LOG_INTERVAL_MS, () => systemClock.now().getTime());
  const database = await openDatabase(loaded.config, { boundQueries: opts.boundQueries, onConnectionError,
    ...(opts.pgliteTemplate ? { pgliteTemplate: opts.pgliteTemplate } : {}) });
  const redis = opts.redis && loaded.config.REDIS_URL ? await openRedis(loaded.config.REDIS_URL, warn) : null;
  let closing: Promise<void> | undefined;
  try {
    const container = await buildContainer({ config: loaded.config, database, redis });
    return {
      loaded, database, container,
      // Once: a shutdown that timed out closes what the drain may have begun closing.
      close: () => (closing ??= (async () => {
        await database.close();
        if (redis) await redis.quit().catch(() => redis.disconnect());
      })()),
    };
  } catch (err) {
    await database.close();
    redis?.disconnect();
    throw err;
  }
}

/**
 * Proves that the encryption key opens what the database stores (modules/encryption/key-check.ts): at every server
 * start (`write`: the first one stores the check value), and before a command seals something new.
 */
export function checkStoredKey(runtime: Runtime, opts: { write: boolean; warn?: (m: string) => void }) {
  const { loaded, container } = runtime;
  const { config, sources } = loaded;
  // Debug mode without a kept secret (PostgreSQL, memory://) draws one per process: losing what it sealed is expected.
  const ephemeral = config.DEBUG && sources.JWT_SECRET_KEY === 'derived' && config.ENCRYPTION_KEY === null;
  return checkEncryptionKey(container.db, container.sealers, {
    write: opts.write,
    lenient: ephemeral ? 'ephemeral' : loaded.debugSecrets?.created ? 'new-debug-secrets' : false,
    setting: keySettingOf(loaded),
    warn: opts.warn ?? warnOnStderr,
    now: container.clock.now(),
  });
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
  let connections: ConnectionDrain | undefined;
  const runtime = await openRuntime(env, {
    redis: true,
    boundQueries: true,
    adoptDebugDataDir: false,
    // Into the server's JSON logs once the app exists; on stderr before (while migrating).
    logDatabaseError: (m) => (app ? app.log.warn(m) : warnOnStderr(m)),
  });
  const { config } = runtime.loaded;
  try {
    if (opts.migrate) await migrateAndSeed(runtime);
    await checkStoredKey(runtime, { write: true });
    await opts.beforeListen?.(runtime);
    app = await buildApp(runtime.container);
    connections = trackConnections(app.server);
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
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    await drainAndClose(app!, runtime, connections!, stopJobs, signal);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

/** Longest the database and Redis get to close once the drain has timed out or failed: nothing may keep the process. */
const FORCED_CLOSE_MS = 5_000;

/**
 * The shutdown sequence (docs/deployment.md "Health, metrics, shutdown"): readiness answers 503 and every answer closes
 * its connection → `SVC_SHUTDOWN_DELAY` while a load balancer notices → the listener closes → every request in flight is
 * answered, then idle connections are closed → jobs and deliveries under way end → signing keys, change bus and agent
 * activity rows (the app's close hooks) → Redis and the database → exit 0. Past `SVC_SHUTDOWN_TIMEOUT` after the delay,
 * what is left is cut off and the process exits 1.
 */
async function drainAndClose(app: FastifyInstance, runtime: Runtime, connections: ConnectionDrain,
  stopJobs: () => Promise<void>, signal: string): Promise<never> {
  const { config, services, lifecycle } = runtime.container;
  lifecycle.startDraining();
  connections.closeAfterEachAnswer();
  const jobsStopped = stopJobs();
  app.log.info({ signal, delay_seconds: config.SHUTDOWN_DELAY }, 'shutting down: draining in-flight requests');
  if (config.SHUTDOWN_DELAY > 0) await sleep(config.SHUTDOWN_DELAY * 1000);

  const drained = (async () => {
    await connections.drain(() => app.log.info(connections.pending(), 'no longer accepting connections; answering the requests in flight'));
    await Promise.all([jobsStopped, services.outbox.stop(), services.webhookDelivery.stop()]);
    await app.close();
    await runtime.close();
    return 'drained' as const;
  })();
  const outcome = await Promise.race([drained, sleep(config.SHUTDOWN_TIMEOUT * 1000, 'timeout' as const)])
    .catch((err: unknown) => ({ err }));
  if (outcome === 'drained') {
    app.log.info('drained: every request answered, jobs and deliveries stopped, database closed');
    process.exit(0);
  }
  if (outcome === 'timeout') {
    app.log.error(connections.pending(),
      `shutdown timed out after ${config.SHUTDOWN_TIMEOUT} s (SVC_SHUTDOWN_TIMEOUT); closing what is left`);
  } else {
    app.log.error({ err: outcome.err }, 'error while shutting down');
  }
  app.server.closeAllConnections();
  await Promise.race([runtime.close().catch(() => undefined), sleep(FORCED_CLOSE_MS)]);
  process.exit(1);
}
