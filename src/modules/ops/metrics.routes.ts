import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { AppError } from '../../core/errors.js';
import type { RouteDeps } from '../../http/routes.js';

export default async function metricsRoutes(app: FastifyInstance, { container, metrics }: RouteDeps) {
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    if (!container.config.METRICS_ENABLED || !metrics) throw new AppError('NOT_FOUND');
    const registry: Registry = metrics;
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
