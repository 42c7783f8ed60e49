import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { within } from '../core/deadline.js';
import { AppError } from '../core/errors.js';
import type { Db } from '../db/database.js';
import { countInPostgres } from './rate-limit-counters.js';
import { rateLimitKey } from './rate-limit-key.js';

// The counter stores of @fastify/rate-limit (an LRU in memory, an atomic Lua INCR+PEXPIRE in Redis).
// Its route hook runs once per request per registration, so several windows on one route
// (5/min + 20/h) are driven from here, one store per window.
const require = createRequire(import.meta.url);
type IncrCallback = (err: Error | null, res: { current: number; ttl: number } | null) => void;
interface CounterStore { incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void }
type StoreCtor<A extends unknown[]> = new (...args: A) => CounterStore;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreCtor<[boolean, boolean, number?]>;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreCtor<[boolean, boolean, Redis, string]>;

export type Per = 'second' | 'minute' | 'hour' | 'day';
const PER_MS: Record<Per, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export interface Window { max: number; per: Per }

export interface RateLimiterOptions {
  enabled: boolean;
  /** Debug mode multiplies every limit by 10 (docs/api.md "Rate limits"). */
  multiplier: number;
  redis: Redis | null;
  /**
   * Where counters are shared when Redis is not configured or fails: PostgreSQL, which every instance reaches. Null on
   * the embedded database, which one process holds: its memory is then as shared as a counter can be.
   */
  postgres: Db | null;
  now: () => Date;
  keyPrefix: string;
  /** A shared store failed (`store` names it) and the count went to the next one. */
  onStoreError?: (store: 'redis' | 'postgres', err: Error) => void;
}

/** How long counts go straight to the next store after a shared one (Redis, PostgreSQL) failed. */
export const STORE_PAUSE_MS = 2_000;
/**
 * Longest a count waits on PostgreSQL before it goes to memory: a request must not wait out the database's own
 * timeouts once per window before doing its work (Redis has its command timeout, 500 ms).
 */
const POSTGRES_COUNT_DEADLINE_MS = 1_000;

/**
 * A shared store is skipped for a moment after it failed: one that stopped answering then costs one wait per pause, not
 * one per window of every request, and it is tried again after the pause. Real time, not the service clock: this is
 * about a connection, not about any window.
 */
function pausable() {
  let until = 0;
  return { paused: () => Date.now() < until, failed: () => { until = Date.now() + STORE_PAUSE_MS; } };
}

const incr = (store: CounterStore, key: string, windowMs: number, max: number) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(key, (err, res) => (err || !res ? reject(err ?? new Error('no result')) : resolve(res)), windowMs, max));

/**
 * `limiter('login', [{max: 5, per: 'minute'}, {max: 20, per: 'hour'}])` → an onRequest hook counting per
 * client IP (an IPv6 client by its /64, `rateLimitKey`). Over any window: 429 RATE_LIMITED with `retry_after` and `Retry-After`. Counters are shared by every
 * instance: in Redis when it is configured; in PostgreSQL without Redis, or while Redis fails (docs/decisions.md
 * "Several instances"); in this instance's memory only on the embedded database, or when both fail — never unlimited.
 */
export function createRateLimiter(opts: RateLimiterOptions) {
  // One counter per limit name and window, as in Redis (whose keys are `rl:<name>:<window>:`): routes declaring the
  // same name count together on this instance too.
  const localStores = new Map<string, InstanceType<typeof LocalStore>>();
  const localStore = (key: string) => {
    let store = localStores.get(key);
    if (!store) {
      store = new LocalStore(false, false, 10_000);
      localStores.set(key, store);
    }
    return store;
  };
  const { redis, postgres } = opts;
  const redisState = pausable();
  const postgresState = pausable();
  return function limiter(name: string, windows: Window[]) {
    if (!opts.enabled) return async () => undefined;
    const stores = windows.map((w) => {
      const windowMs = PER_MS[w.per];
      const prefix = `${opts.keyPrefix}rl:${name}:${windowMs}:`;
      const local = localStore(`${name}:${windowMs}`);
      const shared = redis ? new RedisStore(false, false, redis, prefix) : null;
      return { windowMs, max: w.max * opts.multiplier, local, shared, prefix };
    });
    return async function rateLimit(req: FastifyRequest) {
      let retryAfter = 0;
      // One key for every store, so a client counts the same in memory, in Redis and in PostgreSQL.
      const client = rateLimitKey(req.clientIp);
      for (const s of stores) {
        const inMemory = () => incr(s.local, client, s.windowMs, s.max);
        const inPostgres = async () => {
          if (!postgres || postgresState.paused()) return inMemory();
          try {
            return await within(countInPostgres(postgres, s.prefix + client, s.windowMs, opts.now()), POSTGRES_COUNT_DEADLINE_MS);
          } catch (err) {
            postgresState.failed();
            opts.onStoreError?.('postgres', err as Error);
            return inMemory();
          }
        };
        let res: { current: number; ttl: number };
        if (s.shared && !redisState.paused()) {
          try {
            res = await incr(s.shared, client, s.windowMs, s.max);
          } catch (err) {
            redisState.failed();
            opts.onStoreError?.('redis', err as Error);
            res = await inPostgres();
          }
        } else {
          res = await inPostgres();
        }
        if (res.current > s.max) retryAfter = Math.max(retryAfter, Math.max(1, Math.ceil(res.ttl / 1000)));
      }
      // The error handler adds `Retry-After` from `retry_after`.
      if (retryAfter > 0) throw new AppError('RATE_LIMITED', { extra: { retry_after: retryAfter } });
    };
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
