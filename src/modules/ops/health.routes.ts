import { sql } from 'kysely';
import { Type, type Static } from 'typebox';
import { within } from '../../core/deadline.js';
import { pendingMigrationCount } from '../../db/migrator.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';

const Live = Type.Object({ status: Type.String() });
const Ready = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable'), Type.Literal('draining')]),
  checks: Type.Object({
    database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
    pending_migrations: Type.Union([Type.Integer(), Type.Null()]),
    redis: Type.Union([Type.Literal('ok'), Type.Literal('unreachable'), Type.Literal('not_configured')]),
    /** Emails and SMS waiting in the outbox, and webhook deliveries waiting: null when the database did not answer. */
    outbox_backlog: Type.Union([Type.Integer(), Type.Null()]),
    webhook_backlog: Type.Union([Type.Integer(), Type.Null()]),
    /**
     * Only while a scheduled job of this instance has failed its last runs (at least 3 in a row): each such job, how
     * many runs failed in a row and since when. Its error is in the logs (`job failed`).
     */
    failing_jobs: Type.Optional(Type.Array(Type.Object({
      name: Type.String(),
      consecutive_failures: Type.Integer(),
      failing_since: Type.String({ format: 'date-time' }),
    }))),
  }),
});
type Ready = Static<typeof Ready>;

/**
 * Longest a readiness check waits on the database. A probe that waits as long as a request would (the connect and
 * statement timeouts) reports a stalled database after the orchestrator has given up; this bound answers 503 first.
 */
const READY_DEADLINE_MS = 2000;

/**
 * Liveness and readiness, outside the API prefix and without application credentials. Readiness answers 503 only when
 * PostgreSQL is unreachable or a migration is pending (docs/deployment.md "Health, metrics, shutdown"): without Redis an instance
 * still serves (counters fall back to PostgreSQL), so Redis down is `degraded`, not a reason to take it out of rotation.
 * So is a scheduled job failing run after run (a webhook secret the key cannot open, a broken SMTP setting): the instance
 * answers requests, so it stays in rotation, and `checks.failing_jobs` names the job for whoever watches readiness.
 * From the moment a shutdown begins it answers 503 `draining` (docs/deployment.md "Health, metrics, shutdown").
 */
export default async function healthRoutes(app: TypedApp, { container }: RouteDeps) {
  const { db, redis, services, lifecycle, stats } = container;
  app.get('/health/live', { schema: { hide: true, response: { 200: Live } } }, async () => ({ status: 'ok' }));

  const redisCheck = async (): Promise<Ready['checks']['redis']> => {
    if (!redis) return 'not_configured';
    try {
      await within(redis.ping(), READY_DEADLINE_MS);
      return 'ok';
    } catch {
      return 'unreachable';
    }
  };
  const databaseCheck = () => within((async () => {
    await sql`select 1`.execute(db);
    const [pending, outbox, webhooks] = await Promise.all([pendingMigrationCount(db), services.outbox.backlog(),
      services.webhookDelivery.backlog()]);
    return { pending, outbox: outbox.count, webhooks: webhooks.count };
  })(), READY_DEADLINE_MS).catch(() => null);

  app.get('/health/ready', { schema: { hide: true, response: { 200: Ready, 503: Ready } } }, async (_req, reply) => {
    const [database, redisState] = await Promise.all([databaseCheck(), redisCheck()]);
    const checks: Ready['checks'] = {
      database: database ? 'ok' : 'unreachable',
      pending_migrations: database?.pending ?? null,
      redis: redisState,
      outbox_backlog: database?.outbox ?? null,
      webhook_backlog: database?.webhooks ?? null,
    };
    const failing = stats.failingJobs();
    if (failing.length > 0) {
      checks.failing_jobs = failing.map((j) => ({ name: j.name, consecutive_failures: j.consecutiveFailures,
        failing_since: j.failingSince.toISOString() }));
    }
    if (lifecycle.draining()) return reply.code(503).send({ status: 'draining', checks });
    if (!database || database.pending > 0) return reply.code(503).send({ status: 'unavailable', checks });
    const status: Ready['status'] = redisState === 'unreachable' || failing.length > 0 ? 'degraded' : 'ok';
    return { status, checks };
  });
}
