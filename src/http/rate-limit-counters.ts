import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/**
 * One request counted against a fixed window in PostgreSQL, in one statement: the window starts at the first request
 * and the count restarts once it has ended — what Redis's INCR + PEXPIRE does. Answers the count including this
 * request and the milliseconds left in the window. Concurrent requests on one key serialize on its row, so none is lost.
 */
export async function countInPostgres(db: Executor, key: string, windowMs: number, now: Date): Promise<{ current: number; ttl: number }> {
  const ends = new Date(now.getTime() + windowMs);
  const { rows } = await sql<{ count: number; window_ends: Date }>`
    insert into rate_limit_counters as c (key, count, window_ends) values (${key}, 1, ${ends})
    on conflict (key) do update set
      count = case when c.window_ends <= ${now} then 1 else c.count + 1 end,
      window_ends = case when c.window_ends <= ${now} then ${ends} else c.window_ends end
    returning count, window_ends`.execute(db);
  const row = rows[0]!;
  return { current: row.count, ttl: Math.max(0, new Date(row.window_ends).getTime() - now.getTime()) };
}

