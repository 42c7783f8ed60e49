import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Container } from '../container.js';
import docsRoutes from '../modules/docs/docs.routes.js';
import healthRoutes from '../modules/ops/health.routes.js';
import metricsRoutes from '../modules/ops/metrics.routes.js';
import type { Guards } from './guards.js';

export interface RouteDeps {
  container: Container;
  guards: Guards;
  metrics: Registry | null;
  apiPrefix: string;
}

export type RoutePlugin = (app: FastifyInstance, deps: RouteDeps) => Promise<void>;

/** Every route plugin mounted under the API prefix (application credentials required unless a route says otherwise). */
export const API_ROUTES: RoutePlugin[] = [
  docsRoutes,
];

/** Operational routes at the root: no prefix, no application credentials. */
export const ROOT_ROUTES: RoutePlugin[] = [
  healthRoutes,
  metricsRoutes,
];
