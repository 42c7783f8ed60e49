import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { grantRefs, type GrantRefs } from './permission-graph.js';

/** The {@link GrantRefs} of a user, for the permission graph to turn into codes. */
export async function grantRefsOfUser(db: Executor, userId: number): Promise<GrantRefs> {
  const { rows } = await sql<{ refs: GrantRefs }>`select ${grantRefs('u.id')} as refs from (select ${userId}::bigint as id) u`.execute(db);
  return rows[0]!.refs;
}
