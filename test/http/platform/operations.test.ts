import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/load.js';
import { buildContainer } from '../../../src/container.js';
import type { Database } from '../../../src/db/create-db.js';
import type { DatabaseSchema } from '../../../src/db/database.js';
import { testHasher, useTestApp } from '../../helpers/test-app.js';

// The apps of the describes below share one database; holding it here avoids reopening it for each.

describe('health', () => {
  const t = useTestApp({ reset: false });

  it('GET /health/live answers 200 without application credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/live' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  const redisState = process.env.TEST_REDIS_URL ? 'ok' : 'not_configured';

  it('GET /health/ready answers 200 with each check when the database is reachable and migrated', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok',
      checks: { database: 'ok', pending_migrations: 0, redis: redisState, outbox_backlog: 0, webhook_backlog: 0 } });
  });

  it('GET /health/ready counts the messages waiting in the outbox, and /metrics their age', async () => {
    const now = t.clock.now().getTime();
    const createdAt = new Date(now - 90_000);
    // Two messages not due for an hour (a provider outage's backoff), written 90 s ago; one already sent.
    await t.container.db.insertInto('outbox_messages').values([1, 2, 3].map((i) => ({
      channel: 'email' as const, recipient: `waiting-${i}@example.com`, purpose: 'verify_email', payload: 'sealed', dedup_key: null,
      status: i === 3 ? 'sent' as const : 'pending' as const, next_attempt_at: new Date(now + 3_600_000),
      expires_at: new Date(now + 7_200_000), created_at: createdAt }))).execute();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().checks.outbox_backlog, 2);
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body.split('\n');
      assert.ok(metrics.includes('gatehouse_outbox_backlog{outbox="email_sms"} 2'), 'backlog in /metrics');
      assert.ok(metrics.includes('gatehouse_outbox_backlog{outbox="webhooks"} 0'));
      const age = Number(metrics.find((l) => l.startsWith('gatehouse_outbox_oldest_age_seconds{outbox="email_sms"}'))?.split(' ')[1]);
      assert.ok(age >= 90 && age < 3600, `oldest message age ${age} s`);
    } finally {
      await t.container.db.deleteFrom('outbox_messages').where('recipient', 'like', 'waiting-%').execute();
    }
  });

  // see: "A newcomer's first hour works as written" — the webhooks job failed on every pass while readiness said ok.
  it('GET /health/ready stays 200 but answers degraded, naming a job whose last 3 runs all failed, until one succeeds', async () => {
    const { stats } = t.container;
    const ready = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(res.statusCode, 200);
      return res.json() as { status: string; checks: Record<string, unknown> };
    };
    const at = (s: number) => new Date(Date.UTC(2025, 2, 1, 10, 0, s));
    stats.recordJob('webhooks', true, at(0));
    stats.recordJob('webhooks', false, at(5));
    stats.recordJob('webhooks', false, at(10));
    stats.recordJob('outbox', false, at(10));
    const twoFailures = await ready();
    assert.equal(twoFailures.status, 'ok');
    assert.equal('failing_jobs' in twoFailures.checks, false, 'the body is unchanged while no job fails run after run');

    stats.recordJob('webhooks', false, at(15));
    assert.deepEqual(await ready(), { status: 'degraded', checks: { database: 'ok', pending_migrations: 0, redis: redisState,
      outbox_backlog: 0, webhook_backlog: 0,
      failing_jobs: [{ name: 'webhooks', consecutive_failures: 3, failing_since: at(5).toISOString() }] } });

    stats.recordJob('webhooks', true, at(20));
    assert.deepEqual(await ready(), { status: 'ok',
      checks: { database: 'ok', pending_migrations: 0, redis: redisState, outbox_backlog: 0, webhook_backlog: 0 } });
  });

  it('GET /health/ready answers 503 while a migration is pending', async () => {
    const { rows } = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from gatehouse_migrations order by name desc limit 1`.execute(t.container.db);
    const newest = rows[0];
    assert.ok(newest, 'the test database is migrated');
    await sql`delete from gatehouse_migrations where name = ${newest.name}`.execute(t.container.db);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { status: 'unavailable',
        checks: { database: 'ok', pending_migrations: 1, redis: redisState, outbox_backlog: 0, webhook_backlog: 0 } });
      const live = await t.app.inject({ method: 'GET', url: '/health/live' });
      assert.equal(live.statusCode, 200);
    } finally {
      await sql`insert into gatehouse_migrations (name, timestamp) values (${newest.name}, ${newest.timestamp})`.execute(t.container.db);
    }
    const again = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(again.statusCode, 200);
  });
});

describe('health with an unreachable database', () => {
  let app: FastifyInstance;
  let database: Database;
  before(async () => {
    // A real PostgreSQL driver pointed at a loopback port where nothing listens.
    const pool = new pg.Pool({ connectionString: 'postgres://gatehouse@127.0.0.1:1/gatehouse', max: 1, connectionTimeoutMillis: 2000 });
    pool.on('error', () => undefined);
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    database = { db, counters: db, kind: 'postgres', location: '127.0.0.1:1/gatehouse', close: () => db.destroy() };
    const { config } = loadConfig({ SVC_DEBUG: 'true', SVC_LOG_LEVEL: 'silent', SVC_DATABASE_URL: 'postgres://gatehouse@127.0.0.1:1/gatehouse' });
    const container = await buildContainer({ config, database, hasher: await testHasher() });
    app = await buildApp(container, { logStream: false });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await database.close();
  });

  it('GET /health/ready answers 503 and /health/live still answers 200', async () => {
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(ready.statusCode, 503);
    assert.deepEqual(ready.json(), { status: 'unavailable',
      checks: { database: 'unreachable', pending_migrations: null, redis: 'not_configured', outbox_backlog: null, webhook_backlog: null } });
    const live = await app.inject({ method: 'GET', url: '/health/live' });
    assert.equal(live.statusCode, 200);
  });
});

describe('metrics', () => {
  const t = useTestApp({ reset: false });

  it('GET /metrics answers Prometheus text counting requests by route and status, with a latency histogram', async () => {
    await t.app.inject({ method: 'GET', url: '/health/live' });
    await t.app.inject({ method: 'GET', url: '/health/live' });
    await t.api({ method: 'GET', path: 'password/requirements/' });
    await t.api({ method: 'GET', path: 'password/requirements/', appAuth: false });

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const lines = res.body.split('\n');
    for (const line of [
      '# TYPE gatehouse_http_requests_total counter',
      'gatehouse_http_requests_total{method="GET",route="/health/live",status="200"} 2',
      'gatehouse_http_requests_total{method="GET",route="/api/v1/auth/password/requirements/",status="200"} 1',
      'gatehouse_http_requests_total{method="GET",route="/api/v1/auth/password/requirements/",status="401"} 1',
      '# TYPE gatehouse_http_request_duration_seconds histogram',
      'gatehouse_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/health/live"} 2',
      'gatehouse_http_request_duration_seconds_count{method="GET",route="/health/live"} 2',
    ]) assert.ok(lines.includes(line), `missing: ${line}`);
    assert.ok(lines.some((l) => l.startsWith('gatehouse_http_request_duration_seconds_sum{method="GET",route="/health/live"} ')));
  });

  it('counts unknown paths under one "unmatched" route label, never the raw path', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/metrics' });
    const count = (body: string) => Number(/^gatehouse_http_requests_total\{method="GET",route="unmatched",status="404"\} (\d+)$/m.exec(body)?.[1] ?? 0);
    await t.app.inject({ method: 'GET', url: '/probe-a7c1' });
    await t.api({ method: 'GET', path: 'probe-b9d2/' });
    const after = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(count(after.body) - count(before.body), 2);
    assert.doesNotMatch(after.body, /probe-a7c1|probe-b9d2/);
  });

  it('needs no application credentials and is not under the API prefix', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    const prefixed = await t.api({ method: 'GET', path: 'metrics' });
    assert.equal(prefixed.statusCode, 404);
  });
});

describe('metrics switched off (SVC_METRICS_ENABLED=false)', () => {
  const t = useTestApp({ env: { SVC_METRICS_ENABLED: 'false' }, reset: false });

  it('GET /metrics answers 404 FEATURE_DISABLED naming the setting, as every switched-off feature does', async () => {
    await t.app.inject({ method: 'GET', url: '/health/live' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { error: 'This feature is not enabled', code: 'FEATURE_DISABLED', details: { setting: 'SVC_METRICS_ENABLED' } });
  });
});
