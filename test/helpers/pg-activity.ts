import type pg from 'pg';

/** Polls PostgreSQL through `client` until a query in its database waits on a lock (so that query is in flight). */
export async function waitForLockWait(client: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
