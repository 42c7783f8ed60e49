import { addSeconds, type Clock } from '../../core/clock.js';
import type { Executor } from '../../db/database.js';
import type { OutboxService } from '../../notifications/outbox.service.js';
import * as repo from './users.repo.js';

type Deps = { clock: Clock; outbox: OutboxService };

/** A notice older than this says nothing the account can still act on in time: it is dropped rather than sent. */
const NOTICE_LIFETIME = 86_400;
/** The permissions an email names one by one; more are counted. */
const LISTED_PERMISSIONS = 30;

const minuteOf = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The emails that tell an account about a change to how it signs in or who acts for it (docs/security.md "Recent
 * authentication"). Each is written to the outbox in the caller's transaction, so it goes out exactly when the change
 * commits; by SMS to the phone when the account has no email. No notice carries a secret.
 */
export function createSecurityNoticeService({ clock, outbox }: Deps) {
  async function send(trx: Executor, userId: number, purpose: 'passkey_added' | 'two_factor_disabled' | 'two_factor_reset' | 'agent_token_created',
    vars: { agent?: string; permissions?: string; expires?: string } = {}): Promise<void> {
    const account = await repo.findContact(trx, userId);
    const recipient = account?.email ? { channel: 'email' as const, to: account.email }
      : account?.phone ? { channel: 'sms' as const, to: account.phone } : null;
    if (!recipient) return;
    const now = clock.now();
    await outbox.enqueue(trx, { ...recipient, purpose, language: account!.language, vars: { date: minuteOf(now), ...vars },
      expiresAt: addSeconds(now, NOTICE_LIFETIME) });
  }

  const passkeyAdded = (trx: Executor, userId: number) => send(trx, userId, 'passkey_added');

  const twoFactorDisabled = (trx: Executor, userId: number) => send(trx, userId, 'two_factor_disabled');

  /** An administrator removed the account's second factor (admin-users.service `resetTwoFactor`). */
  const twoFactorReset = (trx: Executor, userId: number) => send(trx, userId, 'two_factor_reset');

  /**
   * Names the agent, what it was granted and until when; never the token. The agent's name is text its creator typed:
   * the templates put it on one plain line of at most 80 characters, like every user-written value.
   */
  function agentTokenCreated(trx: Executor, userId: number, token: { agentId: string; permissions: readonly string[]; expiresAt: Date }) {
    const listed = token.permissions.slice(0, LISTED_PERMISSIONS).join(', ');
    const more = token.permissions.length - LISTED_PERMISSIONS;
    return send(trx, userId, 'agent_token_created', {
      agent: token.agentId,
      permissions: more > 0 ? `${listed} (+${more})` : listed,
      expires: minuteOf(token.expiresAt),
    });
  }

  /** After the change's transaction has committed: deliver at once rather than at the next outbox pass. */
  const deliver = () => outbox.kick();

  return { passkeyAdded, twoFactorDisabled, twoFactorReset, agentTokenCreated, deliver };
}

export type SecurityNoticeService = ReturnType<typeof createSecurityNoticeService>;
