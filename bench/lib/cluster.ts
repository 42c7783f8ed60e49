import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { CLUSTER_INSTANCES, DATABASES, REDIS_URL } from './fixtures.js';
import { preparePostgres, serve, settings } from './gatehouse.js';
import { stopServer, type ServerFigures, type ServerRun } from './servers.js';

/**
 * Several `gatehouse serve` processes on one PostgreSQL database and the local Redis, as a deployment behind a load
 * balancer runs them: one environment for all (database, JWT secret, Redis URL and key prefix), each on its own port.
 */

export const CLUSTER_SERVER_PREFIX = 'Gatehouse · PostgreSQL + Redis, instance';
const instanceName = (i: number) => `${CLUSTER_SERVER_PREFIX} ${i} of ${CLUSTER_INSTANCES}`;

export interface Cluster {
  runs: ServerRun[];
  accessKey: string;
  accessSecret: string;
  /** Stops every instance (reading its start-up and peak RSS), then removes the run's Redis keys and scratch directory. */
  stop(): Promise<ServerFigures[]>;
}

async function withRedis<T>(fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000,
    retryStrategy: () => null });
  redis.on('error', () => { /* reported by connect() below */ });
  try {
    await redis.connect();
  } catch (err) {
    throw new Error(`Redis does not answer at ${REDIS_URL} (${(err as Error).message}); the cluster scenarios need it`);
  }
  try {
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** Removes every key under the run's prefix, so runs leave nothing in a Redis others may share. */
const removeKeys = (prefix: string) => withRedis(async (redis) => {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
});

/**
 * Subscriptions held under the run's prefix. Gatehouse starts without Redis when it cannot reach it (a warning in its
 * log), which would measure the instances without it: each instance subscribes to its key-change channel once
 * connected, so fewer subscriptions than instances means one of them is not using Redis.
 */
const subscriptions = (prefix: string) => withRedis(async (redis) => {
  const channels = (await redis.pubsub('CHANNELS', `${prefix}*`)) as string[];
  if (!channels.length) return 0;
  const counts = (await redis.pubsub('NUMSUB', ...channels)) as Array<string | number>;
  return counts.filter((_, i) => i % 2 === 1).reduce<number>((sum, n) => sum + Number(n), 0);
});

async function waitForSubscriptions(prefix: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = 0;
  while (Date.now() < deadline) {
    seen = await subscriptions(prefix);
    if (seen >= CLUSTER_INSTANCES) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${seen} of ${CLUSTER_INSTANCES} instances subscribed in Redis under ${prefix}: an instance runs without Redis`);
}

/**
 * Prepares the cluster's database as the one-instance scenarios' (migrate, seed, the same accounts, organizations and
 * agent tokens), then starts the instances one after the other, so each start-up is measured alone. The database
 * must exist and be empty.
 */
export async function startCluster(userCount: number, hash: string, runId: string): Promise<Cluster> {
  const prefix = `gatehouse-bench-${runId}:`;
  await withRedis((redis) => redis.ping());
  const workDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-cluster-'));
  const env = { ...settings('postgres', workDir, DATABASES.cluster), SVC_REDIS_URL: REDIS_URL, SVC_REDIS_KEY_PREFIX: prefix };
  const runs: ServerRun[] = [];
  const stop = async () => {
    const figures: ServerFigures[] = [];
    for (const run of runs) figures.push(await stopServer(run));
    rmSync(workDir, { recursive: true, force: true });
    await removeKeys(prefix).catch(() => undefined);
    return figures;
  };
  try {
    const app = await preparePostgres(env, workDir, userCount, hash);
    for (let i = 1; i <= CLUSTER_INSTANCES; i++) runs.push(await serve(instanceName(i), env, workDir));
    await waitForSubscriptions(prefix);
    return { runs, ...app, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
