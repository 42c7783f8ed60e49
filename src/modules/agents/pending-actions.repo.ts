import type { Executor, NewRow, PendingActionStatus } from '../../db/database.js';

/** The columns an action is presented with (its token's `agent_id` beside them); never the confirmation hash. */
const VIEW_COLUMNS = ['p.id', 'a.agent_id', 'p.agent_token_id', 'p.permission', 'p.method', 'p.path', 'p.payload',
  'p.prompt_trace_id', 'p.token_nonce', 'p.status', 'p.expires_at', 'p.created_at'] as const;

/** What the gate compares a repeated request with. */
const BINDING_COLUMNS = ['id', 'agent_token_id', 'user_id', 'token_nonce', 'permission', 'method', 'path', 'org_slug',
  'body_sha256', 'status', 'expires_at'] as const;

const view = (db: Executor) => db.selectFrom('agent_pending_actions as p').innerJoin('agent_tokens as a', 'a.id', 'p.agent_token_id');

export const insertAction = (db: Executor, values: NewRow<'agent_pending_actions'>) =>
  db.insertInto('agent_pending_actions').values(values).returning(['id', 'expires_at']).executeTakeFirstOrThrow();

/** The action a confirmation token names, by the SHA-256 of the token (unique index), whatever its state. */
export const findByConfirmationHash = (db: Executor, hash: string) =>
  db.selectFrom('agent_pending_actions').select(BINDING_COLUMNS).where('confirmation_hash', '=', hash).executeTakeFirst();

/**
 * An approved action is executed once: one statement moves it to `executed` only while it is approved and unexpired,
 * so of two concurrent replays one gets the row and the other nothing.
 */
export const consumeApproved = (db: Executor, id: number, now: Date) =>
  db.updateTable('agent_pending_actions').set({ status: 'executed', executed_at: now })
    .where('id', '=', id).where('status', '=', 'approved').where('expires_at', '>', now)
    .returning('id').executeTakeFirst(); // undefined ⇒ already executed, or expired

/** The undecided, unexpired actions of a user's tokens, newest first. */
export async function listPending(db: Executor, userId: number, f: { agentTokenId?: number }, now: Date,
  page: { limit: number; offset: number }) {
  const q = view(db).where('p.user_id', '=', userId).where('p.status', '=', 'pending').where('p.expires_at', '>', now)
    .$if(f.agentTokenId !== undefined, (qb) => qb.where('p.agent_token_id', '=', f.agentTokenId!));
  const [rows, total] = await Promise.all([
    q.select(VIEW_COLUMNS).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').limit(page.limit).offset(page.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

/** Which action a decision is about: its id, or the SHA-256 of its confirmation token. */
export type ActionTarget = { id: number } | { confirmationHash: string };

/**
 * The delegating user's decision, in one statement: only an action of theirs that is still pending and unexpired
 * changes (so two decisions cannot both win). Answers the decided action, or undefined.
 */
export const decide = (db: Executor, userId: number, target: ActionTarget, status: Extract<PendingActionStatus, 'approved' | 'rejected'>,
  now: Date) =>
  db.updateTable('agent_pending_actions as p').from('agent_tokens as a').set({ status, decided_at: now })
    .whereRef('a.id', '=', 'p.agent_token_id')
    .where('p.user_id', '=', userId).where('p.status', '=', 'pending').where('p.expires_at', '>', now)
    .$if('id' in target, (q) => q.where('p.id', '=', (target as { id: number }).id))
    .$if('confirmationHash' in target, (q) => q.where('p.confirmation_hash', '=', (target as { confirmationHash: string }).confirmationHash))
    .returning(VIEW_COLUMNS).executeTakeFirst();

export type PendingActionView = NonNullable<Awaited<ReturnType<typeof decide>>>;
export type ActionBinding = NonNullable<Awaited<ReturnType<typeof findByConfirmationHash>>>;
