import { sql } from 'kysely';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { pendingMigrationCount } from '../../db/migrator.js';
import type { RouteDeps } from '../../http/routes.js';

const Health = Type.Object({
  status: Type.String(),
  database: Type.Optional(Type.String()),
  pending_migrations: Type.Optional(Type.Integer()),
});

/**
 * Longest a readiness check waits on the database. A probe that waits as long as a request would (the connect and
 * statement timeouts) reports a stalled database after the orchestrator has given up; this bound answers 503 first.
 */
const READY_DEADLINE_MS = 2000;

/** Rejects when `work` has not settled within `ms`; `work` goes on and ends at its own timeout, unobserved. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Liveness and readiness, outside the API prefix and without application credentials. */
export default async function healthRoutes(app: FastifyInstance, { container }: RouteDeps) {
  const { db } = container;
  app.get('/health/live', { schema: { hide: true, response: { 200: Health } } }, async () => ({ status: 'ok' }));

  app.get('/health/ready', { schema: { hide: true, response: { 200: Health, 503: Health } } }, async (_req, reply) => {
    try {
      const pending = await within((async () => {
        await sql`select 1`.execute(db);
        return pendingMigrationCount(db);
      })(), READY_DEADLINE_MS);
      if (pending > 0) return reply.code(503).send({ status: 'unavailable', database: 'ok', pending_migrations: pending });
      return { status: 'ok', database: 'ok', pending_migrations: 0 };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    }
  });
}
