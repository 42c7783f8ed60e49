import { Type } from 'typebox';
import { PageOf, toPage } from '../../core/pagination.js';
import { orgOf } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { InvitationResponse, InviteBody } from './invitations.schemas.js';
import {
  AddMemberBody, ChangeRoleBody, MemberListQuery, memberUserId, SdkMemberResponse, SdkRoleChangedResponse, toSdkMember,
} from './members.schemas.js';
import { orgActorOf } from '../../http/request-meta.js';
import {
  OrganizationListQuery, OrganizationResponse, OrganizationSummary, OrgRoleResponse, TreeNodeResponse, UpdateOrganizationBody,
} from './organizations.schemas.js';

const tags = ['organizations'];

/** `<slug>` in the path: any text, so a malformed slug answers 404 ORG_NOT_FOUND like an unknown one (the guard decides). */
const SlugParams = Type.Object({ slug: Type.String() });
const SlugMemberParams = Type.Object({ slug: Type.String(), user_id: Type.String() });

/**
 * docs/migrating-from-tenxyte.md rule 6: the Tenxyte SDK's organization family, keyed by the slug in the path, beside
 * docs/organizations.md's routes and over the same services. The path's slug plays the part of `X-Org-Slug` (which is
 * ignored here, docs/decisions.md "Tenxyte SDK compatibility"): same permissions, role weights, audit, errors and isolation. Fixed words cannot be shadowed:
 * the router prefers static segments (`organizations/roles/`, `organizations/tree/`, …) and those words are reserved
 * slugs (`RESERVED_SLUGS`), so no organization can be named by them.
 */
export default async function organizationRestRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { organizations, members, invitations } = container.services;
  const enabled = guards.feature('ORGANIZATIONS_ENABLED');
  const user = guards.user();
  const userOrAgent = guards.user({ agents: true });
  const inPath = (permission: string, opts: Parameters<typeof guards.org>[1] = {}) =>
    [enabled, userOrAgent, guards.org(permission, { ...opts, slugParam: 'slug' })];

  app.get('/organizations/', {
    schema: { tags, querystring: OrganizationListQuery, response: { 200: PageOf(OrganizationSummary) } },
    onRequest: [enabled, user],
  }, async (req) => {
    const { results, count, page } = await organizations.list(orgActorOf(req), req.query);
    return toPage(results.map((r) => ({ ...r, created_at: r.created_at.toISOString() })), count, page, req.url);
  });

  app.get('/organizations/roles/', {
    schema: { tags, response: { 200: Type.Array(OrgRoleResponse) } },
    onRequest: [enabled, user],
  }, async () => organizations.roles());

  app.get('/organizations/:slug/', {
    schema: { tags, params: SlugParams, response: { 200: OrganizationResponse } },
    onRequest: inPath('org.view', { detail: true }),
  }, async (req) => organizations.detail(orgOf(req)));

  app.patch('/organizations/:slug/', {
    schema: { tags, params: SlugParams, body: UpdateOrganizationBody, response: { 200: OrganizationResponse } },
    onRequest: inPath('org.manage'),
  }, async (req) => organizations.update(orgActorOf(req), orgOf(req), req.body));

  app.delete('/organizations/:slug/', {
    schema: { tags, params: SlugParams, response: { 200: MessageResponse } },
    onRequest: inPath('org.owner', { deniedCode: 'NOT_OWNER', approval: true }),
  }, async (req) => organizations.remove(orgActorOf(req), orgOf(req)));

  app.get('/organizations/:slug/tree/', {
    schema: { tags, params: SlugParams, response: { 200: TreeNodeResponse } },
    onRequest: inPath('org.view'),
  }, async (req) => organizations.tree(orgOf(req)));

  app.get('/organizations/:slug/members/', {
    schema: { tags, params: SlugParams, querystring: MemberListQuery, response: { 200: PageOf(SdkMemberResponse) } },
    onRequest: inPath('org.view'),
  }, async (req) => {
    const { results, count, page } = await members.list(orgOf(req), req.query);
    return toPage(results.map(toSdkMember), count, page, req.url);
  });

  app.post('/organizations/:slug/members/', {
    schema: { tags, params: SlugParams, body: AddMemberBody, response: { 201: SdkMemberResponse } },
    onRequest: inPath('org.members.invite'),
  }, async (req, reply) => reply.code(201).send(toSdkMember(await members.add(orgActorOf(req), orgOf(req), req.body))));

  app.patch('/organizations/:slug/members/:user_id/', {
    schema: { tags, params: SlugMemberParams, body: ChangeRoleBody, response: { 200: SdkRoleChangedResponse } },
    onRequest: inPath('org.members.manage'),
  }, async (req) => {
    const { role_code } = req.body;
    const { member, updated_at } = await members.changeMemberRole(orgActorOf(req), orgOf(req), memberUserId(req.params), role_code);
    return { ...toSdkMember(member), updated_at };
  });

  app.delete('/organizations/:slug/members/:user_id/', {
    schema: { tags, params: SlugMemberParams, response: { 200: MessageResponse } },
    onRequest: inPath('org.members.remove'),
  }, async (req) => members.remove(orgActorOf(req), orgOf(req), memberUserId(req.params)));

  app.post('/organizations/:slug/invitations/', {
    schema: { tags, params: SlugParams, body: InviteBody, response: { 201: InvitationResponse } },
    onRequest: inPath('org.members.invite'),
  }, async (req, reply) => reply.code(201).send(await invitations.invite(orgActorOf(req), orgOf(req), req.body)));
}
