import { Redis } from 'ioredis';
import { redactUrl } from './create-db.js';

/**
 * Redis is optional and never the source of truth: when it is down, commands fail fast (no offline
 * queue) and callers fall back to per-instance state.
 */
export async function openRedis(url: string, warn: (msg: string) => void): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 5000),
  });
  redis.on('error', () => { /* reported once below; ioredis keeps reconnecting */ });
  try {
    await redis.connect();
  } catch (err) {
    warn(`Redis at ${redactUrl(url)} is unreachable (${(err as Error).message}); using per-instance counters until it returns`);
  }
  return redis;
}
