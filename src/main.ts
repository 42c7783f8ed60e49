import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig, type Env, type LoadedConfig } from './config/load.js';
import { buildContainer, type Container } from './container.js';
import { openDatabase, type Database } from './db/create-db.js';
import { migrateToLatest } from './db/migrator.js';
import { openRedis } from './db/redis.js';
import { seed } from './db/seed/seed.js';
import { startScheduler } from './jobs/scheduler.js';

export interface Runtime {
  loaded: LoadedConfig;
  database: Database;
  container: Container;
  close(): Promise<void>;
}

/** loadConfig → openDatabase → (Redis) → buildContainer. Used by the server and by every CLI command. */
export async function openRuntime(env: Env, opts: { redis?: boolean; warn?: (m: string) => void } = {}): Promise<Runtime> {
  const loaded = loadConfig(env);
  const warn = opts.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
  for (const w of loaded.warnings) warn(w);
  const database = await openDatabase(loaded.config);
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

/** Migrates (unless told not to), listens, and drains in-flight requests on SIGTERM/SIGINT. */
export async function serve(env: Env, opts: ServeOptions): Promise<void> {
  const runtime = await openRuntime(env, { redis: true });
  const { config } = runtime.loaded;
  let app: FastifyInstance | undefined;
  try {
    if (opts.migrate) {
      await migrateToLatest(runtime.database.db);
      await seed(runtime.database.db);
    }
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
