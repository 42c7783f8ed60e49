import type { Executor } from './database.js';

/** Work an outbox still holds: how many rows, and when the oldest was written. */
export interface Backlog {
  count: number;
  oldest: Date | null;
}

/**
 * The backlog of an outbox table (emails and SMS, or webhook deliveries): rows neither finished nor given up, in one
 * query (`/health/ready` and `/metrics`).
 */
export async function backlogOf(db: Executor, table: 'outbox_messages' | 'webhook_deliveries'): Promise<Backlog> {
  const row = await db.selectFrom(table)
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('status', 'in', ['pending', 'sending']).executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest === null ? null : new Date(row.oldest) };
}
