import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { dateRange, orderOf } from '../../core/listing.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db } from '../../db/database.js';
import type { Actor } from '../rbac/actor.js';
import type { DeletionCompletionService } from './completion.service.js';
import * as repo from './deletion-admin.repo.js';
import { toAdminDeletionRequest, type DeletionRequestQueryInput, type ProcessInput } from './deletion-admin.schemas.js';

type Deps = { db: Db; clock: Clock; completion: DeletionCompletionService };

/** The phrase that confirms processing a deletion request (docs/privacy.md "Deletion requests for administrators"). */
export const PROCESS_PHRASE = 'PERMANENTLY DELETE';
/** `grace_period_expiring=true`: a confirmed request whose grace period ends within this many days. */
export const EXPIRING_WITHIN_DAYS = 7;

/** docs/privacy.md "Deletion requests for administrators": listing, detail, and completion by an administrator. */
export function createDeletionAdminService({ db, clock, completion }: Deps) {
  async function list(query: DeletionRequestQueryInput) {
    const page = pageRequest(query);
    const now = clock.now();
    const { rows, count } = await repo.listRequests(db, {
      userId: query.user_id, status: query.status, ...dateRange(query),
      expiring: query.grace_period_expiring, expiringBy: addSeconds(now, EXPIRING_WITHIN_DAYS * 86_400),
    }, orderOf<repo.DeletionRequestOrderColumn>(query.ordering, '-requested_at'), page.pageSize, page.offset);
    return { results: rows.map((r) => toAdminDeletionRequest(r, now)), count, page };
  }

  async function get(id: number) {
    const row = await repo.findRequest(db, id);
    if (!row) throw new AppError('NOT_FOUND');
    return toAdminDeletionRequest(row, clock.now());
  }

  /** POST admin/deletion-requests/<id>/process/: the phrase is checked first, then the request. */
  async function complete(actor: Actor, id: number, input: ProcessInput) {
    if (input.confirmation !== PROCESS_PHRASE) {
      throw new AppError('CONFIRMATION_REQUIRED', { message: `Send {"confirmation": "${PROCESS_PHRASE}"} to process this request` });
    }
    const done = await completion.complete(id, { processedBy: actor.id, adminNotes: input.admin_notes?.trim() || null, actor });
    return {
      message: 'Account deleted: its personal data is anonymized',
      deletion_completed: true,
      processed_at: done.processedAt.toISOString(),
      data_anonymized: true,
      audit_log_id: done.auditId,
      user_notified: done.userNotified,
      request: await get(id),
    };
  }

  const processExpired = (actor: Actor) => completion.processExpired({ processedBy: actor.id, actor });

  return { list, get, complete, processExpired };
}

export type DeletionAdminService = ReturnType<typeof createDeletionAdminService>;
