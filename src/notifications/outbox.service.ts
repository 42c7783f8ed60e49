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
  /**
   * What the purpose's preparer needs besides the variables (see `prepareWith`), sealed with them and never rendered.
   * A message with a context is prepared before each attempt to send it; one without is sent as it is.
   */
  context?: Record<string, unknown>;
}

/** A prepared message: the variables to render (the code or link it carries) and the recipient's language. */
export interface PreparedMessage {
  vars: TemplateVars;
  language: string | null;
}

/**
 * Looks up, when a message is about to leave, what its request did not look up before answering (the account behind
 * the address), and writes what the message carries (the code, the link). Answers null to drop the message: it is then
 * deleted, sent to no one. Runs again on each attempt, so it must find what an earlier attempt wrote.
 */
export type Preparer = (message: { channel: 'email' | 'sms'; recipient: string; vars: TemplateVars; context: Record<string, unknown>;
  expiresAt: Date }) => Promise<PreparedMessage | null>;

export interface DeliveryReport {
  sent: number;
  retried: number;
  failed: number;
  expired: number;
  /** Dropped by their preparer (no account to send them to). */
  dropped: number;
}

/** The sealed payload: the variables alone, or with a context (`OutgoingMessage.context`). */
type Sealed = TemplateVars | { vars: TemplateVars; context: Record<string, unknown> };
const hasContext = (p: Sealed): p is { vars: TemplateVars; context: Record<string, unknown> } => 'context' in p && 'vars' in p;
const emptyReport = (): DeliveryReport => ({ sent: 0, retried: 0, failed: 0, expired: 0, dropped: 0 });

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
  const preparers = new Map<Purpose, Preparer>();

  /**
   * Runs `handler` after each message of `purpose` is delivered (a deletion request becomes `confirmation_sent`).
   * A failing handler is reported and never undoes or repeats the delivery.
   */
  function onDelivered(purpose: Purpose, handler: (messageId: number) => Promise<unknown>): void {
    delivered.set(purpose, handler);
  }

  /**
   * Has every message of `purpose` that carries a context prepared by `preparer` before it is sent: a request that must
   * answer the same whether or not an account exists queues its message for the address, and the lookup and the write
   * happen here, after the answer (docs/security.md "Same answer, same work").
   */
  function prepareWith(purpose: Purpose, preparer: Preparer): void {
    preparers.set(purpose, preparer);
  }

  async function enqueue(trx: Executor, msg: OutgoingMessage): Promise<number | null> {
    const sealed: Sealed = msg.context ? { vars: msg.vars, context: msg.context } : msg.vars;
    const row = await repo.insertMessage(trx, {
      channel: msg.channel, recipient: msg.to, purpose: msg.purpose, language: languageOf(msg.language),
      payload: sealer.seal(JSON.stringify(sealed)), dedup_key: msg.dedupKey ?? null,
      next_attempt_at: clock.now(), expires_at: msg.expiresAt,
    });
    return row?.id ?? null;
  }

  /** Sends the message, or answers 'dropped' when its preparer found no one to send it to. */
  async function deliver(m: repo.ClaimedMessage): Promise<'sent' | 'dropped'> {
    const sealed = JSON.parse(sealer.open(m.payload)) as Sealed;
    const purpose = m.purpose as Purpose;
    const channel = m.channel as 'email' | 'sms';
    let vars = hasContext(sealed) ? sealed.vars : sealed;
    let language = languageOf(m.language);
    if (hasContext(sealed)) {
      const prepare = preparers.get(purpose);
      if (!prepare) throw new Error(`no preparer for ${purpose} messages`);
      const prepared = await prepare({ channel, recipient: m.recipient, vars, context: sealed.context, expiresAt: m.expires_at });
      if (!prepared) return 'dropped';
      vars = prepared.vars;
      language = languageOf(prepared.language);
    }
    if (channel === 'email') {
      await notifier.sendEmail({ to: m.recipient, purpose, messageId: `<outbox-${m.id}@gatehouse>`, ...renderEmail(purpose, language, vars) });
    } else {
      await notifier.sendSms({ to: m.recipient, purpose, body: renderSms(purpose, language, vars) });
    }
    return 'sent';
  }

  const finish = (m: repo.ClaimedMessage, status: 'sent' | 'failed' | 'expired', error: string | null) =>
    (REMOVED_ONCE_FINISHED.has(m.purpose) ? repo.deleteMessage(db, m.id) : repo.finishMessage(db, m.id, status, clock.now(), error));

  /** One pass over the due messages. */
  async function deliverDue(): Promise<DeliveryReport> {
    const report = emptyReport();
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
          if (await deliver(m) === 'dropped') {
            // Nothing is kept of a message sent to no one: not even the address someone typed.
            await repo.deleteMessage(db, m.id);
            report.dropped++;
            continue;
          }
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
  const flush = repeatingPass(deliverDue, emptyReport);

  /** Fire-and-forget `flush` for request paths: failures are retried later, never surfaced to the caller. */
  function kick(): void {
    flush().catch((err: Error) => onError?.(`outbox pass failed: ${err.message}`));
  }

  /** Shutdown: waits for the running pass (messages still due stay in the outbox for the job). */
  const stop = () => flush.stop();

  return { enqueue, onDelivered, prepareWith, deliverDue, flush, kick, stop, backlog: () => backlogOf(db, 'outbox_messages') };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
