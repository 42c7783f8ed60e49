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

/** Liveness and readiness, outside the API prefix and without application credentials. */
export default async function healthRoutes(app: FastifyInstance, { container }: RouteDeps) {
  const { db } = container;
  app.get('/health/live', { schema: { hide: true, response: { 200: Health } } }, async () => ({ status: 'ok' }));

  app.get('/health/ready', { schema: { hide: true, response: { 200: Health, 503: Health } } }, async (_req, reply) => {
    try {
      await sql`select 1`.execute(db);
      const pending = await pendingMigrationCount(db);
      if (pending > 0) return reply.code(503).send({ status: 'unavailable', database: 'ok', pending_migrations: pending });
      return { status: 'ok', database: 'ok', pending_migrations: 0 };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    }
  });
}
