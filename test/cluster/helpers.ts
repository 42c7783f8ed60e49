import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Env } from '../../src/config/load.js';
import { runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-db.js';
import { PIN_HEADER, SERVED_BY_HEADER, startRoundRobin, type RoundRobin } from './round-robin.js';

/** The instances, by index, in the pin header and in test names. */
export const INSTANCES = [0, 1, 2] as const;
export const NAMES = ['A', 'B', 'C'] as const;

/** Seconds a retired refresh token still returns its successor: short, so a replay after it can be tested. */
export const REUSE_GRACE_S = 5;

export interface ClusterMode {
  name: string;
  redisUrl: string | undefined;
  skip: string | false;
}

const noDatabase = 'TEST_DATABASE_URL is not set: several instances need a PostgreSQL server to share';
/** The two deployments docs/decisions.md "Several instances" promises the same behaviour for. */
export const CLUSTER_MODES: Record<'redis' | 'postgres', ClusterMode> = {
  redis: {
    name: 'PostgreSQL + Redis',
    redisUrl: process.env.TEST_REDIS_URL,
    skip: !process.env.TEST_DATABASE_URL ? noDatabase : !process.env.TEST_REDIS_URL ? 'TEST_REDIS_URL is not set' : false,
  },
  postgres: { name: 'PostgreSQL only', redisUrl: undefined, skip: process.env.TEST_DATABASE_URL ? false : noDatabase },
};

export interface Account {
  id: number;
  email: string;
  password: string;
}

export interface Credentials {
  id: number;
  access_key: string;
  access_secret: string;
}

/** The accounts every cluster starts with; `root` holds the `admin` role (without staff flags, so no 2FA gate). */
const ACCOUNTS = { ann: [], bob: [], cid: [], root: ['--role', 'admin'] } as const;
export type AccountName = keyof typeof ACCOUNTS;

export interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under the API prefix, or from the root when it starts with `/`. */
  path: string;
  /** The client address the request claims (docs/authentication.md: per-IP limits); the proxy forwards it. */
  ip: string;
  /** Index of the instance that must serve the request; the next one in turn when absent. */
  via?: number;
  token?: string;
  agentToken?: string;
  body?: unknown;
  /** Application credentials; the cluster's own application when absent. */
  app?: Pick<Credentials, 'access_key' | 'access_secret'>;
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read field by field, as light-my-request's json() is
  body: any;
  headers: Headers;
  /** Index of the instance that answered. */
  servedBy: number;
}

export interface Cluster {
  mode: ClusterMode;
  proxy: RoundRobin;
  servers: RunningServer[];
  database: ScratchDatabase;
  /** The settings every instance runs with, for `gatehouse` commands against the same deployment. */
  env: Env;
  app: Credentials;
  /** A second application, for tests that change its credentials. */
  partner: Credentials;
  accounts: Record<AccountName, Account>;
  api(call: Call): Promise<Answer>;
  /** A client address no earlier request of this cluster used, so per-IP limits start from zero. */
  nextIp(): string;
  stop(): Promise<void>;
}

