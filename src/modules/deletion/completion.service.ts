import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import type { OutboxService } from '../../notifications/outbox.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import { auditOrigin } from '../rbac/actor.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as repo from './completion.repo.js';
import { failureText } from './failure-text.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService; outbox: OutboxService; events: WebhookEvents };

/** Who completes a request: an administrator (process/, process-expired/) or, with no one, the scheduled job. */
export interface CompletionBy {
  processedBy: number | null;
  adminNotes?: string | null;
  actor?: { id: number; meta: RequestMeta };
}

export interface ExpiredDetail {
  request_id: number;
  user_id: number;
  status: 'completed' | 'failed';
  error?: string;
}

/** Requests completed per run at most; the rest wait for the next run. */
const RUN_LIMIT = 500;
/** The last message is retried for this long before it is given up (and its row removed). */
const FINAL_MESSAGE_LIFETIME_SECONDS = 7 * 86_400;

export const anonymizedEmailOf = (userId: number) => `deleted-${userId}@invalid`;

/**
 * Completion of confirmed deletion requests (docs/privacy.md "What completion anonymizes, and what it keeps"): the account is anonymized,
 * the request completed, an `account_deleted` audit row written and the last message queued, all in one transaction.
 */
export function createDeletionCompletionService({ db, clock, config, audit, outbox, events }: Deps) {
  async function completeLocked(trx: Executor, request: repo.LockedRequest, by: CompletionBy) {
    const now = clock.now();
    const account = (await repo.lockAccount(trx, request.user_id))!;
    const emails = [account.email, ...await repo.requestEmailsOf(trx, account.id)].filter((e): e is string => !!e);
    const identifiers = [...new Set([...emails.map((e) => e.toLowerCase()), ...(account.phone ? [account.phone] : [])])];
    const subject: repo.ErasureSubject = { userId: account.id, identifiers, anonymizedEmail: anonymizedEmailOf(account.id), now };
    for (const step of repo.ERASURE_STEPS) await step(trx, subject);
    if (config.PURGE_IP_ON_DELETION) await repo.purgeAuditOrigins(trx, account.id);

    await repo.markCompleted(trx, request.id, { now, processedBy: by.processedBy, adminNotes: by.adminNotes ?? null });
    const recipient = account.email ? { channel: 'email' as const, to: account.email }
      : account.phone ? { channel: 'sms' as const, to: account.phone } : null;
    const messageId = recipient ? await outbox.enqueue(trx, {
      ...recipient, purpose: 'deletion_completed', language: account.language, vars: { date: now.toISOString().slice(0, 10) },
      expiresAt: addSeconds(now, FINAL_MESSAGE_LIFETIME_SECONDS), dedupKey: `deletion_completed:${request.id}`,
    }) : null;
    // Only now: the message above was the last use of the address.
    await repo.forgetRequestContacts(trx, account.id);
    const auditId = await audit.record({
      event_type: 'account_deleted', severity: 'warning', user_id: account.id, ...(by.actor ? auditOrigin(by.actor) : {}),
      details: { deletion_request_id: request.id, by: by.actor ? 'administrator' : 'schedule', user_notified: messageId !== null },
    }, trx);
    // Stored webhook payloads about the account lose its address and IPs; the two last events carry neither.
    await events.forgetUser(trx, account.id);
    const actorId = by.actor?.id ?? null;
    await events.emit(trx, 'user.deleted', { user_id: account.id, anonymized: true, deleted_at: now.toISOString(), actor_id: actorId });
    await events.emit(trx, 'deletion.completed', { user_id: account.id, deletion_request_id: request.id, completed_at: now.toISOString(),
      by: by.actor ? 'administrator' : 'schedule', actor_id: actorId });
    return { requestId: request.id, userId: account.id, processedAt: now, auditId, userNotified: messageId !== null };
  }

  /** Completes one request; 404 NOT_FOUND, or 400 REQUEST_NOT_CONFIRMED (and nothing changes) unless it is confirmed. */
  async function complete(requestId: number, by: CompletionBy) {
    const done = await db.transaction().execute(async (trx) => {
      const request = await repo.lockRequest(trx, requestId);
      if (!request) throw new AppError('NOT_FOUND');
      if (request.status !== 'confirmed') throw new AppError('REQUEST_NOT_CONFIRMED');
      return completeLocked(trx, request, by);
    });
    outbox.kick();
    return done;
  }

  /**
   * Every confirmed request whose grace period has ended, each in its own transaction. A request another instance
   * holds, or that changed meanwhile, is skipped; a failure rolls that request back entirely, is recorded on it
   * (in a statement of its own) and is retried by the next run.
   */
  async function processExpired(by: CompletionBy = { processedBy: null }) {
    const started = clock.now();
    const due = await repo.listDueRequests(db, started, RUN_LIMIT);
    const details: ExpiredDetail[] = [];
    let skipped = 0;
    for (const { id, user_id } of due) {
      try {
        const done = await db.transaction().execute(async (trx) => {
          const request = await repo.lockDueRequest(trx, id, clock.now());
          return request ? completeLocked(trx, request, by) : null;
        });
        if (done) details.push({ request_id: id, user_id, status: 'completed' });
        else skipped++;
      } catch (err) {
        const error = failureText(err);
        await repo.recordFailure(db, id, error);
        details.push({ request_id: id, user_id, status: 'failed', error });
      }
    }
    const processed = details.filter((d) => d.status === 'completed').length;
    const failed = details.length - processed;
    if (processed > 0) outbox.kick();
    return {
      message: `${processed} expired deletion request${processed === 1 ? '' : 's'} completed, ${failed} failed, ${skipped} skipped`,
      processed, failed, processed_count: processed, failed_count: failed, skipped_count: skipped,
      processing_time: (clock.now().getTime() - started.getTime()) / 1000,
      details,
    };
  }

  return { complete, processExpired };
}

export type DeletionCompletionService = ReturnType<typeof createDeletionCompletionService>;
