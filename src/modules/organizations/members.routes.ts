import { PageOf, toPage } from '../../core/pagination.js';
import { orgOf } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import {
  AddMemberBody, ChangeRoleBody, MemberListQuery, MemberParams, MemberResponse, memberUserId, RoleChangedResponse,
} from './members.schemas.js';
import { orgActorOf } from '../../http/request-meta.js';

const tags = ['organizations'];

/** docs/organizations.md "Members": the members of the organization in `X-Org-Slug`. */
export default async function memberRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { members } = container.services;
  const userOrAgent = guards.user({ agents: true });
  const access = (permission: string) => [guards.feature('ORGANIZATIONS_ENABLED'), userOrAgent, guards.org(permission)];

  app.get('/organizations/members/', {
    schema: { tags, querystring: MemberListQuery, response: { 200: PageOf(MemberResponse) } },
    onRequest: access('org.view'),
  }, async (req) => {
    const { results, count, page } = await members.list(orgOf(req), req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/organizations/members/add/', {
    schema: { tags, body: AddMemberBody, response: { 201: MemberResponse } },
    onRequest: access('org.members.invite'),
  }, async (req, reply) => reply.code(201).send(await members.add(orgActorOf(req), orgOf(req), req.body)));

  app.patch('/organizations/members/:user_id/', {
    schema: { tags, params: MemberParams, body: ChangeRoleBody, response: { 200: RoleChangedResponse } },
    onRequest: access('org.members.manage'),
  }, async (req) => members.changeRole(orgActorOf(req), orgOf(req), memberUserId(req.params), req.body.role_code));

  app.delete('/organizations/members/:user_id/remove/', {
    schema: { tags, params: MemberParams, response: { 200: MessageResponse } },
    onRequest: access('org.members.remove'),
  }, async (req) => members.remove(orgActorOf(req), orgOf(req), memberUserId(req.params)));
}
