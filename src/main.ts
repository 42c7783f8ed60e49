import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig, type Env, type LoadedConfig } from './config/load.js';
import { buildContainer, type Container } from './container.js';
import { openDatabase, type Database } from './db/create-db.js';
import { migrateToLatest } from './db/migrator.js';
import { openRedis } from './db/redis.js';
import { seed } from './db/seed/seed.js';

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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app!.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app!.log.error('drain timed out; closing connections');
      app!.server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT * 1000);
    force.unref();
    try {
      await app!.close();
    } finally {
      clearTimeout(force);
      await runtime.close();
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
