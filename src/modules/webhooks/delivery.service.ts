import { addSeconds, stopwatch, type Clock } from '../../core/clock.js';
import { repeatingPass } from '../../core/repeating-pass.js';
import { backlogOf } from '../../db/backlog.js';
import type { Db } from '../../db/database.js';
import type { Sealer } from '../../security/seal.js';
import { signWebhook } from '../../security/webhook-signature.js';
import * as repo from './deliveries.repo.js';
import { sendWebhook } from './http-sender.js';
import { checkTarget } from './url-guard.js';

/**
 * Retries: attempt n+1 waits 10 s × 2^(n−1), at most 4 h between two attempts, and the 16th failed attempt gives up
 * (`failed`): about 26 hours in all, so a receiver down for a day still gets every event once it is back.
 */
export const MAX_ATTEMPTS = 16;
const BACKOFF_BASE_SECONDS = 10;
const BACKOFF_MAX_SECONDS = 4 * 3600;
/** Longer than an attempt can take (10 s), so a lease runs out only when its worker is gone. */
const LEASE_SECONDS = 60;
const BATCH = 20;
/** Deliveries of one pass sent at the same time. */
const PARALLEL = 8;
/** Events written by a request are sent this long after, once its transaction has committed. */
const KICK_DELAY_MS = 100;
/** Finished deliveries (delivered or failed) are listed this long, then removed. */
export const RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 3600_000;
const PRUNE_BATCH = 5000;

export const backoffSeconds = (attempts: number): number =>
  Math.min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));

export interface DeliveryReport {
  delivered: number;
  retried: number;
  failed: number;
}

type Deps = { db: Db; clock: Clock; sealer: Sealer; allowPrivate: boolean; onError: (message: string) => void };

/** The body receivers get: Standard Webhooks' `{type, timestamp, data}`, `timestamp` being when the event happened. */
export const bodyOf = (d: { type: string; created_at: Date; payload: Record<string, unknown> }): string =>
  JSON.stringify({ type: d.type, timestamp: d.created_at.toISOString(), data: d.payload });

/**
 * Sends due webhook deliveries, signed (Standard Webhooks), each to the address the SSRF guard checked at that very
 * attempt. A failure (no connection, a timeout, a refused address, any status but 2xx) is retried with backoff
 * until MAX_ATTEMPTS; nothing about the secret or the payload is ever reported, only the ids and the reason.
 */
export function createWebhookDeliveryService({ db, clock, sealer, allowPrivate, onError }: Deps) {
  let kickTimer: NodeJS.Timeout | undefined;
  let prunedAt = 0;

  /** `final`: retrying cannot help (the URL is refused by the SSRF guard): the delivery fails at once. */
  async function attempt(d: repo.ClaimedDelivery): Promise<repo.AttemptOutcome & { ok: boolean; final?: boolean }> {
    const checked = await checkTarget(d.url, allowPrivate);
    if (!checked.ok) return { ok: false, final: checked.lasting, statusCode: null, error: `refused: ${checked.reason}` };
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    const body = bodyOf(d);
    // A secret the key cannot open fails this attempt, retried like any other, rather than the whole pass: the pass
    // would leave every claimed delivery `sending` until its lease ran out. Start-up refuses such a key anyway.
    let secret: string;
    try { secret = sealer.open(d.secret_sealed); } catch {
      return { ok: false, statusCode: null, error: 'the webhook secret cannot be decrypted with this encryption key' };
    }
    const signature = signWebhook(secret, d.event_id, timestamp, body);
    try {
      const { status } = await sendWebhook(checked.target, {
        'webhook-id': d.event_id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature,
      }, body);
      if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null };
      const error = status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
      return { ok: false, statusCode: status, error };
    } catch (err) {
      return { ok: false, statusCode: null, error: String((err as Error)?.message ?? err).slice(0, 300) };
    }
  }

  async function deliverOne(d: repo.ClaimedDelivery, report: DeliveryReport): Promise<void> {
    const at = clock.now();
    const elapsed = stopwatch();
    const outcome = await attempt(d);
    const record: repo.AttemptRecord = { at, durationMs: elapsed(), statusCode: outcome.statusCode, error: outcome.error };
    if (outcome.ok) {
      await repo.markDelivered(db, d, clock.now(), record);
      report.delivered++;
      return;
    }
    onError(`webhook ${d.webhook_id} delivery ${d.id} (${d.type}) failed on attempt ${d.attempts}: ${outcome.error}`);
    if (outcome.final || d.attempts >= MAX_ATTEMPTS) {
      await repo.markFailed(db, d, record);
      report.failed++;
    } else {
      await repo.markRetry(db, d, addSeconds(clock.now(), backoffSeconds(d.attempts)), record);
      report.retried++;
    }
  }

  /** One pass over the due deliveries. */
  async function deliverDue(): Promise<DeliveryReport> {
    const report: DeliveryReport = { delivered: 0, retried: 0, failed: 0 };
    for (;;) {
      const now = clock.now();
      const batch = await repo.claimDue(db, now, addSeconds(now, LEASE_SECONDS), BATCH);
      for (let i = 0; i < batch.length; i += PARALLEL) {
        await Promise.all(batch.slice(i, i + PARALLEL).map((d) => deliverOne(d, report)));
      }
      if (batch.length < BATCH) return report;
    }
  }

  /** Runs a pass now, or right after the running one (which may have claimed before the latest events committed). */
  const flush = repeatingPass(deliverDue, (): DeliveryReport => ({ delivered: 0, retried: 0, failed: 0 }));

  /** A pass shortly after the events just written have committed; the `webhooks` job catches whatever it misses. */
  function kickSoon(): void {
    if (kickTimer) return;
    kickTimer = setTimeout(() => {
      kickTimer = undefined;
      flush().catch((err: Error) => onError(`webhook delivery pass failed: ${err.message}`));
    }, KICK_DELAY_MS);
    kickTimer.unref();
  }

  /**
   * Removes the deliveries finished more than RETENTION_DAYS ago, at most once an hour per instance (the `webhooks` job
   * calls it on every run); answers how many went.
   */
  async function prune(): Promise<number> {
    const now = clock.now();
    if (now.getTime() - prunedAt < PRUNE_EVERY_MS) return 0;
    prunedAt = now.getTime();
    return repo.pruneFinished(db, addSeconds(now, -RETENTION_DAYS * 86_400), PRUNE_BATCH);
  }

  /**
   * Shutdown: the pending kick is dropped and the running pass awaited. The deliveries it would have sent are in the
   * table, and the `webhooks` job of whichever instance runs next sends them.
   */
  async function stop(): Promise<void> {
    clearTimeout(kickTimer);
    kickTimer = undefined;
    await flush.stop();
  }

  return { deliverDue, flush, kickSoon, stop, prune, backlog: () => backlogOf(db, 'webhook_deliveries') };
}

export type WebhookDeliveryService = ReturnType<typeof createWebhookDeliveryService>;
