import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';

/**
 * The delegation behind an OAuth grant, created with the grant or, when the grant is widened by a later consent, given
 * the new permissions as well (its counters, limits and expiry stay): one statement, so two consents never make two.
 */
export const upsertGrantDelegation = (db: Executor, values: NewRow<'agent_tokens'> & { oauth_grant_id: string }) =>
  db.insertInto('agent_tokens').values(values)
    .onConflict((oc) => oc.column('oauth_grant_id').where('oauth_grant_id', 'is not', null).doUpdateSet({
      granted_permissions: sql<string[]>`array(select distinct p from unnest(agent_tokens.granted_permissions || excluded.granted_permissions) p order by p)`,
      updated_at: values.updated_at,
    }))
    .returning(['id', 'granted_permissions']).executeTakeFirstOrThrow();
