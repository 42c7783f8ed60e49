import type { Redis } from 'ioredis';

/**
 * Without Redis, every instance reads the stored keys' version (one small query) this often, so a rotation made anywhere
 * is seen everywhere within a second (DECISIONS.md "Several instances"), with room for a slow query.
 */
export const POLL_WITHOUT_REDIS_MS = 250;
/** With Redis a rotation is announced at once; this slower read covers an announcement lost while Redis was away. */
export const POLL_WITH_REDIS_MS = 5_000;

export interface KeyWatchOptions {
  redis: Redis | null;
  channel: string;
  /** Compares the stored version with the loaded one and reloads when they differ. */
  check: () => Promise<void>;
  onError: (message: string) => void;
}

/**
 * Keeps one instance's keys current: a Redis subscription when Redis is configured, and a poll of the version in every
 * case. Returns what stops both.
 */
export function watchKeys({ redis, channel, check, onError }: KeyWatchOptions): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const run = () => check().catch((err: Error) => onError(`signing keys could not be reloaded: ${err.message}`));
  const interval = redis ? POLL_WITH_REDIS_MS : POLL_WITHOUT_REDIS_MS;
  // A timeout chain, not an interval: a check that outlasts the interval (a stalled database) is never run twice at once.
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void run().finally(schedule), interval);
    timer.unref();
  };
  schedule();

  let subscriber: Redis | undefined;
  if (redis) {
    subscriber = redis.duplicate();
    const sub = subscriber;
    sub.on('error', () => { /* ioredis reconnects; the poll covers the gap */ });
    // On every (re)connection: subscribe, and catch up with what was announced while disconnected.
    sub.on('ready', () => {
      sub.subscribe(channel).catch(() => undefined);
      void run();
    });
    sub.on('message', (received: string) => { if (received === channel) void run(); });
    sub.connect().catch(() => undefined);
  }

  return async () => {
    stopped = true;
    clearTimeout(timer);
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  };
}

/** Tells every instance subscribed on `channel` that the keys changed. False when Redis could not be reached. */
export async function announceKeyChange(redis: Redis | null, channel: string): Promise<boolean> {
  if (!redis) return false;
  try {
    await redis.publish(channel, 'rotated');
    return true;
  } catch {
    return false;
  }
}
