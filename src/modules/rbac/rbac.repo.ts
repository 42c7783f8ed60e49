import type { Executor } from '../../db/database.js';
import { grantRefs } from './permission-graph.js';

/**
 * A user's `GrantRefs` (for the permission graph to turn into codes) and superuser flag, in one read; undefined for
 * an unknown user.
 */
export const grantRefsOfUser = (db: Executor, userId: number) =>
  db.selectFrom('users as u').select([grantRefs('u.id').as('refs'), 'u.is_superuser']).where('u.id', '=', userId).executeTakeFirst();
