import { Type } from 'typebox';
import { PageOf, toPage } from '../../core/pagination.js';
import { orgOf } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { orgActorOf } from '../../http/request-meta.js';
import {
  CreateOrganizationBody, OrganizationListQuery, OrganizationResponse, OrganizationSummary, OrgRoleResponse, TreeNodeResponse,
  UpdateOrganizationBody,
} from './organizations.schemas.js';

const tags = ['organizations'];

/**
 * docs/organizations.md (SVC_ORGANIZATIONS_ENABLED): the organization in `X-Org-Slug`, except create and list,
 * which take none. Member and invitation routes live beside this file.
 */
export default async function organizationRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { organizations } = container.services;
  const enabled = guards.feature('ORGANIZATIONS_ENABLED');
  const user = guards.user();
  // Routes that declare an organization permission accept agents (docs/decisions.md "Agents").
  const userOrAgent = guards.user({ agents: true });

  app.post('/organizations/', {
    schema: { tags, body: CreateOrganizationBody, response: { 201: OrganizationResponse } },
    onRequest: [enabled, user],
    config: { bareValidationErrors: true },
  }, async (req, reply) => reply.code(201).send(await organizations.create(orgActorOf(req), req.body)));

  app.get('/organizations/list/', {
    schema: { tags, querystring: OrganizationListQuery, response: { 200: PageOf(OrganizationSummary) } },
    onRequest: [enabled, user],
  }, async (req) => {
    const { results, count, page } = await organizations.list(orgActorOf(req), req.query);
    return toPage(results.map((r) => ({ ...r, created_at: r.created_at.toISOString() })), count, page, req.url);
  });

  app.get('/organizations/detail/', {
    schema: { tags, response: { 200: OrganizationResponse } },
    onRequest: [enabled, userOrAgent, guards.org('org.view', { detail: true })],
  }, async (req) => organizations.detail(orgOf(req)));

  app.patch('/organizations/update/', {
    schema: { tags, body: UpdateOrganizationBody, response: { 200: OrganizationResponse } },
    onRequest: [enabled, userOrAgent, guards.org('org.manage')],
  }, async (req) => organizations.update(orgActorOf(req), orgOf(req), req.body));

  app.delete('/organizations/delete/', {
    schema: { tags, response: { 200: MessageResponse } },
    onRequest: [enabled, userOrAgent, guards.org('org.owner', { deniedCode: 'NOT_OWNER', approval: true })],
  }, async (req) => organizations.remove(orgActorOf(req), orgOf(req)));

  app.get('/organizations/tree/', {
    schema: { tags, response: { 200: TreeNodeResponse } },
    onRequest: [enabled, userOrAgent, guards.org('org.view')],
  }, async (req) => organizations.tree(orgOf(req)));

  app.get('/org-roles/', {
    schema: { tags, response: { 200: Type.Array(OrgRoleResponse) } },
    onRequest: [enabled, user],
  }, async () => organizations.roles());
}
