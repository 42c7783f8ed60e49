import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { AGENT_ACTION_EVENT } from './activity.schemas.js';

/** Whether the token is one of the user's (another user's is not found). */
export const isOwnToken = async (db: Executor, userId: number, tokenId: number): Promise<boolean> =>
  (await db.selectFrom('agent_tokens').select('id').where('id', '=', tokenId).where('user_id', '=', userId).executeTakeFirst()) !== undefined;

/**
 * A token's `agent_action` audit rows, newest first (served by the `(agent_token_id, created_at)` index), each with its
 * row of the root's trail (none for a row written before the trail existed).
 */
export async function listActions(db: Executor, tokenId: number, traceId: string | undefined, page: { limit: number; offset: number }) {
  let q = db.selectFrom('audit_events').where('agent_token_id', '=', tokenId).where('event_type', '=', AGENT_ACTION_EVENT);
  if (traceId !== undefined) q = q.where('trace_id', '=', traceId);
  const root = sql<number>`(select coalesce(ancestor_ids[1], id) from agent_tokens where id = ${tokenId})`;
  const [rows, total] = await Promise.all([
    q.leftJoin('agent_trail as t', (join) => join.on('t.root_token_id', '=', root).onRef('t.seq', '=', 'audit_events.trail_seq'))
      .select(['audit_events.id', 'audit_events.details', 'audit_events.created_at', 't.seq', 't.prev_hash', 't.hash'])
      .orderBy('audit_events.created_at', 'desc').orderBy('audit_events.id', 'desc')
      .limit(page.limit).offset(page.offset).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}
