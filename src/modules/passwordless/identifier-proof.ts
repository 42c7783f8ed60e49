import { addSeconds, type Clock } from '../../core/clock.js';
import type { Executor } from '../../db/database.js';
import type { OutboxService } from '../../notifications/outbox.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LoginMeta } from '../auth/sign-in.service.js';
import type { PasswordService } from '../passwords/passwords.service.js';
import type { SessionService } from '../sessions/sessions.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as repo from './identifier-proof.repo.js';

type Deps = {
  clock: Clock; sessions: SessionService; passwords: PasswordService; audit: AuditService; outbox: OutboxService;
  events: WebhookEvents;
};

/** The notice has no code in it: it may arrive late and still be worth reading. */
const NOTICE_LIFETIME_SECONDS = 7 * 86_400;

export interface Proof {
  kind: repo.ProvenIdentifier;
  /** The address the code or link was sent to. */
  value: string;
}

/**
 * What a passwordless sign-in's proof of an address does to the account (docs/security.md "Pre-registration
 * hijacking"). Someone may have registered another person's phone or email with a password of their own; the first
 * sign-in that proves the address removes that password, ends every session and invalidates every earlier access
 * token, and tells the address just proven (the one way known to reach the person signing in). Afterwards the
 * address is verified, so later sign-ins only mark it again.
 */
export function createIdentifierProof({ clock, sessions, passwords, audit, outbox, events }: Deps) {
  /**
   * Runs in the transaction that consumes the code or link, before the new session is opened, so that session is
   * the only one left. Answers whether the password was removed; the caller kicks the outbox after commit.
   */
  async function prove(trx: Executor, userId: number, proof: Proof, meta: LoginMeta): Promise<{ passwordRevoked: boolean }> {
    const now = clock.now();
    const row = await repo.proveIdentifier(trx, userId, proof.kind, proof.value, now);
    if (!row?.revoke) return { passwordRevoked: false };
    await passwords.forgetHistory(trx, userId);
    const ended = await sessions.revokeAll(trx, userId, 'password_revoked');
    await events.emit(trx, 'password.changed', { user_id: userId, method: 'revoked' });
    await audit.record({ event_type: 'password_revoked', severity: 'warning', user_id: userId, application_id: meta.applicationId,
      ip_address: meta.ip, user_agent: meta.userAgent,
      details: { reason: 'unverified_identifier_proven', identifier: proof.kind, method: meta.method, sessions_revoked: ended.sessions } },
    trx);
    await outbox.enqueue(trx, {
      channel: proof.kind === 'email' ? 'email' : 'sms', to: proof.value, purpose: 'password_revoked', language: row.language,
      vars: { proven: proof.kind }, expiresAt: addSeconds(now, NOTICE_LIFETIME_SECONDS),
    });
    return { passwordRevoked: true };
  }

  return { prove, kick: outbox.kick };
}

export type IdentifierProof = ReturnType<typeof createIdentifierProof>;
