import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../http/routes.js';
import { accessControl } from '../rbac/access.js';
import { OrganizationsDashboardResponse } from './dashboard.schemas.js';

const tags = ['dashboard'];

/** SPEC.md "Dashboard": every endpoint needs a full-scope bearer and `dashboard.view`. */
export default async function dashboardRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { dashboard } = deps.container.services;
  const view = accessControl(deps).requires('dashboard.view');

  app.get('/dashboard/organizations/', {
    schema: { tags, response: { 200: OrganizationsDashboardResponse } }, onRequest: view,
  }, async () => dashboard.organizations());
}
