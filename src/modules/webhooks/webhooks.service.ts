import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError, type FieldErrors } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db, RowUpdate } from '../../db/database.js';
import type { Sealer } from '../../security/seal.js';
import { newWebhookSecret } from '../../security/webhook-signature.js';
import type { AuditService } from '../audit/audit.service.js';
import { auditOrigin, type Actor } from '../rbac/actor.js';
import { WEBHOOK_EVENTS } from './events.js';
import { newEventId, type WebhookEvents } from './webhook-events.service.js';
import type { WebhookDeliveryService } from './delivery.service.js';
import { checkTarget } from './url-guard.js';
import * as repo from './webhooks.repo.js';
import {
  toDelivery, toWebhook, type CreateWebhookInput, type DeliveryListInput, type UpdateWebhookInput, type WebhookListInput,
} from './webhooks.schemas.js';

type Deps = {
  db: Db; clock: Clock; config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_URLS'>; audit: AuditService; sealer: Sealer;
  events: WebhookEvents; delivery: WebhookDeliveryService;
};

const SECRET_WARNING = 'Save the secret now: it is never shown again.';
const KNOWN_EVENTS: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

/** The `webhooks/` API (docs/webhooks.md): service-wide subscriptions, managed with `webhooks.manage`. */
export function createWebhookService({ db, clock, config, audit, sealer, events, delivery }: Deps) {
  /** 400 naming `url` when it is not http(s) or, unless private URLs are allowed, reaches a forbidden address. */
  async function checkUrl(url: string): Promise<string> {
    const trimmed = url.trim();
    const checked = await checkTarget(trimmed, config.WEBHOOK_ALLOW_PRIVATE_URLS);
    if (!checked.ok) throw AppError.validation({ url: [checked.reason] });
    return trimmed;
  }

  function checkEvents(list: string[] | undefined): string[] | undefined {
    if (list === undefined) return undefined;
    const unknown = [...new Set(list.filter((e) => !KNOWN_EVENTS.has(e)))];
    if (unknown.length) {
      const errors: FieldErrors = { events: [`Unknown event type: ${unknown.join(', ')}. Known: ${WEBHOOK_EVENTS.join(', ')}.`] };
      throw AppError.validation(errors);
    }
    return [...new Set(list)];
  }

  async function load(id: number) {
    const row = await repo.findWebhook(db, id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function list(query: WebhookListInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listWebhooks(db, { isActive: query.is_active }, page.pageSize, page.offset);
    return { results: rows.map(toWebhook), count, page };
  }

  const get = async (id: number) => toWebhook(await load(id));

  /** POST webhooks/: the secret is in this answer and nowhere else; it is stored sealed, since signing needs it back. */
  async function create(actor: Actor, input: CreateWebhookInput) {
    const subscribed = checkEvents(input.events)!;
    const url = await checkUrl(input.url);
    const secret = newWebhookSecret();
    const now = clock.now();
    const row = await db.transaction().execute(async (trx) => {
      const created = await repo.insertWebhook(trx, {
        url, events: JSON.stringify(subscribed), is_active: input.is_active ?? true, description: input.description?.trim() ?? '',
        secret_sealed: sealer.seal(secret), created_by: actor.id, created_at: now, updated_at: now,
      });
      await audit.record({ event_type: 'webhook_created', severity: 'warning', ...auditOrigin(actor),
        details: { webhook_id: created.id, events: subscribed } }, trx);
      return created;
    });
    await events.invalidate();
    return { message: 'Webhook created', webhook: toWebhook(row), secret, warning: SECRET_WARNING };
  }

  /** PUT and PATCH webhooks/<id>/: fields left out keep their value; a new URL is checked like at creation. */
  async function update(actor: Actor, id: number, input: UpdateWebhookInput) {
    const changes: RowUpdate<'webhooks'> = {};
    const subscribed = checkEvents(input.events);
    if (input.url !== undefined) changes.url = await checkUrl(input.url);
    if (subscribed !== undefined) changes.events = JSON.stringify(subscribed);
    if (input.is_active !== undefined) changes.is_active = input.is_active;
    if (input.description !== undefined) changes.description = input.description.trim();
    const row = await db.transaction().execute(async (trx) => {
      const updated = await repo.updateWebhook(trx, id, { ...changes, updated_at: clock.now() });
      if (!updated) throw new AppError('NOT_FOUND');
      await audit.record({ event_type: 'webhook_updated', severity: 'warning', ...auditOrigin(actor),
        details: { webhook_id: id, fields: Object.keys(changes) } }, trx);
      return updated;
    });
    await events.invalidate();
    return toWebhook(row);
  }

  /**
   * DELETE webhooks/<id>/: the webhook and its deliveries, pending ones included, are gone. A transaction writing an
   * event for it holds it locked (webhooks.repo.ts `insertEvent`): the deletion waits for it, then takes its delivery
   * along, and never fails it.
   */
  async function remove(actor: Actor, id: number) {
    await db.transaction().execute(async (trx) => {
      if ((await repo.deleteWebhook(trx, id)) === 0) throw new AppError('NOT_FOUND');
      await audit.record({ event_type: 'webhook_deleted', severity: 'warning', ...auditOrigin(actor), details: { webhook_id: id } }, trx);
    });
    await events.invalidate();
    return { message: 'Webhook deleted' };
  }

  async function deliveries(id: number, query: DeliveryListInput) {
    await load(id);
    const page = pageRequest(query);
    const { rows, count } = await repo.listDeliveries(db, id, { status: query.status, type: query.type }, page.pageSize, page.offset);
    return { results: rows.map(toDelivery), count, page };
  }

  /**
   * POST webhooks/<id>/deliveries/<delivery_id>/replay/: the same event (same `webhook-id`, type, time and data) is
   * sent again as a new delivery, whatever became of the first; the original keeps its own history.
   */
  async function replay(actor: Actor, id: number, deliveryId: number) {
    const webhook = await load(id);
    const original = await repo.findDelivery(db, id, deliveryId);
    if (!original) throw new AppError('NOT_FOUND');
    const now = clock.now();
    const row = await db.transaction().execute(async (trx) => {
      const created = await repo.insertDelivery(trx, {
        webhookId: id, eventId: original.event_id, type: original.type, data: JSON.stringify(original.payload),
        userId: original.user_id, now, createdAt: original.created_at, replayOf: original.id,
      });
      if (!created) throw new AppError('NOT_FOUND'); // the webhook or the delivery was deleted meanwhile
      await audit.record({ event_type: 'webhook_delivery_replayed', ...auditOrigin(actor),
        details: { webhook_id: id, delivery_id: deliveryId, replay_id: created.id } }, trx);
      return created;
    });
    if (webhook.is_active) delivery.kickSoon();
    return { message: webhook.is_active ? 'Delivery queued' : 'Delivery queued: it is sent once the webhook is active again',
      delivery: toDelivery(row) };
  }

  /** POST webhooks/<id>/test/: a `webhook.test` event for this webhook alone, whatever it subscribes to. */
  async function test(id: number) {
    const webhook = await load(id);
    if (!webhook.is_active) throw AppError.validation({ is_active: ['The webhook is inactive: activate it to send a test event.'] });
    const now = clock.now();
    const row = await repo.insertDelivery(db, {
      webhookId: id, eventId: newEventId(), type: 'webhook.test',
      data: JSON.stringify({ webhook_id: id, message: 'This is a test event from Gatehouse.' }),
      userId: null, now, createdAt: now, replayOf: null,
    });
    if (!row) throw new AppError('NOT_FOUND'); // the webhook was deleted meanwhile
    delivery.kickSoon();
    return { message: 'Test event queued', delivery: toDelivery(row) };
  }

  return { list, get, create, update, remove, deliveries, replay, test };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
