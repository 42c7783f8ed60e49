import { CompiledQuery, sql, type Selectable } from 'kysely';
import type { AuditEventsTable, Executor } from '../../db/database.js';
import type { TrailHead, TrailRow } from './trail-hash.js';

export interface QueuedEvent {
  root: number;
  tokenId: number;
  type: string;
  at: Date;
  data: Record<string, unknown>;
}

/**
 * Locks the heads of the given roots until the transaction ends (in root order, so two appenders never deadlock), then
 * takes the token events and decisions queued for them: one statement, the heads always locked before the queue rows.
 * The roots' token rows are share-locked first, as the rows appended will be by their foreign keys: a transaction
 * deleting a root (its person's account) locks the token before its heads and rows, so the two queue in one order.
 */
const LOCK_AND_TAKE = `with t as (
    select id from agent_tokens where id = any($1::bigint[]) order by id for key share
  ), h as (
    select root_token_id, seq, hash from agent_trail_heads where root_token_id in (select id from t) order by root_token_id for update
  ), q as (
    delete from agent_trail_queue where root_token_id in (select root_token_id from h)
    returning id, root_token_id, token_id, type, at, data
  )
  select (select coalesce(json_agg(json_build_array(root_token_id, seq, hash)), '[]') from h) as heads,
    (select coalesce(json_agg(json_build_array(id, root_token_id, token_id, type, at, data) order by id), '[]') from q) as queued`;

type Json<T> = T | string;
const parsed = <T>(value: Json<T>): T => (typeof value === 'string' ? JSON.parse(value) as T : value);

export async function lockAndTake(trx: Executor, roots: number[]): Promise<{ heads: Map<number, TrailHead>; queued: QueuedEvent[] }> {
  const { rows } = await trx.executeQuery<{ heads: Json<Array<[number, number, string | null]>>;
    queued: Json<Array<[number, number, number, string, string, Record<string, unknown>]>> }>(CompiledQuery.raw(LOCK_AND_TAKE, [roots]));
  const row = rows[0]!;
  return {
    heads: new Map(parsed(row.heads).map(([root, seq, hash]) => [Number(root), { seq: Number(seq), hash }])),
    queued: parsed(row.queued).map(([, root, tokenId, type, at, data]) => ({ root: Number(root), tokenId: Number(tokenId), type,
      at: new Date(at), data })),
  };
}

/** A head for each root that has none (a root created before the trail existed has one from its migration). */
export async function createHeads(trx: Executor, roots: number[]): Promise<void> {
  await trx.executeQuery(CompiledQuery.raw(`insert into agent_trail_heads (root_token_id)
    select r from unnest($1::bigint[]) r where exists (select 1 from agent_tokens where id = r) order by r on conflict do nothing`, [roots]));
}

/** Roots with queued events, oldest event first: what a pass over the queue takes, a few roots at a time. */
export async function queuedRoots(db: Executor, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('agent_trail_queue').select('root_token_id').groupBy('root_token_id')
    .orderBy(sql`min(id)`).limit(limit).execute();
  return rows.map((r) => Number(r.root_token_id));
}

/** The audit rows of the agent requests among the rows appended (their `trail_seq` set), then the trail rows. */
const INSERT_ROWS = (when: string) => `audit as (
    insert into audit_events (event_type, severity, user_id, actor_id, application_id, ip_address, user_agent, request_id,
      trace_id, agent_token_id, details, created_at, trail_seq)
    select * from unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[],
      $9::text[], $10::bigint[], $11::jsonb[], $12::timestamptz[], $13::bigint[]) ${when}
  ), trail as (
    insert into agent_trail (root_token_id, seq, token_id, type, at, data, prev_hash, hash)
    select * from unnest($14::bigint[], $15::bigint[], $16::bigint[], $17::text[], $18::text[], $19::jsonb[], $20::text[], $21::text[]) ${when}
  )`;

/** Appends rows and moves their roots' heads (locked by the caller's transaction), in one statement. */
const APPEND = `with ${INSERT_ROWS('')}
  update agent_trail_heads h set seq = n.seq, hash = n.hash
  from unnest($22::bigint[], $23::bigint[], $24::text[]) n (root_token_id, seq, hash) where h.root_token_id = n.root_token_id`;

/**
 * The same without a transaction, for rows hashed after heads this instance wrote itself: written only if every head
 * is still what it was and nothing is queued for those roots; otherwise nothing is written and the caller takes the
 * locks. A head moved meanwhile by another instance makes the statement fail on the chain's primary key (the same
 * `seq` twice), never append twice.
 */
