import type { FastifyRequest } from 'fastify';
import { requestedSlug } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { accessControl } from '../rbac/access.js';
import { OrganizationsDashboardResponse } from './dashboard.schemas.js';
import { AuthFiguresResponse, GdprFiguresResponse, SecurityFiguresResponse } from './figures.schemas.js';
import { StatsQuery, StatsResponse } from './stats.schemas.js';

const tags = ['dashboard'];

const WITH_ORG_SLUG = 'With X-Org-Slug (SVC_ORGANIZATIONS_ENABLED on; the caller needs org.view there) the figures count that '
  + 'organization\'s active members only: 404 ORG_NOT_FOUND for an unknown slug, 403 NOT_MEMBER where the caller holds no role, '
  + '403 INSUFFICIENT_PERMISSIONS without org.view.';

/** docs/dashboard.md "Access": every endpoint needs a full-scope bearer and `dashboard.view`. */
export default async function dashboardRoutes(app: TypedApp, deps: RouteDeps) {
  const { dashboard } = deps.container.services;
  const { guards } = deps;
  const view = accessControl(deps).requires('dashboard.view');
  const orgsEnabled = deps.container.config.ORGANIZATIONS_ENABLED;
  const viewOrganization = guards.org('org.view');

  /** The optional `X-Org-Slug` of dashboard/stats/, checked as the `org()` guard checks it (ignored while organizations are off). */
  async function namedOrganization(req: FastifyRequest) {
    if (orgsEnabled && requestedSlug(req)) await viewOrganization(req);
  }

  app.get('/dashboard/stats/', {
    schema: { tags, description: WITH_ORG_SLUG, querystring: StatsQuery, response: { 200: StatsResponse } },
    onRequest: [...view, namedOrganization],
  }, async (req) => dashboard.stats(req.query, req.org?.organization ?? null));

  app.get('/dashboard/auth/', {
    schema: { tags, response: { 200: AuthFiguresResponse } }, onRequest: view,
  }, async () => dashboard.auth());

  app.get('/dashboard/security/', {
    schema: { tags, response: { 200: SecurityFiguresResponse } }, onRequest: view,
  }, async () => dashboard.security());

  app.get('/dashboard/gdpr/', {
    schema: { tags, response: { 200: GdprFiguresResponse } }, onRequest: view,
  }, async () => dashboard.gdpr());

  app.get('/dashboard/organizations/', {
    schema: { tags, response: { 200: OrganizationsDashboardResponse } }, onRequest: view,
  }, async () => dashboard.organizations());
}
