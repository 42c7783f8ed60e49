import type { Executor, NewRow } from '../../db/database.js';

/**
 * Holds the inviter's row until the transaction ends, so that one inviter's invitations are counted one at a time
 * whatever the organization. `no key update`: references to the row (new invitations, sessions) do not wait.
 */
export const lockInviter = (trx: Executor, userId: number) =>
  trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirst();

export interface LimitScope { id: number; since: Date; max: number }

/**
 * For the inviter and for the organization, the time of the `max`-th newest invitation sent after `since`: the one
 * that must leave the window before another fits. Null ⇒ fewer than `max` in the window.
 */
export const fullSince = (trx: Executor, inviter: LimitScope, organization: LimitScope) =>
  trx.selectNoFrom((eb) => [
    eb.selectFrom('invitation_sends').select('sent_at').where('inviter_id', '=', inviter.id).where('sent_at', '>', inviter.since)
      .orderBy('sent_at', 'desc').limit(1).offset(inviter.max - 1).as('inviter'),
    eb.selectFrom('invitation_sends').select('sent_at').where('organization_id', '=', organization.id)
      .where('sent_at', '>', organization.since).orderBy('sent_at', 'desc').limit(1).offset(organization.max - 1).as('organization'),
  ]).executeTakeFirstOrThrow();

export const recordSend = (trx: Executor, values: NewRow<'invitation_sends'>) =>
  trx.insertInto('invitation_sends').values(values).execute();

