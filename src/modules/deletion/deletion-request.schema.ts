import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import type { Row } from '../../db/database.js';
import { Nullable } from '../../http/schema.js';

const When = Type.String({ format: 'date-time' });

export const DELETION_STATUSES = ['pending', 'confirmation_sent', 'confirmed', 'completed', 'cancelled'] as const;
/** The states a request is still open in (one per account at most). */
export const OPEN_STATUSES = ['pending', 'confirmation_sent', 'confirmed'] as const;

/** A deletion request as the API shows it (docs/privacy.md "Deletion requests for administrators"). */
export const DeletionRequest = Type.Object({
  id: Type.Integer(),
  user: Type.Integer(),
  user_email: Nullable(Type.String({ description: 'Blank once the request is completed' })),
  status: Type.Enum([...DELETION_STATUSES]),
  requested_at: When,
  confirmed_at: Nullable(When),
  grace_period_ends_at: When,
  completed_at: Nullable(When),
  ip_address: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  admin_notes: Nullable(Type.String()),
  processed_by: Nullable(Type.Integer()),
  processed_by_email: Nullable(Type.String()),
  is_grace_period_expired: Type.Boolean(),
});
export type DeletionRequestBody = Static<typeof DeletionRequest>;

export type DeletionRequestRow = Row<'account_deletion_requests'> & { processed_by_email: string | null };

/** The resource of a stored request, the grace period judged at `now`. */
export const toDeletionRequest = (r: DeletionRequestRow, now: Date): DeletionRequestBody => ({
  id: r.id,
  user: r.user_id,
  user_email: r.user_email,
  status: r.status,
  requested_at: toIso(r.requested_at)!,
  confirmed_at: toIso(r.confirmed_at),
  grace_period_ends_at: toIso(r.grace_period_ends_at)!,
  completed_at: toIso(r.completed_at),
  ip_address: r.ip_address,
  reason: r.reason,
  admin_notes: r.admin_notes,
  processed_by: r.processed_by,
  processed_by_email: r.processed_by_email,
  is_grace_period_expired: r.grace_period_ends_at.getTime() <= now.getTime(),
});
