import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics: requests by route and status, and a latency histogram, in a registry per app. */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'gatehouse_' });
  const requests = new Counter({
    name: 'gatehouse_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // The label-bound children are kept per method, route and status: prom-client hashes a label object on every
  // call otherwise, which on a fast route costs as much as the route's own work.
  const counters = new Map<string, ReturnType<typeof requests.labels>>();
  const histograms = new Map<string, ReturnType<typeof latency.labels>>();
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const key = `${req.method} ${route}`;
    let histogram = histograms.get(key);
    if (!histogram) histograms.set(key, histogram = latency.labels(req.method, route));
    let counter = counters.get(`${key} ${status}`);
    if (!counter) counters.set(`${key} ${status}`, counter = requests.labels(req.method, route, String(status)));
    counter.inc();
    histogram.observe(reply.elapsedTime / 1000);
    done();
  });
  return registry;
}
