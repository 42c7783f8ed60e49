import type { Static } from 'typebox';
import { IdParams, pathId } from '../../core/fields.js';
import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { accessControl } from '../rbac/access.js';
import {
  CreateWebhookBody, DeliveryListQuery, DeliveryParams, DeliveryResponse, PatchWebhookBody, ReplaceWebhookBody, ReplayResponse,
  WebhookCreatedResponse, WebhookListQuery, WebhookResponse,
} from './webhooks.schemas.js';

const tags = ['webhooks'];

/** The numeric `<delivery_id>` of a path, or 404. */
const deliveryId = (params: Static<typeof DeliveryParams>) => pathId({ id: params.delivery_id });

/** The `webhooks/` API (docs/webhooks.md); closed to agents, whatever they were granted. */
export default async function webhookRoutes(app: TypedApp, deps: RouteDeps) {
  const { webhooks } = deps.container.services;
  const { requires, actorOf } = accessControl(deps);
  const manage = requires('webhooks.manage', { agents: false });

  app.get('/webhooks/', {
    schema: { tags, querystring: WebhookListQuery, response: { 200: PageOf(WebhookResponse) } },
    onRequest: manage,
  }, async (req) => {
    const { results, count, page } = await webhooks.list(req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/webhooks/', {
    schema: { tags, body: CreateWebhookBody, response: { 201: WebhookCreatedResponse } },
    onRequest: manage,
  }, async (req, reply) => reply.code(201).send(await webhooks.create(await actorOf(req), req.body)));

  app.get('/webhooks/:id/', {
    schema: { tags, params: IdParams, response: { 200: WebhookResponse } },
    onRequest: manage,
  }, async (req) => webhooks.get(pathId(req.params)));

  app.put('/webhooks/:id/', {
    schema: { tags, params: IdParams, body: ReplaceWebhookBody, response: { 200: WebhookResponse } },
    onRequest: manage,
  }, async (req) => webhooks.update(await actorOf(req), pathId(req.params), req.body));

  app.patch('/webhooks/:id/', {
    schema: { tags, params: IdParams, body: PatchWebhookBody, response: { 200: WebhookResponse } },
    onRequest: manage,
  }, async (req) => webhooks.update(await actorOf(req), pathId(req.params), req.body));

  app.delete('/webhooks/:id/', {
    schema: { tags, params: IdParams, response: { 200: MessageResponse } },
    onRequest: manage,
  }, async (req) => webhooks.remove(await actorOf(req), pathId(req.params)));

  app.post('/webhooks/:id/test/', {
    schema: { tags, params: IdParams, response: { 202: ReplayResponse } },
    onRequest: manage,
  }, async (req, reply) => reply.code(202).send(await webhooks.test(pathId(req.params))));

  app.get('/webhooks/:id/deliveries/', {
    schema: { tags, params: IdParams, querystring: DeliveryListQuery, response: { 200: PageOf(DeliveryResponse) } },
    onRequest: manage,
  }, async (req) => {
    const { results, count, page } = await webhooks.deliveries(pathId(req.params), req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/webhooks/:id/deliveries/:delivery_id/replay/', {
    schema: { tags, params: DeliveryParams, response: { 202: ReplayResponse } },
    onRequest: manage,
  }, async (req, reply) => reply.code(202).send(await webhooks.replay(await actorOf(req), pathId(req.params), deliveryId(req.params))));
}
