import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { STORE_PAUSE_MS } from '../../src/http/rate-limit.js';
import { runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-db.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import {
  apiClient, createApplication, SKIP_WITHOUT_REDIS as skip, sleep, targetOf, throughProxy, type Answer, type ApiClient,
} from './helpers.js';

// Redis only speeds up and shares counters: a loopback proxy between the server and Redis refuses or stalls the
// connections, and login, refresh and me/ keep answering at once, rate limits keep counting (in PostgreSQL), readiness
// says "degraded", and Redis is used again once it is back (docs/decisions.md "Several instances").

/**
 * Correctness bounds, not performance thresholds: a refused Redis costs nothing, a stalled one a 500 ms command timeout
 * before the count goes to PostgreSQL (and the counters then skip Redis for a moment); a request waiting on Redis would
 * hang for the TCP timeout.
 */
const ANSWER_BOUND_MS = 3_000;
/** ioredis reconnects with a growing pause of at most 5 s. */
const RECONNECT_BOUND_MS = 15_000;

const PASSWORD = 'Redis-Fault-Pass-4b7e';
/** The password-reset limit outside debug mode (debug multiplies every limit by 10): 3 requests an hour per address. */
const RESET_LIMIT = 3;

describe('gatehouse serve when Redis fails under it', { skip }, () => {
  const redisUrl = process.env.TEST_REDIS_URL!;
  // Several runs, and the other suites, share the Redis server: this run's keys are its own.
  const prefix = `gatehouse-faults-${process.pid}-${randomBytes(3).toString('hex')}:`;
  let database: ScratchDatabase;
  let proxy: TcpProxy;
  let server: RunningServer;
  let api: ApiClient;
  let redis: Redis;
  let startedAt: number;
  /** Rate-limited requests answered while Redis was down: each one failed over to PostgreSQL. */
  let countedWithoutRedis = 0;

  before(async () => {
    database = await createScratchDatabase('postgres', { prepared: true });
    const app = await createApplication(database.env);
    const user = await runCli(['user', 'create', '--email', 'ann@example.com', '--password-stdin', '--json'], { env: database.env, input: PASSWORD });
    assert.equal(user.code, 0, user.stderr);
    redis = new Redis(redisUrl, { lazyConnect: true });
    await redis.connect();
    proxy = await startTcpProxy(targetOf(redisUrl));
    startedAt = Date.now();
    server = await startServer({ env: {
      ...database.env,
      SVC_REDIS_URL: throughProxy(redisUrl, proxy),
      SVC_REDIS_KEY_PREFIX: prefix,
      // The limits as deployed: debug mode would multiply them by 10.
      SVC_DEBUG: 'false',
      SVC_JWT_SECRET_KEY: 'jwt-secret-redis-faults-0123456789abcdef',
    } });
    api = apiClient(server, app);
  });
  after(async () => {
    await server?.kill();
    await proxy?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    await database?.drop();
  });

  async function ready() {
    const started = Date.now();
    const res = await fetch(`${server.origin}/health/ready`);
    return { status: res.status, body: await res.json() as { status: string; checks: Record<string, unknown> }, ms: Date.now() - started };
  }

  /**
   * Polls readiness until Redis answers again (the server reconnects by itself), then lets the pause the counters take
   * after a Redis failure run out: it started at the last failure, before Redis came back.
   */
  async function readyAgain() {
    const deadline = Date.now() + RECONNECT_BOUND_MS;
    for (;;) {
      const r = await ready();
      if (r.body.checks.redis === 'ok' || Date.now() > deadline) {
        await sleep(STORE_PAUSE_MS);
        return r;
      }
      await sleep(200);
    }
  }

  function assertPrompt(answer: Answer, status: number, what: string) {
    assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
    assert.ok(answer.ms < ANSWER_BOUND_MS, `${what} answered in ${answer.ms} ms`);
  }

  /** Login, refresh with its refresh token, me/ with the new access token: each one 200 within the bound. */
  async function assertSignInWorks() {
    const login = await api.post('login/email/', { email: 'ann@example.com', password: PASSWORD });
    assertPrompt(login, 200, 'login');
    const refreshed = await api.post('refresh/', { refresh_token: login.body.refresh_token });
    assertPrompt(refreshed, 200, 'refresh');
    const me = await api.get('me/', refreshed.body.access_token as string);
    assertPrompt(me, 200, 'me/');
    assert.equal(me.body.email, 'ann@example.com');
  }

  const requestReset = () => api.post('password/reset/request/', { email: 'nobody@example.com' });
  /** The password-reset counters in Redis and in PostgreSQL (this client's, under this run's prefix). */
  async function resetCounts() {
    const keys = await redis.keys(`${prefix}rl:password_reset:*`);
    const inRedis = keys.length ? Number(await redis.get(keys[0]!)) : 0;
    const rows = await database.inspect((db) => sql<{ count: number }>`
      select count from rate_limit_counters where key like ${`${prefix}rl:password_reset:%`}`.execute(db));
    return { inRedis, inPostgres: rows.rows[0]?.count ?? 0 };
  }

  it('with Redis up: readiness ok, and the rate-limit counters live in Redis under the key prefix', async () => {
    const r = await ready();
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ok');
    assert.equal(r.body.checks.redis, 'ok');
    await assertSignInWorks();
    assert.ok((await redis.keys(`${prefix}rl:login:*`)).length > 0, 'the login counter is in Redis');
  });

  it('Redis refusing connections: registration, login, refresh and me/ answer at once', async () => {
    await proxy.cut();
    const registered = await api.post('register/', { email: 'bea@example.com', password: PASSWORD, login: true });
    assertPrompt(registered, 201, 'register');
    await assertSignInWorks();
    countedWithoutRedis += 3; // register, login, refresh; me/ has no limit
  });

  it(`Redis refusing connections: the password-reset limit (${RESET_LIMIT} an hour) still applies, counted in PostgreSQL`, async () => {
    for (let i = 0; i < RESET_LIMIT; i++) assertPrompt(await requestReset(), 200, `reset request ${i + 1}`);
    const over = await requestReset();
    assertPrompt(over, 429, 'the request over the limit');
    assert.equal(over.body.code, 'RATE_LIMITED');
    assert.ok(Number(over.body.retry_after) > 0);
    assert.equal(over.headers.get('retry-after'), String(over.body.retry_after));
    countedWithoutRedis += RESET_LIMIT + 1;
    assert.deepEqual(await resetCounts(), { inRedis: 0, inPostgres: RESET_LIMIT + 1 });
  });

  it('Redis refusing connections: /health/ready answers 200 "degraded" with checks.redis "unreachable"', async () => {
    const r = await ready();
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'degraded');
    assert.equal(r.body.checks.redis, 'unreachable');
    assert.equal(r.body.checks.database, 'ok');
    assert.ok(r.ms < ANSWER_BOUND_MS, `readiness answered in ${r.ms} ms`);
  });

  it('Redis accepting connections again: used again by itself (readiness ok, counters back in Redis)', async () => {
    await proxy.restore();
    const r = await readyAgain();
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ok', JSON.stringify(r.body));
    // The hour's count in Redis starts from nothing; PostgreSQL's stays as the outage left it.
    assertPrompt(await requestReset(), 200, 'reset request');
    assert.deepEqual(await resetCounts(), { inRedis: 1, inPostgres: RESET_LIMIT + 1 });
  });

  it('Redis stalled (accepts, never answers): login, refresh and me/ answer within the bound; readiness "degraded"', async () => {
    proxy.stall();
    await assertSignInWorks();
    const r = await ready();
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'degraded');
    assert.equal(r.body.checks.redis, 'unreachable');
    assert.ok(r.ms < ANSWER_BOUND_MS, `readiness answered in ${r.ms} ms`);
    countedWithoutRedis += 2;
  });

  it('Redis stalled: the count goes on in PostgreSQL, where the outage before left it over the limit', async () => {
    const over = await requestReset();
    assertPrompt(over, 429, 'the request over the limit');
    assert.equal(over.body.code, 'RATE_LIMITED');
    countedWithoutRedis += 1;
    assert.deepEqual(await resetCounts(), { inRedis: 1, inPostgres: RESET_LIMIT + 2 });
  });

  it('Redis answering again after the stall: used again by itself', async () => {
    await proxy.restore();
    const r = await readyAgain();
    assert.equal(r.body.status, 'ok', JSON.stringify(r.body));
    const before = await resetCounts();
    assertPrompt(await requestReset(), 200, 'reset request');
    assert.deepEqual(await resetCounts(), { inRedis: before.inRedis + 1, inPostgres: RESET_LIMIT + 2 });
    await assertSignInWorks();
  });

  it('warned that Redis was unavailable, at most once a minute, not once per request', () => {
    const output = server.stdout() + server.stderr();
    const warnings = output.split('\n').filter((l) => l.includes('Redis unavailable'));
    assert.ok(warnings.length >= 1, 'the outage is reported');
    const warning = JSON.parse(warnings[0]!) as { level: number; msg: string };
    assert.equal(warning.level, 40, 'a JSON log line at level warn');
    assert.match(warning.msg, /counting in PostgreSQL/);
    const allowed = 1 + Math.floor((Date.now() - startedAt) / 60_000);
    assert.ok(warnings.length <= allowed, `${warnings.length} warnings for ${countedWithoutRedis} requests counted without Redis`);
    assert.ok(countedWithoutRedis > allowed, 'more requests than warnings');
    const mentions = output.split('\n').filter((l) => /redis/i.test(l)).length;
    assert.ok(mentions <= 2 * allowed, `${mentions} lines mention Redis`);
  });
});