async function cli(args: string[], env: Env, input?: string): Promise<string> {
  const result = await runCli(args, { env, input });
  assert.equal(result.code, 0, `gatehouse ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/**
 * Settings of a production-like deployment. Outside debug, because debug multiplies the rate limits by ten and its
 * preset turns refresh rotation off; EdDSA with keys kept in the database, so `gatehouse keys rotate` applies; the
 * proxy's origin as SVC_PUBLIC_URL, so every instance names the same issuer; loopback trusted as the proxy.
 */
function clusterEnv(mode: ClusterMode, database: ScratchDatabase, proxy: RoundRobin): Env {
  const tag = `${process.pid}:${randomBytes(4).toString('hex')}`;
  return {
    ...database.env,
    SVC_DEBUG: 'false',
    SVC_SHORTCUT_SECURE_MODE: 'medium',
    SVC_JWT_ALGORITHM: 'EdDSA',
    SVC_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SVC_PUBLIC_URL: proxy.origin,
    SVC_TRUSTED_PROXIES: '127.0.0.1',
    SVC_REFRESH_TOKEN_REUSE_GRACE: String(REUSE_GRACE_S),
    SVC_BREACH_CHECK_ENABLED: 'false',
    // Six instances of two clusters share one PostgreSQL server with the rest of the suite.
    SVC_DATABASE_POOL_SIZE: '5',
    ...(mode.redisUrl ? { SVC_REDIS_URL: mode.redisUrl, SVC_REDIS_KEY_PREFIX: `cluster:${tag}:` } : {}),
  };
}

/** Removes what the run left in Redis (rate-limit counters), by its prefix. */
async function clearRedis(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 200 })) {
      if ((keys as string[]).length) await redis.del(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
}

/**
 * Three `gatehouse serve` processes on one fresh database (and one Redis key prefix), behind a round-robin proxy. Call
 * `stop()` in `after` whatever happened: it ends whatever was started, also when `start` failed half-way.
 */
export function createCluster(mode: ClusterMode): Cluster & { start(): Promise<void> } {
  let ipCount = 0;
  const cluster = {
    mode, servers: [] as RunningServer[], accounts: {} as Record<AccountName, Account>,
  } as Cluster & { start(): Promise<void> };

  cluster.start = async () => {
    cluster.database = await createScratchDatabase('postgres', { prepared: true });
    cluster.proxy = await startRoundRobin();
    const env = cluster.env = clusterEnv(mode, cluster.database, cluster.proxy);
    const apps = await Promise.all(['Cluster', 'Partner'].map(async (name) =>
      JSON.parse(await cli(['app', 'create', '--name', name, '--json'], env)) as Credentials));
    [cluster.app, cluster.partner] = [apps[0]!, apps[1]!];
    await Promise.all(Object.entries(ACCOUNTS).map(async ([name, extra]) => {
      const email = `${name}@example.com`;
      const password = `Harbor-lantern-${randomBytes(4).toString('hex')}`; // the policy refuses the account's name in it
      const { id } = JSON.parse(await cli(['user', 'create', '--email', email, '--password-stdin', ...extra, '--json'], env, password)) as Account;
      cluster.accounts[name as AccountName] = { id, email, password };
    }));
    // The first creates the signing key, the others load it; the database is migrated already.
    const start = () => startServer({ env }, ['serve', '--no-migrate']).then((s) => { cluster.servers.push(s); });
    await start();
    // Both settle before `start` returns, so `stop` finds every process that came up, even when the other failed.
    const failed = (await Promise.allSettled([start(), start()])).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    cluster.proxy.setTargets(cluster.servers.map((s) => s.port));
  };

  cluster.api = async ({ method = 'GET', path, ip, via, token, agentToken, body, app = cluster.app }) => {
    const headers: Record<string, string> = { 'x-access-key': app.access_key, 'x-access-secret': app.access_secret, 'x-forwarded-for': ip };
    if (via !== undefined) headers[PIN_HEADER] = String(via);
    if (token) headers.authorization = `Bearer ${token}`;
    if (agentToken) headers.authorization = `AgentBearer ${agentToken}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = path.startsWith('/') ? `${cluster.proxy.origin}${path}` : `${cluster.proxy.origin}/api/v1/auth/${path}`;
    const res = await fetch(url, {
      method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    // The proxy's own 502 is plain text.
    const answer = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text || null;
    return { status: res.status, body: answer, headers: res.headers, servedBy: Number(res.headers.get(SERVED_BY_HEADER)) };
  };

  // TEST-NET-2 addresses (RFC 5737): never a real client.
  cluster.nextIp = () => `198.51.100.${++ipCount}`;

  cluster.stop = async () => {
    await Promise.allSettled(cluster.servers.map((s) => s.stop()));
    await cluster.proxy?.close();
    await cluster.database?.drop();
    const prefix = cluster.env?.SVC_REDIS_KEY_PREFIX;
    if (mode.redisUrl && prefix) await clearRedis(mode.redisUrl, prefix);
  };
  return cluster;
}

/** The body of an answer with `status` (and error `code`), failing with the whole answer otherwise. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Answer.body
export function expectAnswer(res: Answer, status: number, code?: string): any {
  const where = `instance ${NAMES[res.servedBy] ?? '?'} answered ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
  assert.equal(res.status, status, where);
  if (code !== undefined) assert.equal(res.body?.code, code, where);
  return res.body;
}

/** For probes: false while the old state answers (200), true once the answer is `status` with `code`; else it fails. */
export function refused(res: Answer, status: number, code: string): boolean {
  if (res.status === 200) return false;
  expectAnswer(res, status, code);
  return true;
}

/** POST login/email/ with the account's password (200 expected): the token pair, `session_id` and the rest. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Answer.body
export async function signIn(c: Cluster, account: Account, ip: string, via?: number): Promise<any> {
  return expectAnswer(await c.api({ method: 'POST', path: 'login/email/', ip, via,
    body: { email: account.email, password: account.password } }), 200);
}
