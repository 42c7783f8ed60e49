import { addSeconds } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Executor } from '../../db/database.js';
import * as repo from './invitation-limits.repo.js';

/** docs/organizations.md "Who may invite, and how often". */
export const PER_INVITER = { max: 20, seconds: 3_600 };
export const PER_ORGANIZATION = { max: 200, seconds: 86_400 };

/**
 * Counts an invitation against its inviter and its organization, in the invitation's transaction, or throws 429
 * RATE_LIMITED with `retry_after` (seconds until the oldest send in the full window leaves it). The caller holds the
 * organization's lock and this takes the inviter's, so parallel invitations are counted one after another and
 * exactly `max` get through; a failed invitation rolls its count back with it.
 *
 * Counted in `invitation_sends`, not in the invitations: deleting an organization deletes its invitations, and an
 * organization costs nothing to create, so counting those rows would let one inviter send without end.
 */
export async function countInvitation(trx: Executor, inviterId: number, organizationId: number, now: Date) {
  await repo.lockInviter(trx, inviterId);
  const full = await repo.fullSince(trx,
    { id: inviterId, since: addSeconds(now, -PER_INVITER.seconds), max: PER_INVITER.max },
    { id: organizationId, since: addSeconds(now, -PER_ORGANIZATION.seconds), max: PER_ORGANIZATION.max });
  const waits = [waitMs(full.inviter, PER_INVITER.seconds, now), waitMs(full.organization, PER_ORGANIZATION.seconds, now)];
  const wait = Math.max(...waits);
  if (wait > 0) throw new AppError('RATE_LIMITED', { extra: { retry_after: Math.max(1, Math.ceil(wait / 1000)) } });
  await repo.recordSend(trx, { inviter_id: inviterId, organization_id: organizationId, sent_at: now });
}

function waitMs(fullSince: Date | string | null, windowSeconds: number, now: Date) {
  return fullSince === null ? 0 : Math.max(1, addSeconds(new Date(fullSince), windowSeconds).getTime() - now.getTime());
}
