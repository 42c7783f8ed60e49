import { PageOf, toPage } from '../../core/pagination.js';
import { orgOf } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import {
  InvitationAcceptedResponse, invitationId, InvitationListQuery, InvitationParams, InvitationResponse, InvitationTokenBody, InviteBody,
} from './invitations.schemas.js';
import { orgActorOf } from '../../http/request-meta.js';

const tags = ['organizations'];

/**
 * docs/organizations.md "Invitations": invitations of the organization in `X-Org-Slug`, and the invitee's
 * accept/ and decline/, which take no organization context (the token names the organization).
 */
export default async function invitationRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { invitations } = container.services;
  const signedIn = [guards.feature('ORGANIZATIONS_ENABLED'), guards.user()];
  const inviters = [guards.feature('ORGANIZATIONS_ENABLED'), guards.user({ agents: true }), guards.org('org.members.invite')];

  app.post('/organizations/invitations/', {
    schema: { tags, body: InviteBody, response: { 201: InvitationResponse } },
    onRequest: inviters,
  }, async (req, reply) => reply.code(201).send(await invitations.invite(orgActorOf(req), orgOf(req), req.body)));

  app.get('/organizations/invitations/', {
    schema: { tags, querystring: InvitationListQuery, response: { 200: PageOf(InvitationResponse) } },
    onRequest: inviters,
  }, async (req) => {
    const { results, count, page } = await invitations.list(orgOf(req), req.query);
    return toPage(results, count, page, req.url);
  });

  app.delete('/organizations/invitations/:id/', {
    schema: { tags, params: InvitationParams, response: { 200: MessageResponse } },
    onRequest: inviters,
  }, async (req) => invitations.revoke(orgActorOf(req), orgOf(req), invitationId(req.params)));

  app.post('/organizations/invitations/accept/', {
    schema: { tags, body: InvitationTokenBody, response: { 200: InvitationAcceptedResponse } },
    onRequest: signedIn,
  }, async (req) => invitations.accept(orgActorOf(req), req.body.token));

  app.post('/organizations/invitations/decline/', {
    schema: { tags, body: InvitationTokenBody, response: { 200: MessageResponse } },
    onRequest: signedIn,
  }, async (req) => invitations.decline(orgActorOf(req), req.body.token));
}
