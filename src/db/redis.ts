import type { Redis } from 'ioredis';
import { redactUrl } from './create-db.js';

/** Longest a Redis command may take before it counts as failed; Redis answers in well under a millisecond. */
export const COMMAND_TIMEOUT_MS = 500;

/**
 * Redis is optional and never the source of truth: when it is down, commands fail fast (no offline
 * queue) and callers fall back to per-instance state.
 */
export async function openRedis(url: string, warn: (msg: string) => void): Promise<Redis> {
  // Loaded only when Redis is configured: an installation without it never holds the client.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // A Redis that accepts connections but stops answering must not hold requests: a command fails after this and
    // the caller falls back (to PostgreSQL or memory).
    commandTimeout: COMMAND_TIMEOUT_MS,
    // A command that timed out was answered from the fallback: resending it on reconnection would count it twice.
    autoResendUnfulfilledCommands: false,
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
