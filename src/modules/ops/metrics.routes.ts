import type { Registry } from 'prom-client';
import { featureDisabled } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';

export default async function metricsRoutes(app: TypedApp, { container, metrics }: RouteDeps) {
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    if (!container.config.METRICS_ENABLED || !metrics) throw featureDisabled('METRICS_ENABLED');
    const registry: Registry = metrics;
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
