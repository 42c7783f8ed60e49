import type pg from 'pg';

/**
 * Polls PostgreSQL through `client` until `count` queries in its database wait on a lock (so they are in flight).
 * `client` may be inside a transaction (the one holding the lock): PostgreSQL keeps one snapshot of the activity view
 * for a whole transaction, so each poll clears it first, or the first answer would be the only one.
 */
export async function waitForLockWait(client: pg.Client, count = 1): Promise<void> {
  for (;;) {
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
    if (rows[0]!.n >= count) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
