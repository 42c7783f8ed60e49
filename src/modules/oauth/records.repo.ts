import { CompiledQuery, sql, type ExpressionBuilder } from 'kysely';
import type { DatabaseSchema, Executor } from '../../db/database.js';
import { grantRefsSql, type GrantRefs } from '../rbac/permission-graph.js';

/** A record as the provider stores it, keyed by the hash of its id (docs/oauth.md "Storage"). */
export interface RecordValues {
  model: string;
  idHash: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  uid: string | null;
  accountId: number | null;
  expiresAt: Date | null;
}

export const upsertRecord = (db: Executor, r: RecordValues) =>
  db.insertInto('oauth_records')
    .values({ model: r.model, id_hash: r.idHash, payload: JSON.stringify(r.payload), grant_id: r.grantId, uid: r.uid,
      account_id: r.accountId, expires_at: r.expiresAt })
    .onConflict((oc) => oc.columns(['model', 'id_hash']).doUpdateSet({
      payload: JSON.stringify(r.payload), grant_id: r.grantId, uid: r.uid, account_id: r.accountId, expires_at: r.expiresAt,
    }))
    .execute();

/** A record that has not expired at `now` (a record without expiry never does); qualified, so it holds in a join too. */
const unexpired = (now: Date) => (eb: ExpressionBuilder<DatabaseSchema, 'oauth_records'>) =>
  eb.or([eb('oauth_records.expires_at', 'is', null), eb('oauth_records.expires_at', '>', now)]);

const LIVE_COLUMNS = ['payload', 'consumed_at'] as const;

/** A record that has not expired at `now`. */
export const findRecord = (db: Executor, model: string, idHash: string, now: Date) =>
  db.selectFrom('oauth_records').select(LIVE_COLUMNS)
    .where('model', '=', model).where('id_hash', '=', idHash)
    .where(unexpired(now))
    .executeTakeFirst();

/** The row {@link introspectJwt} answers. */
export interface IntrospectedJwt {
  payload: Record<string, unknown>; delegation_live: boolean; organization_slug: string | null; user_id: number | null;
  is_active: boolean; is_banned: boolean; deleted_at: Date | null; deletion_scheduled_at: Date | null; locked_until: Date | null;
  tokens_valid_after: Date | null; is_superuser: boolean; user_grants: GrantRefs;
}

/** Sent as it is, never compiled per call: introspection is on every call a resource makes. */
const INTROSPECT_JWT = `
  select r.payload, (a.id is null or (a.status = 'ACTIVE' and a.expires_at > $3::timestamptz)) as delegation_live,
    o.slug as organization_slug, u.id as user_id, u.is_active, u.is_banned, u.deleted_at, u.deletion_scheduled_at, u.locked_until,
    u.tokens_valid_after, u.is_superuser, ${grantRefsSql('u.id')} as user_grants
  from oauth_records r
  left join agent_tokens a on a.oauth_grant_id = r.grant_id
  left join organizations o on o.id = a.organization_id
  left join users u on u.id = r.account_id
  where r.model = $1 and r.id_hash = $2 and r.expires_at > $3::timestamptz`;

/**
 * Introspection of a JWT access token in one statement: its live record, whether its grant's delegation is live, and
 * its person's state with the references of their grants (what they hold now).
 */
export async function introspectJwt(db: Executor, model: string, idHash: string, now: Date): Promise<IntrospectedJwt | undefined> {
  const { rows } = await db.executeQuery<IntrospectedJwt>(CompiledQuery.raw(INTROSPECT_JWT, [model, idHash, now.toISOString()]));
  return rows[0];
}

export const findRecordByUid = (db: Executor, model: string, uid: string, now: Date) =>
  db.selectFrom('oauth_records').select(LIVE_COLUMNS)
    .where('model', '=', model).where('uid', '=', uid)
    .where(unexpired(now))
    .executeTakeFirst();

/**
 * Marks a record consumed in one statement: answers its grant id when this call consumed it, or null when it was
 * consumed already (or is gone), so that of two parallel redemptions exactly one wins.
 */
