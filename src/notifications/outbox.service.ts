import type { Config } from '../config/settings.js';
import { addSeconds, type Clock } from '../core/clock.js';
import { repeatingPass } from '../core/repeating-pass.js';
import { backlogOf } from '../db/backlog.js';
import type { Db, Executor } from '../db/database.js';
import type { Sealer } from '../security/seal.js';
import * as repo from './outbox.repo.js';
import type { Notifier } from './senders.js';
import { languageOf, renderEmail, renderSms, type Purpose, type TemplateVars } from './templates.js';

type Deps = { db: Db; clock: Clock; config: Config; notifier: Notifier; sealer: Sealer; onError?: (msg: string) => void };

export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  purpose: Purpose;
  language?: string | null;
  vars: TemplateVars;
  /** After this the message is dropped rather than sent stale (a code that no longer works). */
  expiresAt: Date;
  /** Messages with the same key are enqueued once. */
  dedupKey?: string;
}

export interface DeliveryReport {
  sent: number;
  retried: number;
  failed: number;
  expired: number;
}

const LEASE_SECONDS = 60;
const BATCH = 50;
const BACKOFF_BASE_SECONDS = 5;
const BACKOFF_MAX_SECONDS = 3600;
/** Purposes whose row is removed once finished (sent or given up): the last message to a deleted account's address. */
const REMOVED_ONCE_FINISHED: ReadonlySet<string> = new Set<Purpose>(['deletion_completed']);

/**
 * Emails and SMS go through an outbox: `enqueue` writes the message in the caller's transaction (with the code
 * or link it carries, sealed with AES-256-GCM), and delivery happens after commit, with retries and
 * exponential backoff. A provider outage therefore loses nothing and never changes an API answer.
 */
export function createOutboxService({ db, clock, config, notifier, sealer, onError }: Deps) {
  const delivered = new Map<Purpose, (messageId: number) => Promise<unknown>>();

  /**
   * Runs `handler` after each message of `purpose` is delivered (a deletion request becomes `confirmation_sent`).
   * A failing handler is reported and never undoes or repeats the delivery.
   */
  function onDelivered(purpose: Purpose, handler: (messageId: number) => Promise<unknown>): void {
    delivered.set(purpose, handler);
  }

  async function enqueue(trx: Executor, msg: OutgoingMessage): Promise<number | null> {
    const row = await repo.insertMessage(trx, {
      channel: msg.channel, recipient: msg.to, purpose: msg.purpose, language: languageOf(msg.language),
      payload: sealer.seal(JSON.stringify(msg.vars)), dedup_key: msg.dedupKey ?? null,
      next_attempt_at: clock.now(), expires_at: msg.expiresAt,
    });
    return row?.id ?? null;
  }

  async function deliver(m: repo.ClaimedMessage): Promise<void> {
    const vars = JSON.parse(sealer.open(m.payload)) as TemplateVars;
    const purpose = m.purpose as Purpose;
    const language = languageOf(m.language);
    if (m.channel === 'email') {
      await notifier.sendEmail({ to: m.recipient, purpose, messageId: `<outbox-${m.id}@gatehouse>`, ...renderEmail(purpose, language, vars) });
    } else {
      await notifier.sendSms({ to: m.recipient, purpose, body: renderSms(purpose, language, vars) });
    }
  }

  const finish = (m: repo.ClaimedMessage, status: 'sent' | 'failed' | 'expired', error: string | null) =>
    (REMOVED_ONCE_FINISHED.has(m.purpose) ? repo.deleteMessage(db, m.id) : repo.finishMessage(db, m.id, status, clock.now(), error));

  /** One pass over the due messages. */
  async function deliverDue(): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, retried: 0, failed: 0, expired: 0 };
    for (;;) {
      const now = clock.now();
      const batch = await repo.claimDue(db, now, addSeconds(now, LEASE_SECONDS), BATCH);
      for (const m of batch) {
        if (m.expires_at <= clock.now()) {
          await finish(m, 'expired', null);
          report.expired++;
          continue;
        }
        try {
          await deliver(m);
          await finish(m, 'sent', null);
          report.sent++;
          await delivered.get(m.purpose as Purpose)?.(m.id)
            .catch((err: Error) => onError?.(`after delivery of message ${m.id}: ${err.message}`));
        } catch (err) {
          // Only the error text is kept: it names the provider's refusal, never the message content.
          const error = String((err as Error)?.message ?? err).slice(0, 500);
          onError?.(`delivery of ${m.channel} message ${m.id} failed (attempt ${m.attempts}): ${error}`);
          if (m.attempts >= config.OUTBOX_MAX_ATTEMPTS) {
            await finish(m, 'failed', error);
            report.failed++;
          } else {
            const delay = Math.min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2 ** (m.attempts - 1));
            await repo.retryLater(db, m.id, addSeconds(clock.now(), delay), error);
            report.retried++;
          }
        }
      }
      if (batch.length < BATCH) return report;
    }
  }

  /** Runs a pass now (or right after the running one), so messages leave as soon as their transaction commits. */
  const flush = repeatingPass(deliverDue, (): DeliveryReport => ({ sent: 0, retried: 0, failed: 0, expired: 0 }));

  /** Fire-and-forget `flush` for request paths: failures are retried later, never surfaced to the caller. */
  function kick(): void {
    flush().catch((err: Error) => onError?.(`outbox pass failed: ${err.message}`));
  }

  /** Shutdown: waits for the running pass (messages still due stay in the outbox for the job). */
  const stop = () => flush.stop();

  return { enqueue, onDelivered, deliverDue, flush, kick, stop, backlog: () => backlogOf(db, 'outbox_messages') };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
