import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { ListQuery } from '../../core/listing.js';
import { Body, Nullable } from '../../http/schema.js';
import { WEBHOOK_EVENTS } from './events.js';
import type { AttemptJson, DeliveryRow, WebhookRow } from './webhooks.repo.js';

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'Absolute http(s) URL receiving the POSTs' });
const Events = Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: false,
  description: `Event types to receive: ${WEBHOOK_EVENTS.join(', ')}` });
const Description = Type.String({ maxLength: 1000 });

export const WebhookListQuery = ListQuery({ is_active: Type.Optional(Type.Boolean()) });
export type WebhookListInput = Static<typeof WebhookListQuery>;

export const CreateWebhookBody = Body({
  url: Url,
  events: Events,
  is_active: Type.Optional(Type.Boolean()),
  description: Type.Optional(Description),
});
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const ReplaceWebhookBody = Body({
  url: Url,
  events: Events,
  is_active: Type.Optional(Type.Boolean()),
  description: Type.Optional(Description),
}, 'url and events are required; is_active and description left out keep their value');

export const PatchWebhookBody = Body({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  is_active: Type.Optional(Type.Boolean()),
  description: Type.Optional(Description),
});
export type UpdateWebhookInput = Static<typeof PatchWebhookBody>;

/** A webhook as the API shows it: never its secret. */
export const WebhookResponse = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  is_active: Type.Boolean(),
  description: Type.String(),
  created_by: Nullable(Type.Integer()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type WebhookBody = Static<typeof WebhookResponse>;

/** The creation answer: the only one that carries the signing secret. */
export const WebhookCreatedResponse = Type.Object({
  message: Type.String(),
  webhook: WebhookResponse,
  secret: Type.String({ description: 'whsec_… — shown once; verify the webhook-signature header with it' }),
  warning: Type.String(),
});

export const toWebhook = (w: WebhookRow): WebhookBody => ({
  id: w.id, url: w.url, events: w.events, is_active: w.is_active, description: w.description, created_by: w.created_by,
  created_at: toIso(w.created_at)!, updated_at: toIso(w.updated_at)!,
});

export const DeliveryStatus = Type.Union([
  Type.Literal('pending'), Type.Literal('sending'), Type.Literal('delivered'), Type.Literal('failed'),
]);

export const DeliveryListQuery = ListQuery({
  status: Type.Optional(DeliveryStatus),
  type: Type.Optional(Type.String({ maxLength: 64 })),
});
export type DeliveryListInput = Static<typeof DeliveryListQuery>;

export const DeliveryParams = Type.Object({ id: Type.String(), delivery_id: Type.String() });

/** One attempt at a delivery: never the receiver's answer body, never a secret. */
export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer({ description: '1 for the first attempt' }),
  attempted_at: Type.String({ format: 'date-time', description: 'When the attempt started' }),
  status_code: Nullable(Type.Integer({ description: 'The receiver\'s HTTP status; null when it did not answer' })),
  error: Nullable(Type.String({ description: 'Why the attempt failed (HTTP 500, connect ECONNREFUSED …, no answer within 10 s, '
    + 'refused: …); null when it was delivered' })),
  duration_ms: Type.Integer({ description: 'From the address check to the end of the answer, or to the failure' }),
});

/** A delivery with its attempts and the event's data as sent (never a secret, a code or a token). */
export const DeliveryResponse = Type.Object({
  id: Type.Integer(),
  webhook_id: Type.Integer(),
  event_id: Type.String({ description: 'The webhook-id header: the same on every attempt and replay' }),
  type: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer({ description: 'How many attempts were made' }),
  next_attempt_at: Nullable(Type.String({ format: 'date-time' })),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  replay_of: Nullable(Type.Integer()),
  created_at: Type.String({ format: 'date-time' }),
  delivered_at: Nullable(Type.String({ format: 'date-time' })),
  payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The event\'s data, as sent' }),
  attempt_history: Type.Array(DeliveryAttempt, { description: 'Each attempt, oldest first' }),
});

const toAttempt = (a: AttemptJson) => ({ attempt: a.attempt, attempted_at: toIso(a.attempted_at)!, status_code: a.status_code,
  error: a.error, duration_ms: a.duration_ms });

/** A delivery as listed; a delivery just queued (a replay, the ping) has no attempt yet. */
export const toDelivery = (d: DeliveryRow & { attempt_history?: AttemptJson[] }) => ({
  id: d.id, webhook_id: d.webhook_id, event_id: d.event_id, type: d.type, status: d.status, attempts: d.attempts,
  next_attempt_at: toIso(d.next_attempt_at), last_status_code: d.last_status_code, last_error: d.last_error, replay_of: d.replay_of,
  created_at: toIso(d.created_at)!, delivered_at: toIso(d.delivered_at), payload: d.payload,
  attempt_history: (d.attempt_history ?? []).map(toAttempt),
});

export const ReplayResponse = Type.Object({ message: Type.String(), delivery: DeliveryResponse });