export async function consumeRecord(db: Executor, model: string, idHash: string, now: Date)
  : Promise<{ consumed: boolean; grantId: string | null; consumedAt: Date | null }> {
  const row = await db.updateTable('oauth_records').set({ consumed_at: now })
    .where('model', '=', model).where('id_hash', '=', idHash).where('consumed_at', 'is', null)
    .returning('grant_id').executeTakeFirst();
  if (row) return { consumed: true, grantId: row.grant_id, consumedAt: now };
  const other = await db.selectFrom('oauth_records').select(['grant_id', 'consumed_at']).where('model', '=', model).where('id_hash', '=', idHash)
    .executeTakeFirst();
  return { consumed: false, grantId: other?.grant_id ?? null, consumedAt: other?.consumed_at ?? null };
}

export const deleteRecord = (db: Executor, model: string, idHash: string) =>
  db.deleteFrom('oauth_records').where('model', '=', model).where('id_hash', '=', idHash).execute();

/** Every record a grant issued, of the models given. */
export const deleteModelRecordsOfGrant = (db: Executor, models: string[], grantId: string) =>
  db.deleteFrom('oauth_records').where('model', 'in', models).where('grant_id', '=', grantId).execute();

/**
 * The grant, everything it issued and its delegation (a replayed code, a reused refresh token, a revoked grant), in one
 * statement (docs/oauth.md "Grants and ai/authorize/"): its access tokens are refused by `ai/authorize/` at once.
 */
export async function endGrant(db: Executor, grantId: string, now: Date): Promise<void> {
  await sql`
    with gone as (delete from oauth_records where grant_id = ${grantId} returning 1)
    update agent_tokens set status = 'REVOKED', status_changed_at = ${now}, updated_at = ${now}
    where oauth_grant_id = ${grantId} and status in ('ACTIVE', 'SUSPENDED')`.execute(db);
}

/** A page of a person's live grants, newest first (the grant id is kept in `grant_id`), and their number. */
export async function listGrantsOf(db: Executor, accountId: number, now: Date, limit: number, offset: number) {
  const live = db.selectFrom('oauth_records').where('oauth_records.model', '=', 'Grant').where('oauth_records.account_id', '=', accountId)
    .where(unexpired(now));
  const [rows, total] = await Promise.all([
    live.leftJoin('agent_tokens as a', 'a.oauth_grant_id', 'oauth_records.grant_id')
      .leftJoin('organizations as o', 'o.id', 'a.organization_id')
      .select(['oauth_records.grant_id', 'oauth_records.payload', 'a.id as delegation_id', 'a.status as delegation_status',
        'a.expires_at as delegation_expires_at', 'a.max_requests_per_minute', 'a.budget_limit_usd', 'o.slug as organization_slug'])
      .orderBy(sql`(oauth_records.payload->>'iat')::bigint`, 'desc').orderBy('oauth_records.grant_id').limit(limit).offset(offset).execute(),
    live.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export type GrantRow = Awaited<ReturnType<typeof listGrantsOf>>['rows'][number];

/** One live grant by its id, and whose it is. */
export const findGrant = (db: Executor, grantId: string, now: Date) =>
  db.selectFrom('oauth_records').select(['account_id', 'payload'])
    .where('model', '=', 'Grant').where('grant_id', '=', grantId)
    .where(unexpired(now))
    .executeTakeFirst();

/**
 * Every record of a person — grants, what they issued, the pages' sessions — in one statement: what an event ending
 * all their sessions ends (docs/oauth.md "Grants"). Answers the grant ids removed.
 */
export async function deleteAccountRecords(db: Executor, accountId: number): Promise<string[]> {
  const rows = await db.deleteFrom('oauth_records').where('account_id', '=', accountId).returning(['model', 'grant_id']).execute();
  return rows.filter((r) => r.model === 'Grant' && r.grant_id !== null).map((r) => r.grant_id!);
}

/** The stored metadata of a client registered dynamically. */
export const findRegisteredClient = (db: Executor, idHash: string) =>
  db.selectFrom('oauth_records').select('payload').where('model', '=', 'Client').where('id_hash', '=', idHash).executeTakeFirst();
