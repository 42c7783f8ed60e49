import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { ChangeBus } from '../../db/change-bus.js';
import type { Db, Executor } from '../../db/database.js';
import { PERSONAL_FIELDS, type EventData, type WebhookEventType } from './events.js';
import * as repo from './webhooks.repo.js';

/**
 * How long this instance trusts its list of subscribed event types. A webhook change is announced to every instance
 * (db/change-bus.ts), which drops the list at once; this bound holds even for an announcement that was lost.
 */
const SUBSCRIPTIONS_TTL_MS = 1_000;

type Deps = { db: Db; clock: Clock; onEnqueued: () => void; changes: Pick<ChangeBus, 'publish' | 'subscribe'> };

/** A new event id, the `webhook-id` header: the same on every attempt and replay of the event. */
export const newEventId = (): string => `msg_${randomBytes(18).toString('base64url')}`;

/**
 * Writes webhook events to the outbox (`webhook_deliveries`) in the transaction of the change they report, so an event
 * exists exactly when its change was committed. Nothing is written — and no query is made — while no active
 * webhook subscribes to the type: this instance keeps the subscribed types (refreshed every second, and at once
 * when a webhook changes here), so the paths every request takes pay nothing for webhooks nobody set up.
 */
export function createWebhookEvents({ db, clock, onEnqueued, changes }: Deps) {
  let types: { set: ReadonlySet<string>; until: number } | undefined;
  let loading: Promise<ReadonlySet<string>> | undefined;

  /**
   * The subscribed types. Read through `executor` when the cache has run out: inside a transaction, its own connection
   * (PGlite has one connection, which the transaction holds). Concurrent reads outside transactions share one query.
   */
  async function subscribed(executor: Executor): Promise<ReadonlySet<string>> {
    const now = clock.now().getTime();
    if (types && types.until > now) return types.set;
    const read = () => repo.subscribedTypes(executor).then((list) => {
      const set = new Set(list);
      types = { set, until: clock.now().getTime() + SUBSCRIPTIONS_TTL_MS };
      return set;
    });
    if (executor !== db) return read();
    loading ??= read().finally(() => { loading = undefined; });
    return loading;
  }

  /** Whether an active webhook subscribes to `type` (as this instance last saw); pass `trx` inside a transaction. */
  const wants = async (type: WebhookEventType, executor: Executor = db): Promise<boolean> => (await subscribed(executor)).has(type);

  /** Every instance drops its cached subscriptions, this one at once: the next event reads them again. */
  changes.subscribe('webhooks', () => { types = undefined; });
  const invalidate = async (): Promise<void> => { await changes.publish('webhooks'); };

  /**
   * Writes the event for every active webhook subscribed to `type`, in `trx`. `data` may be a function, called only
   * when someone subscribes (a payload that needs a query). `userId`: the account the event is about (by default the
   * data's `user_id`), whose deletion scrubs the stored payload.
   */
  async function emit(trx: Executor, type: WebhookEventType, data: EventData | ((trx: Executor) => Promise<EventData>),
    userId?: number | null): Promise<void> {
    if (!(await wants(type, trx))) return;
    const payload = typeof data === 'function' ? await data(trx) : data;
    const subject = userId !== undefined ? userId : typeof payload.user_id === 'number' ? payload.user_id : null;
    const written = await repo.insertEvent(trx, { eventId: newEventId(), type, data: JSON.stringify(payload), userId: subject,
      now: clock.now() });
    if (written > 0) onEnqueued();
  }

  /**
   * Runs `work` in a transaction when someone subscribes to `type`, else directly on `db`: for a change made by one
   * statement of its own (a failed attempt, a lock), which needs a transaction only to carry its event.
   */
  async function atomically<T>(type: WebhookEventType, work: (trx: Executor) => Promise<T>): Promise<T> {
    return (await wants(type)) ? db.transaction().execute(work) : work(db);
  }

  /** Says that events were written by a statement of its own (the one-statement login): a delivery pass follows. */
  const enqueued = (): void => onEnqueued();

  /**
   * docs/webhooks.md "Events and their payloads": the stored payloads about an account whose deletion completes lose
   * every field that names or locates the person (its address, phone, names, IPs), in the deletion's transaction.
   */
  const forgetUser = (trx: Executor, userId: number): Promise<number> => repo.scrubPersonalData(trx, userId, PERSONAL_FIELDS);

  return { wants, emit, atomically, invalidate, enqueued, forgetUser };
}

export type WebhookEvents = ReturnType<typeof createWebhookEvents>;
