import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Database } from './create-db.js';

/** What other instances cache and must drop when it changes (docs/decisions.md "Several instances"). */
export type ChangeTopic = 'applications' | 'signing-keys' | 'webhooks' | 'oauth-resources';
const TOPICS: readonly ChangeTopic[] = ['applications', 'signing-keys', 'webhooks'];
const isTopic = (text: string): text is ChangeTopic => (TOPICS as readonly string[]).includes(text);

/** The PostgreSQL NOTIFY channel; channels are per database, so deployments sharing a server never hear each other. */
export const NOTIFY_CHANNEL = 'gatehouse_changes';
/** Waits between two attempts to listen again after the listening connection was lost: doubling, at most this. */
const RELISTEN_MAX_MS = 5_000;

export interface ChangeBusOptions {
  database: Database;
  redis: Redis | null;
  /** The Redis pub/sub channel (prefixed like every Redis key). */
  redisChannel: string;
  onError: (message: string) => void;
}

/**
 * Tells every instance that something it caches changed, so a revocation made on one holds on all within a second.
 * A change is published on Redis when it is configured and through PostgreSQL's NOTIFY on PostgreSQL, and heard on
 * both: either one alone carries it, so Redis being down loses nothing. This instance's own handlers run at once, before
 * `publish` answers. When a listening connection comes back after a loss, every handler runs (what was published
 * meanwhile was not heard). On the embedded database one process holds the data: its own handlers are all there is.
 */
export function createChangeBus({ database, redisChannel, onError, ...opts }: ChangeBusOptions) {
  // Another instance can only share PostgreSQL: on the embedded database, Redis has nobody to tell.
  const redis = database.kind === 'postgres' ? opts.redis : null;
  const handlers = new Map<ChangeTopic, Array<() => void>>();
  const run = (topic: ChangeTopic) => {
    for (const handler of handlers.get(topic) ?? []) {
      try { handler(); } catch (err) { onError(`invalidating ${topic}: ${(err as Error).message}`); }
    }
  };
  const runAll = () => TOPICS.forEach(run);
  const heard = (text: string) => { if (isTopic(text)) run(text); };
  let stopped = false;
  let subscriber: Redis | undefined;
  let listener: pg.Client | undefined;
  let relisten: NodeJS.Timeout | undefined;

  /** Runs `handler` on every change to `topic`, made here or heard from another instance; answers what removes it. */
  function subscribe(topic: ChangeTopic, handler: () => void): () => void {
    handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    return () => { handlers.set(topic, (handlers.get(topic) ?? []).filter((h) => h !== handler)); };
  }

  /** Runs this instance's handlers, then tells the others; answers whether at least one channel carried it to them. */
  async function publish(topic: ChangeTopic): Promise<boolean> {
    run(topic);
    const sent: Array<Promise<unknown>> = [];
    if (redis) sent.push(redis.publish(redisChannel, topic));
    if (database.url) sent.push(sql`select pg_notify(${NOTIFY_CHANNEL}, ${topic})`.execute(database.db));
    const results = await Promise.allSettled(sent);
    if (results.length && results.every((r) => r.status === 'rejected')) {
      onError(`the change to ${topic} could not be announced to other instances: ${(results[0] as PromiseRejectedResult).reason}`);
    }
    return results.some((r) => r.status === 'fulfilled');
  }

  function listenOnRedis(client: Redis): void {
    subscriber = client.duplicate();
    const sub = subscriber;
    sub.on('error', () => { /* ioredis reconnects; PostgreSQL carries changes meanwhile */ });
    let connectedBefore = false;
    sub.on('ready', () => {
      sub.subscribe(redisChannel).catch(() => undefined);
      if (connectedBefore) runAll();
      connectedBefore = true;
    });
    sub.on('message', (channel: string, text: string) => { if (channel === redisChannel) heard(text); });
    sub.connect().catch(() => undefined);
  }

  async function listenOnPostgres(url: string, delayMs = 250, again = false): Promise<void> {
    if (stopped) return;
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    const retry = () => {
      if (stopped || listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      relisten = setTimeout(() => void listenOnPostgres(url, Math.min(delayMs * 2, RELISTEN_MAX_MS), true), delayMs);
      relisten.unref();
    };
    listener = client;
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (n) => { if (n.channel === NOTIFY_CHANNEL && n.payload) heard(n.payload); });
    try {
      await client.connect();
      await client.query(`listen ${NOTIFY_CHANNEL}`);
      if (again) runAll();
    } catch (err) {
      if (stopped) return; // closed while connecting: the process is stopping
      onError(`listening for changes from other instances failed: ${(err as Error).message}; trying again`);
      retry();
    }
  }

  /** Starts listening (a connection of its own on PostgreSQL, a subscriber on Redis). */
  async function start(): Promise<void> {
    if (redis) listenOnRedis(redis);
    if (database.url) await listenOnPostgres(database.url);
  }

  async function stop(): Promise<void> {
    stopped = true;
    clearTimeout(relisten);
    const client = listener;
    listener = undefined;
    await Promise.all([
      client?.end().catch(() => undefined),
      subscriber?.quit().catch(() => subscriber?.disconnect()),
    ]);
  }

  return { subscribe, publish, start, stop };
}

export type ChangeBus = ReturnType<typeof createChangeBus>;
