import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { after, before, beforeEach } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../../src/app.js';
import type { RoutePlugin } from '../../src/http/route-plugin.js';
import { loadConfig, type Env } from '../../src/config/load.js';
import { buildContainer, type Container } from '../../src/container.js';
import { fixedClock } from '../../src/core/clock.js';
import { openRedis } from '../../src/db/redis.js';
import { createArgon2Hasher, type PasswordHasher } from '../../src/security/password-hash.js';
import { sha256Hex } from '../../src/security/random.js';
import { acquireTestDatabase, releaseTestDatabase, resetDatabase } from './database.js';

/** argon2id at the smallest parameters: the real algorithm and format, a fraction of the cost. */
let fastHasher: Promise<PasswordHasher> | undefined;
export const testHasher = () => (fastHasher ??= createArgon2Hasher({ memoryCost: 256, timeCost: 1, parallelism: 1 }, 8));

export interface TestAppOptions {
  env?: Env;
  logStream?: Writable;
  /** Start time of the injectable clock. */
  now?: Date;
  /** Extra routes mounted under the API prefix (to exercise platform behaviour with a body schema, limits…). */
  apiRoutes?: RoutePlugin[];
  /** Sees every statement the app runs (`test/helpers/statements.ts` records them). */
  dbPlugin?: KyselyPlugin;
}

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  clock: ReturnType<typeof fixedClock>;
  /** Credentials of the test application, as request headers. */
  headers: Record<string, string>;
  credentials: { access_key: string; access_secret: string; id: number };
  /** `path` is relative to the API prefix (for example `'docs/schema/'`). */
  api(opts: InjectOptions & { path: string; token?: string; appAuth?: boolean }): Promise<LightMyRequestResponse>;
  /** Empties the database, re-seeds it and re-creates the test application of every open app with the same credentials. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const BASE_ENV: Env = {
  SVC_DEBUG: 'true',
  SVC_DATA_DIR: 'memory://',
  SVC_LOG_LEVEL: 'silent',
  SVC_RATE_LIMITING_ENABLED: 'false',
  SVC_EMAIL_BACKEND: 'memory',
  SVC_SMS_BACKEND: 'memory',
  SVC_JWT_SECRET_KEY: 'test-secret-key-that-is-at-least-32-bytes-long',
  // Nothing leaves loopback: a preset with the breach check on gets a refused connection and the local list.
  SVC_BREACH_CHECK_API_URL: 'http://127.0.0.1:9',
  // The authorization server (on in debug) is turned on by the tests about it (test/http/oauth/).
  SVC_OAUTH_ENABLED: 'false',
};

/** How each open app puts its application back after a reset (the process has one database, shared by its apps). */
const openApps = new Set<() => Promise<void>>();
/**
 * What each open app is still writing after its answers (agent activity and the trail): finished before a reset, whose
 * table locks would otherwise meet a write that holds some of those tables and waits for others.
 */
const pendingWrites = new Set<() => Promise<void>>();

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const redisUrl = process.env.TEST_REDIS_URL;
  const env: Env = {
    ...BASE_ENV,
    // Shared counters (in Redis, or in PostgreSQL without it) are named with this prefix: each app counts apart.
    SVC_REDIS_KEY_PREFIX: `test:${process.pid}:${randomBytes(4).toString('hex')}:`,
    ...(redisUrl ? { SVC_REDIS_URL: redisUrl } : {}),
    ...opts.env,
  };
  const { config } = loadConfig(env);
  const database = await acquireTestDatabase();
  const redis: Redis | null = config.REDIS_URL ? await openRedis(config.REDIS_URL, () => undefined) : null;
  const clock = fixedClock(opts.now ?? new Date());
  const plugged = opts.dbPlugin === undefined ? database : {
    ...database, db: database.db.withPlugin(opts.dbPlugin),
    counters: database.counters === database.db ? database.db.withPlugin(opts.dbPlugin) : database.counters.withPlugin(opts.dbPlugin),
  };
  const container = await buildContainer({ config, database: plugged, clock, hasher: await testHasher(), redis });
  const app = await buildApp(container, { logStream: opts.logStream ?? false, apiRoutes: opts.apiRoutes ?? [] });
  await app.ready();

  const credentials = { access_key: randomBytes(32).toString('hex'), access_secret: randomBytes(32).toString('base64url'), id: 0 };
  const insertApp = async () => {
    const row = await database.db.insertInto('applications').values({
      name: 'Test App', access_key: credentials.access_key, secret_hash: sha256Hex(credentials.access_secret),
      redirect_uris: JSON.stringify(['http://localhost:3000/callback']), allowed_origins: JSON.stringify(['http://localhost:3000']),
      created_by: null,
    }).onConflict((oc) => oc.column('access_key').doUpdateSet({ name: 'Test App' })).returning('id').executeTakeFirstOrThrow();
    credentials.id = row.id;
    container.services.applications.invalidate();
  };
  await insertApp();
  openApps.add(insertApp);
  const flushWrites = () => container.services.agentActivity.flush();
  pendingWrites.add(flushWrites);
  const headers = { 'x-access-key': credentials.access_key, 'x-access-secret': credentials.access_secret };
  const prefix = config.API_PREFIX;

  return {
    app, container, clock, headers, credentials,
    api: ({ path, token, appAuth = true, headers: extra, ...rest }) => app.inject({
      ...rest,
      url: `${prefix}${path}`,
      headers: { ...(appAuth ? headers : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...(extra as object) },
    }),
    reset: async () => {
      for (const flush of pendingWrites) await flush();
      await resetDatabase(database);
      // Every app open on this database gets its application back, whichever of them asked for the reset.
      for (const insert of openApps) await insert();
    },
    close: async () => {
      openApps.delete(insertApp);
      pendingWrites.delete(flushWrites);
      await app.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
      await releaseTestDatabase();
    },
  };
}


export interface UseTestAppOptions extends TestAppOptions {
  /**
   * Empty the database before each test (and put the clock back to `now` when given). On by default; off for a
   * suite whose tests build on what the earlier ones left.
   */
  reset?: boolean;
}

/**
 * One app for the enclosing `describe` (or file): created before its first test, reset before each test, closed
 * after the last. Answers a handle that stands for that app once it exists, so tests write `t.api(...)` as usual.
 * Options that depend on what an earlier `before` hook made (a provider's address, a server's port) are given as a
 * function, called when the app is created: register that hook before calling `useTestApp`.
 */
export function useTestApp(opts: UseTestAppOptions | (() => UseTestAppOptions | Promise<UseTestAppOptions>) = {}): TestApp {
  let current: TestApp | undefined;
  let now: Date | undefined;
  let reset = true;
  before(async () => {
    const { reset: wanted = true, ...appOptions } = typeof opts === 'function' ? await opts() : opts;
    reset = wanted;
    now = appOptions.now;
    current = await createTestApp(appOptions);
  });
  beforeEach(async () => {
    if (!reset) return;
    await current!.reset();
    if (now) current!.clock.set(now);
  });
  after(async () => { await current?.close(); });
  return new Proxy({} as TestApp, {
    get(_, key) {
      if (!current) throw new Error(`the test app is used before its suite started (reading ${String(key)})`);
      return Reflect.get(current, key);
    },
  });
}
