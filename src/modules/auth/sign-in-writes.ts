import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import type { TokenScope } from '../../security/jwt.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Grants } from '../rbac/rbac.service.js';
import type { IssuedTokens, RequestMeta, SessionService } from '../sessions/sessions.service.js';
import type * as users from '../users/lookup.js';
import { newEventId, type WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as attempts from './lockout.repo.js';
import { loginAuditDetails } from './login-audit.js';
import * as loginRepo from './login.repo.js';
import type { LockoutService } from './lockout.service.js';

/** The request behind a sign-in and the method it used (`password`, `passkey`, `magic_link`, `social_<provider>`…). */
export interface LoginMeta extends RequestMeta {
  method: string;
}

/** A completed sign-in's writes: the account row as they left it, its role and permission codes, and the tokens. */
export type SignedIn = { row: users.PublicUser; grants: Grants; issued: IssuedTokens };

type Deps = { db: Db; clock: Clock; audit: AuditService; lockout: LockoutService; sessions: SessionService; events: WebhookEvents };

/**
 * The writes of a successful sign-in, whatever its method, made one of two ways that must leave the same rows (the
 * sign-in parity test holds them to it): the account statement, the session with its first refresh token (within the
 * session and device limits), the `session.created` webhook event, the attempt and the `login` audit event.
 */
export function createSignInWrites({ db, clock, audit, lockout, sessions, events }: Deps) {
  /**
   * One transaction: the last-login update (which answers the account row the response shows and holds its lock for
   * the session limits), the session with its refresh token, and the attempt with its audit event.
   */
  const inTransaction = (user: users.LoginUser, identifier: string, deviceInfo: string | undefined, meta: LoginMeta,
    scope: TokenScope): Promise<SignedIn> => db.transaction().execute(async (trx) => {
    const now = clock.now();
    // The lock was checked before the credential; a concurrent failure may have locked the account since.
    const recorded = await loginRepo.recordLogin(trx, user.id, now, lockout.enabled());
    if (!recorded) throw await lockout.lockedErrorOf(user.id, trx);
    // The account statement answered the grants: the access token takes them from it.
    const issued = await sessions.open(trx, user, scope, deviceInfo, meta, { userLocked: true, grants: recorded.grants });
    await attempts.insertLoginRecords(trx, {
      identifier: identifier.slice(0, 254), method: meta.method, userId: user.id, ip: meta.ip, applicationId: meta.applicationId, now,
      event: audit.enabled('info') ? {
        userAgent: meta.userAgent,
        details: JSON.stringify(loginAuditDetails({ method: meta.method, session_id: Number(issued.session_id) })),
      } : null,
    });
    return { row: recorded.user, grants: recorded.grants, issued };
  });

  /**
   * The usual case in one statement (`login.repo.ts` `signInStatement`): account statement, session, attempt and audit
   * event. Answers undefined when the statement could not be sure of the session limits (or a limit is reached), and
   * `inTransaction` decides.
   */
  async function atOnce(user: users.LoginUser, identifier: string, deviceInfo: string | undefined, meta: LoginMeta,
    scope: TokenScope): Promise<SignedIn | undefined> {
    const session = sessions.prepare(user, deviceInfo, meta);
    const withWebhook = await events.wants('session.created');
    const outcome = await loginRepo.signInStatement(db, {
      ...session, id: user.id, tokenHash: session.refresh.hash, identifier: identifier.slice(0, 254), method: meta.method,
      scope, eventId: withWebhook ? newEventId() : '',
    }, { unlessLocked: lockout.enabled(), withEvent: audit.enabled('info'), withWebhook });
    if (withWebhook && outcome.kind === 'signed_in') events.enqueued();
    if (outcome.kind === 'locked') throw await lockout.lockedErrorOf(user.id);
    if (outcome.kind === 'fallback') return undefined;
    return { row: outcome.user, grants: outcome.grants, issued: await sessions.issue(session, outcome.sessionId, scope, outcome.grants) };
  }

  return { atOnce, inTransaction };
}

export type SignInWrites = ReturnType<typeof createSignInWrites>;
