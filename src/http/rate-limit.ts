import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../core/errors.js';

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
  /** Debug mode multiplies every limit by 10 (DECISIONS.md). */
  multiplier: number;
  redis: Redis | null;
  keyPrefix: string;
  onStoreError?: (err: Error) => void;
}

const incr = (store: CounterStore, key: string, windowMs: number, max: number) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(key, (err, res) => (err || !res ? reject(err ?? new Error('no result')) : resolve(res)), windowMs, max));

/**
 * `limiter('login', [{max: 5, per: 'minute'}, {max: 20, per: 'hour'}])` → an onRequest hook counting per
 * client IP. Over any window: 429 RATE_LIMITED with `retry_after` and `Retry-After`. When Redis fails, the
 * counters fall back to this instance's memory rather than letting requests through unlimited.
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
  return function limiter(name: string, windows: Window[]) {
    if (!opts.enabled) return async () => undefined;
    const stores = windows.map((w) => {
      const windowMs = PER_MS[w.per];
      return {
        windowMs,
        max: w.max * opts.multiplier,
        local: localStore(`${name}:${windowMs}`),
        shared: opts.redis ? new RedisStore(false, false, opts.redis, `${opts.keyPrefix}rl:${name}:${windowMs}:`) : null,
      };
    });
    return async function rateLimit(req: FastifyRequest) {
      let retryAfter = 0;
      for (const s of stores) {
        let res: { current: number; ttl: number };
        try {
          res = s.shared ? await incr(s.shared, req.clientIp, s.windowMs, s.max) : await incr(s.local, req.clientIp, s.windowMs, s.max);
        } catch (err) {
          opts.onStoreError?.(err as Error);
          res = await incr(s.local, req.clientIp, s.windowMs, s.max);
        }
        if (res.current > s.max) retryAfter = Math.max(retryAfter, Math.max(1, Math.ceil(res.ttl / 1000)));
      }
      // The error handler adds `Retry-After` from `retry_after`.
      if (retryAfter > 0) throw new AppError('RATE_LIMITED', { extra: { retry_after: retryAfter } });
    };
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
