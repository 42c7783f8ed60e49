import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { startScheduler } from '../../../src/jobs/scheduler.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';

// Readiness with Redis down, and what /metrics tells about this instance's own operation: Redis errors and the
// scheduled jobs' runs (docs/deployment.md "Several instances"). SVC_JOBS_ENABLED pins the jobs to some instances.

const metricLines = async (t: TestApp) => (await t.app.inject({ method: 'GET', url: '/metrics' })).body.split('\n');
const valueOf = (lines: string[], series: string) => Number(lines.find((l) => l.startsWith(`${series} `))?.split(' ')[1] ?? NaN);
const quietLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('with Redis unreachable', () => {
  const Ok = Type.Object({ ok: Type.Boolean() });
  const limited: RoutePlugin = async (app, { guards }) => {
    app.get('/test/limited/', { schema: { response: { 200: Ok } }, onRequest: guards.rateLimit('ops-limited', [{ max: 5, per: 'minute' }]) },
      async () => ({ ok: true }));
  };
  // A port where nothing listens: every command fails at once.
  const t = useTestApp({
    apiRoutes: [limited], env: { SVC_REDIS_URL: 'redis://127.0.0.1:1', SVC_RATE_LIMITING_ENABLED: 'true' }, reset: false,
  });

  it('/health/ready answers 200 "degraded": an instance without Redis still serves', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().status, 'degraded');
    assert.equal(res.json().checks.redis, 'unreachable');
    assert.equal(res.json().checks.database, 'ok');
  });

  it('/metrics counts the failed Redis commands', async () => {
    const before = valueOf(await metricLines(t), 'gatehouse_redis_errors_total');
    // The first request's command fails; the next ones skip Redis for a moment (rate-limit.ts STORE_PAUSE_MS).
    for (let i = 0; i < 3; i++) assert.equal((await t.api({ method: 'GET', path: 'test/limited/' })).statusCode, 200);
    const after = valueOf(await metricLines(t), 'gatehouse_redis_errors_total');
    assert.ok(after - before >= 1, `Redis errors went from ${before} to ${after}`);
  });
});

describe('scheduled jobs', () => {
  const t = useTestApp({ env: { SVC_OUTBOX_POLL_INTERVAL: '1' }, reset: false });

  it('each run is counted in /metrics by job, with when it last ran', async () => {
    const stop = startScheduler(t.container, quietLog);
    try {
      let lines: string[] = [];
      // The outbox job runs every second here: wait for its second run, with slack for a loaded machine.
      for (let i = 0; i < 100 && !(valueOf(lines, 'gatehouse_job_runs_total{job="outbox"}') >= 2); i++) {
        await sleep(100);
        lines = await metricLines(t);
      }
      assert.ok(valueOf(lines, 'gatehouse_job_runs_total{job="outbox"}') >= 2);
      assert.equal(valueOf(lines, 'gatehouse_job_failures_total{job="outbox"}'), 0);
      const last = valueOf(lines, 'gatehouse_job_last_run_timestamp_seconds{job="outbox"}');
      assert.ok(Math.abs(last - t.clock.now().getTime() / 1000) < 1, 'the last run is stamped with the instance clock');
    } finally {
      await stop();
    }
  });
});

describe('scheduled jobs\' log lines', () => {
  const t = useTestApp({ env: { SVC_OUTBOX_POLL_INTERVAL: '1' } });

  it('an idle pass logs at debug level, a pass that sent something at info', async () => {
    const lines: Array<{ level: string; job: string; line: string }> = [];
    const at = (level: string) => (o: object, line: string) => { lines.push({ level, job: (o as { job: string }).job, line }); };
    const outboxLines = () => lines.filter((l) => l.job === 'outbox');
    const waitFor = async (done: () => boolean) => {
      for (let i = 0; i < 100 && !done(); i++) await sleep(100);
      assert.ok(done(), JSON.stringify(lines));
    };
    const stop = startScheduler(t.container, { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') });
    try {
      await waitFor(() => outboxLines().length >= 2);
      assert.deepEqual([...new Set(outboxLines().map((l) => l.level))], ['debug'], 'nothing to send: nothing above debug');
      // Queued without the kick a request gives the outbox, so that the scheduled pass is the one that sends it.
      const now = t.clock.now();
      await t.container.db.transaction().execute((trx) => t.container.services.outbox.enqueue(trx, { channel: 'email',
        to: 'reader@example.com', purpose: 'otp', language: 'en', vars: { code: '123456', minutes: 10 },
        expiresAt: new Date(now.getTime() + 600_000) }));
      await waitFor(() => outboxLines().some((l) => l.level === 'info'));
      assert.match(outboxLines().find((l) => l.level === 'info')!.line, /^1 sent/);
    } finally {
      await stop();
    }
  });
});

describe('scheduled jobs switched off (SVC_JOBS_ENABLED=false)', () => {
  const t = useTestApp({ env: { SVC_OUTBOX_POLL_INTERVAL: '1', SVC_JOBS_ENABLED: 'false' }, reset: false });

  it('runs none of them', async () => {
    const stop = startScheduler(t.container, quietLog);
    try {
      await sleep(2500); // two and a half intervals of the outbox job
      assert.ok(!(await metricLines(t)).some((l) => l.startsWith('gatehouse_job_runs_total{')));
    } finally {
      await stop();
    }
  });
});