const APPEND_IF_UNMOVED = `with n (root_token_id, seq, hash, was_seq, was_hash) as (
    select * from unnest($22::bigint[], $23::bigint[], $24::text[], $25::bigint[], $26::text[])
  ), unmoved as (
    select count(*) as count from agent_trail_heads h join n on h.root_token_id = n.root_token_id
    where h.seq = n.was_seq and h.hash is not distinct from n.was_hash
      and not exists (select 1 from agent_trail_queue q where q.root_token_id = n.root_token_id)
  ), ${INSERT_ROWS('where (select count from unmoved) = cardinality($22::bigint[])')}, moved as (
    update agent_trail_heads h set seq = n.seq, hash = n.hash from n
    where h.root_token_id = n.root_token_id and (select count from unmoved) = cardinality($22::bigint[])
    returning 1
  )
  select count(*)::int as moved from moved`;

/** An audit row of an agent request, as the activity writer queues it (`details` already as JSON text). */
export type AuditColumns = Omit<Selectable<AuditEventsTable>, 'id' | 'trail_seq' | 'details'> & { details: string };
const AUDIT_COLUMNS = ['event_type', 'severity', 'user_id', 'actor_id', 'application_id', 'ip_address', 'user_agent', 'request_id',
  'trace_id', 'agent_token_id', 'details', 'created_at'] as const;

function rowParameters(audit: Array<AuditColumns & { trail_seq: number | null }>, rows: TrailRow[]): unknown[] {
  return [...AUDIT_COLUMNS.map((c) => audit.map((a) => (c === 'created_at' ? a.created_at.toISOString() : a[c]))),
    audit.map((a) => a.trail_seq),
    rows.map((r) => r.root_token_id), rows.map((r) => r.seq), rows.map((r) => r.token_id), rows.map((r) => r.type),
    rows.map((r) => r.at), rows.map((r) => JSON.stringify(r.data)), rows.map((r) => r.prev_hash), rows.map((r) => r.hash)];
}

export async function append(trx: Executor, audit: Array<AuditColumns & { trail_seq: number | null }>, rows: TrailRow[],
  heads: Map<number, TrailHead>): Promise<void> {
  const moved = [...heads];
  await trx.executeQuery(CompiledQuery.raw(APPEND, [...rowParameters(audit, rows),
    moved.map(([root]) => root), moved.map(([, h]) => h.seq), moved.map(([, h]) => h.hash)]));
}

/**
 * {@link APPEND_IF_UNMOVED}: whether the rows were written (every head was still `was`). All or nothing: the heads are
 * moved only when all of them may be, and a head moved meanwhile fails the statement on the primary key.
 */
export async function appendIfUnmoved(db: Executor, audit: Array<AuditColumns & { trail_seq: number | null }>, rows: TrailRow[],
  moves: Array<{ root: number; was: TrailHead; now: TrailHead }>): Promise<boolean> {
  const { rows: [answer] } = await db.executeQuery<{ moved: number }>(CompiledQuery.raw(APPEND_IF_UNMOVED, [...rowParameters(audit, rows),
    moves.map((m) => m.root), moves.map((m) => m.now.seq), moves.map((m) => m.now.hash), moves.map((m) => m.was.seq),
    moves.map((m) => m.was.hash)]));
  return (answer?.moved ?? 0) > 0;
}

/** The root of a token's tree (the token itself for a root); undefined for no such token. */
export const rootOf = async (db: Executor, tokenId: number): Promise<number | undefined> => (await rootsOf(db, [tokenId])).get(tokenId);

/** A root's head as stored (undefined when it has none). */
export async function headOf(db: Executor, root: number): Promise<TrailHead | undefined> {
  const row = await db.selectFrom('agent_trail_heads').select(['seq', 'hash']).where('root_token_id', '=', root).executeTakeFirst();
  return row ? { seq: Number(row.seq), hash: row.hash } : undefined;
}

/** Up to `limit` rows of a root's chain after `afterSeq`, in order. */
export async function chainPage(db: Executor, root: number, afterSeq: number, limit: number): Promise<TrailRow[]> {
  const rows = await db.selectFrom('agent_trail').select(['root_token_id', 'seq', 'token_id', 'type', 'at', 'data', 'prev_hash', 'hash'])
    .where('root_token_id', '=', root).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  return rows.map((r) => ({ ...r, root_token_id: Number(r.root_token_id), seq: Number(r.seq), token_id: Number(r.token_id) }));
}

/** The roots of the given tokens (a token no longer there is left out). */
export async function rootsOf(db: Executor, tokenIds: number[]): Promise<Map<number, number>> {
  const rows = await db.selectFrom('agent_tokens').select(['id', sql<string>`coalesce(ancestor_ids[1], id)`.as('root')])
    .where('id', 'in', tokenIds).execute();
  return new Map(rows.map((r) => [Number(r.id), Number(r.root)]));
}
