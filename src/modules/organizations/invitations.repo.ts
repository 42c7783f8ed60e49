import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';
import { precompileRows } from '../../db/precompiled.js';

/**
 * Written as a literal, not a parameter, so that the planner always matches the partial index on
 * `(email) where status = 'pending'` (a generic plan cannot prove a parameter equal to it).
 */
const PENDING = sql.lit('pending');

export type InvitationStatus = 'pending' | 'accepted' | 'declined' | 'expired' | 'revoked';

/** A pending invitation past its expiry is reported as `expired`; nothing rewrites its row. */
const shownStatus = (now: Date) =>
  sql<InvitationStatus>`case when i.status = 'pending' and i.expires_at <= ${now} then 'expired' else i.status end`;

function invitations(db: Executor, organizationId: number) {
  return db.selectFrom('organization_invitations as i')
    .innerJoin('org_roles as r', 'r.id', 'i.org_role_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .where('i.organization_id', '=', organizationId);
}

const viewColumns = (now: Date) => ['i.id', 'i.email', 'i.expires_at', 'i.created_at', 'r.code as role_code', 'r.name as role_name',
  'u.id as inviter_id', 'u.email as inviter_email', 'u.first_name as inviter_first_name', 'u.last_name as inviter_last_name',
  shownStatus(now).as('status')] as const;

function withStatus(db: Executor, organizationId: number, status: InvitationStatus | undefined, now: Date) {
  const q = invitations(db, organizationId);
  if (status === 'pending') return q.where('i.status', '=', PENDING).where('i.expires_at', '>', now);
  if (status === 'expired') {
    return q.where((eb) => eb.or([eb('i.status', '=', 'expired'), eb.and([eb('i.status', '=', PENDING), eb('i.expires_at', '<=', now)])]));
  }
  return status ? q.where('i.status', '=', status) : q;
}

/** The organization's invitations, newest first, as `status` shows them. */
export async function listInvitations(db: Executor, organizationId: number, status: InvitationStatus | undefined, now: Date,
  limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    withStatus(db, organizationId, status, now).select(viewColumns(now))
      .orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(limit).offset(offset).execute(),
    withStatus(db, organizationId, status, now).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export type InvitationView = Awaited<ReturnType<typeof listInvitations>>['rows'][number];

export const findInvitationView = (db: Executor, organizationId: number, id: number, now: Date) =>
  invitations(db, organizationId).select(viewColumns(now)).where('i.id', '=', id).executeTakeFirst();

/** The invitation `id` of this organization (another organization's id finds nothing). */
export const findInvitation = (db: Executor, organizationId: number, id: number) =>
  db.selectFrom('organization_invitations').select(['id', 'email', 'status', 'expires_at'])
    .where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();

/** The invitation a token names (by the token's hash), whatever its state. */
export const findByTokenHash = (db: Executor, tokenHash: string) =>
  db.selectFrom('organization_invitations')
    .select(['id', 'organization_id', 'email', 'org_role_id', 'invited_by', 'status', 'expires_at'])
    .where('token_hash', '=', tokenHash).executeTakeFirst();

export type InvitationRow = Pick<NonNullable<Awaited<ReturnType<typeof findByTokenHash>>>,
  'id' | 'organization_id' | 'email' | 'org_role_id' | 'invited_by'>;

export const insertInvitation = (trx: Executor, values: NewRow<'organization_invitations'>) =>
  trx.insertInto('organization_invitations').values(values).returning('id').executeTakeFirstOrThrow();

/** Re-inviting an address retires its older pending invitations to the same organization. */
export const expirePending = (trx: Executor, organizationId: number, email: string) =>
  trx.updateTable('organization_invitations').set({ status: 'expired' })
    .where('organization_id', '=', organizationId).where('email', '=', email).where('status', '=', PENDING)
    .returning('id').execute();

/**
 * Moves a pending, unexpired invitation to `status` in one statement: of concurrent callers exactly one gets a row,
 * so a token is used once. Undefined ⇒ already used, revoked or expired.
 */
export const respond = (trx: Executor, id: number, status: 'accepted' | 'declined' | 'revoked', now: Date, acceptedBy: number | null = null) =>
  trx.updateTable('organization_invitations').set({ status, responded_at: now, accepted_by: acceptedBy })
    .where('id', '=', id).where('status', '=', PENDING).where('expires_at', '>', now)
    .returning('id').executeTakeFirst();

/** The account an address belongs to (its language picks the email's), if any. */
export const findAccountByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').select(['id', 'language']).where('email', '=', email).where('deleted_at', 'is', null).executeTakeFirst();

/** Whether the account at this address is a direct member of the organization. */
export const isMemberByEmail = async (db: Executor, organizationId: number, email: string) =>
  (await db.selectFrom('organization_members as m').innerJoin('users as u', 'u.id', 'm.user_id').select('m.id')
    .where('m.organization_id', '=', organizationId).where('u.email', '=', email).executeTakeFirst()) !== undefined;

/** The caller's address and whether it is verified: what acceptance is checked against. */
export const findInvitee = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['id', 'email', 'is_email_verified']).where('id', '=', userId).where('deleted_at', 'is', null)
    .executeTakeFirst();

/** Whether the inviter may invite (a verified address), and how the email names them. */
export const findInviter = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['id', 'email', 'is_email_verified', 'first_name', 'last_name']).where('id', '=', userId)
    .where('deleted_at', 'is', null).executeTakeFirst();

/**
 * Runs on every sign-in while organizations are on: the pending, unexpired invitations for the account's address,
 * only when that address is verified. One statement, compiled once: a primary-key lookup of the account, then the
 * partial index on pending invitations' email — when there are none, that is all a sign-in pays.
 */
const pendingForVerified = precompileRows((db: Executor, a: { userId: number; now: string }) =>
  db.selectFrom('organization_invitations as i')
    .select(['i.id', 'i.organization_id', 'i.email', 'i.org_role_id', 'i.invited_by'])
    .where('i.email', '=', (eb) => eb.selectFrom('users as u').select('u.email')
      .where('u.id', '=', a.userId).where('u.is_email_verified', '=', true).where('u.deleted_at', 'is', null))
    .where('i.status', '=', PENDING).where('i.expires_at', '>', sql<Date>`${a.now}::timestamptz`)
    .orderBy('i.id'),
{ userId: -1, now: '\u0000now' });

export const findPendingForVerifiedAccount = (db: Executor, userId: number, now: Date): Promise<InvitationRow[]> =>
  pendingForVerified(db, { userId, now: now.toISOString() });
