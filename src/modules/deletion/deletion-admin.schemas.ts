import { Type, type Static } from 'typebox';
import { DateFilter, IdFilter, ListQuery, Ordering } from '../../core/listing.js';
import { Body, Nullable } from '../../http/schema.js';
import type { AdminDeletionRequestRow } from './deletion-admin.repo.js';
import { DELETION_STATUSES, DeletionRequest, toDeletionRequest, type DeletionRequestRow } from './deletion-request.schema.js';

export const DeletionRequestQuery = ListQuery({
  user_id: Type.Optional(IdFilter),
  status: Type.Optional(Type.Enum([...DELETION_STATUSES])),
  date_from: Type.Optional(DateFilter),
  date_to: Type.Optional(DateFilter),
  grace_period_expiring: Type.Optional(Type.Boolean({
    description: 'true: confirmed requests whose grace period ends within 7 days (or has ended); false: all others',
  })),
  ordering: Ordering(['requested_at', 'grace_period_ends_at', 'status'] as const, '-requested_at'),
});
export type DeletionRequestQueryInput = Static<typeof DeletionRequestQuery>;

export const ProcessBody = Body({
  confirmation: Type.Optional(Type.String({ maxLength: 100, description: 'Must be "PERMANENTLY DELETE"' })),
  admin_notes: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type ProcessInput = Static<typeof ProcessBody>;

export const ProcessResponse = Type.Object({
  message: Type.String(),
  deletion_completed: Type.Boolean(),
  processed_at: Type.String({ format: 'date-time' }),
  data_anonymized: Type.Boolean(),
  audit_log_id: Nullable(Type.Integer()),
  user_notified: Type.Boolean({ description: 'The last message to the former address or phone is queued' }),
  request: DeletionRequest,
});

export const ProcessExpiredResponse = Type.Object({
  message: Type.String(),
  processed: Type.Integer(),
  failed: Type.Integer(),
  processed_count: Type.Integer(),
  failed_count: Type.Integer(),
  skipped_count: Type.Integer({ description: 'Held by another instance, or no longer due, when this run reached them' }),
  processing_time: Type.Number({ description: 'Seconds' }),
  details: Type.Array(Type.Object({
    request_id: Type.Integer(),
    user_id: Type.Integer(),
    status: Type.Enum(['completed', 'failed']),
    error: Type.Optional(Type.String()),
  })),
});

/** The resource of the API's "Deletion request" from the columns an administrator's query reads. */
export const toAdminDeletionRequest = (row: AdminDeletionRequestRow, now: Date) =>
  toDeletionRequest(row as DeletionRequestRow, now);
