import { sql } from 'kysely';
import type { Executor, NewRow, RowUpdate } from '../../db/database.js';

/** What the API shows of a webhook: never the sealed secret. */
const WEBHOOK_COLUMNS = ['id', 'url', 'description', 'events', 'is_active', 'created_by', 'created_at', 'updated_at'] as const;

export const insertWebhook = (db: Executor, values: NewRow<'webhooks'>) =>
  db.insertInto('webhooks').values(values).returning(WEBHOOK_COLUMNS).executeTakeFirstOrThrow();

export const findWebhook = (db: Executor, id: number) =>
  db.selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('id', '=', id).executeTakeFirst();

export type WebhookRow = NonNullable<Awaited<ReturnType<typeof findWebhook>>>;

export const updateWebhook = (db: Executor, id: number, values: RowUpdate<'webhooks'>) =>
  db.updateTable('webhooks').set(values).where('id', '=', id).returning(WEBHOOK_COLUMNS).executeTakeFirst();

export const deleteWebhook = async (db: Executor, id: number): Promise<number> =>
  Number((await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst()).numDeletedRows);

export async function listWebhooks(db: Executor, filter: { isActive?: boolean | undefined }, limit: number, offset: number) {
  let q = db.selectFrom('webhooks');
  if (filter.isActive !== undefined) q = q.where('is_active', '=', filter.isActive);
  const [rows, total] = await Promise.all([
    q.select(WEBHOOK_COLUMNS).orderBy('id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

/** The event types at least one active webhook subscribes to. */
export async function subscribedTypes(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ type: string }>`
    select distinct e.type from webhooks w cross join lateral jsonb_array_elements_text(w.events) as e(type)
    where w.is_active`.execute(db);
  return rows.map((r) => r.type);
}

export interface NewEvent {
  eventId: string;
  type: string;
  data: string;
  userId: number | null;
  now: Date;
}

/**
 * One delivery per active webhook subscribed to the event's type, in the caller's transaction. Answers how many.
 *
 * The webhooks written for are locked `for key share` (docs/decisions.md "Webhooks": deleting a webhook): a webhook
 * deleted since the statement's snapshot is skipped instead of failing the foreign key, and a webhook locked here
 * is deleted only after this transaction ends, with the deliveries it wrote. The foreign key check takes this very
 * lock anyway; taking it while choosing the webhooks, rather than after, is what keeps the event from failing the
 * change it reports. Every statement that writes deliveries does the same (auth/login.repo.ts too).
 */
export async function insertEvent(db: Executor, e: NewEvent): Promise<number> {
  const result = await sql`
    insert into webhook_deliveries (webhook_id, event_id, type, payload, user_id, next_attempt_at, created_at)
    select w.id, ${e.eventId}, ${e.type}, ${e.data}::jsonb, ${e.userId}::bigint, ${e.now}::timestamptz, ${e.now}::timestamptz
    from webhooks w where w.is_active and w.events @> jsonb_build_array(${e.type}::text)
    for key share of w`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

const DELIVERY_COLUMNS = ['id', 'webhook_id', 'event_id', 'type', 'payload', 'status', 'attempts', 'next_attempt_at', 'last_status_code',
  'last_error', 'replay_of', 'created_at', 'delivered_at'] as const;

export interface NewDelivery {
  webhookId: number;
  eventId: string;
  type: string;
  data: string;
  userId: number | null;
  now: Date;
  createdAt: Date;
  replayOf: number | null;
}

/**
 * A delivery for one webhook (the `webhook.test` ping, a replay), written only while the webhook (and the replayed
 * delivery) exists: answers undefined for one deleted meanwhile. Both are locked as `insertEvent` does, for the same
 * reason: the admin's request answers 404 instead of failing a foreign key.
 */
export async function insertDelivery(db: Executor, d: NewDelivery) {
  const { rows } = await sql<DeliveryRow>`
    insert into webhook_deliveries (webhook_id, event_id, type, payload, user_id, next_attempt_at, created_at, replay_of)
    select w.id, ${d.eventId}::text, ${d.type}::text, ${d.data}::jsonb, ${d.userId}::bigint, ${d.now}::timestamptz,
      ${d.createdAt}::timestamptz, ${d.replayOf}::bigint
    from webhooks w where w.id = ${d.webhookId}::bigint
      and (${d.replayOf}::bigint is null or exists (select from webhook_deliveries o where o.id = ${d.replayOf}::bigint for key share))
    for key share of w
    returning ${sql.join(DELIVERY_COLUMNS.map((c) => sql.ref(c)))}`.execute(db);
  return rows[0];
}

export const findDelivery = (db: Executor, webhookId: number, id: number) =>
  db.selectFrom('webhook_deliveries').select([...DELIVERY_COLUMNS, 'user_id'])
    .where('webhook_id', '=', webhookId).where('id', '=', id).executeTakeFirst();

export type DeliveryRow = Omit<NonNullable<Awaited<ReturnType<typeof findDelivery>>>, 'user_id'>;

/** One attempt as stored, inside a delivery's `attempt_history` (a JSON time is a string). */
export interface AttemptJson {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A listed delivery's attempts, oldest first: one subquery per row of the page, on the attempts' primary key. */
const attemptHistory = sql<AttemptJson[]>`(select coalesce(json_agg(json_build_object('attempt', a.attempt,
  'attempted_at', a.attempted_at, 'status_code', a.status_code, 'error', a.error, 'duration_ms', a.duration_ms)
  order by a.attempt), '[]') from webhook_delivery_attempts a where a.delivery_id = webhook_deliveries.id)`;

export async function listDeliveries(db: Executor, webhookId: number, filter: { status?: string | undefined; type?: string | undefined },
  limit: number, offset: number) {
  let q = db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status as 'pending');
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  const [rows, total] = await Promise.all([
    q.select(DELIVERY_COLUMNS).select(attemptHistory.as('attempt_history')).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

/**
 * docs/webhooks.md "Events and their payloads": stored webhook payloads about a deleted account lose what names or
 * locates the person. Answers how many rows were scrubbed.
 */
export async function scrubPersonalData(db: Executor, userId: number, fields: readonly string[]): Promise<number> {
  const result = await sql`update webhook_deliveries set payload = payload - ${sql.val([...fields])}::text[]
    where user_id = ${userId} and payload ?| ${sql.val([...fields])}::text[]`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
