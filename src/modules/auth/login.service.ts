import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { TokenScope } from '../../security/jwt.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Grants, RbacService } from '../rbac/rbac.service.js';
import { tokenScopeFor, type ScopeSubject } from '../sessions/scope.js';
import type { IssuedTokens, RequestMeta, SessionService } from '../sessions/sessions.service.js';
import { canSignIn, failureReasonOf, isDeletionPending } from '../users/account-state.js';
import type { PasswordVerifier } from '../users/password-verifier.js';
import * as users from '../users/users.repo.js';
import { toUserResponse } from '../users/users.schemas.js';
import { newEventId, type WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as attempts from './lockout.repo.js';
import * as loginRepo from './login.repo.js';
import type { LockoutService, LockTarget } from './lockout.service.js';

/**
 * The second-factor step of every login method. It answers true when `code` is a valid second factor for
 * the user; the two-factor module provides it. Without it no code is ever valid.
 */
export type SecondFactorVerifier = (user: users.LoginUser, code: string) => Promise<boolean>;

/**
 * Runs after every completed sign-in, whatever the method, before the tokens are answered (organization invitations
 * waiting for the account's verified email are accepted). It must not reject: a sign-in never fails because of it.
 */
export type SignInHook = (user: { id: number }) => Promise<unknown>;

type Deps = {
  db: Db; clock: Clock; config: Config; audit: AuditService; lockout: LockoutService; sessions: SessionService;
  rbac: RbacService; verifyPassword: PasswordVerifier['verify']; verifySecondFactor?: SecondFactorVerifier; onSignIn?: SignInHook;
  events: WebhookEvents;
};

/** DECISIONS.md "Login protection": the restricted token of an administrator without 2FA lives 15 minutes. */
export const ADMIN_SETUP_TOKEN_LIFETIME = 900;


export interface LoginMeta extends RequestMeta {
  method: string;
}

export interface PasswordLoginInput {
  by: { email: string } | { phone: string };
  password: string;
  totp_code?: string | undefined;
  device_info?: string | undefined;
}

export function createLoginService(deps: Deps) {
  const { db, clock, config, audit, lockout, sessions, rbac, verifyPassword, events } = deps;
  const verifySecondFactor = deps.verifySecondFactor ?? (async () => false);

  const attemptRow = (identifier: string, meta: LoginMeta, userId: number | null, success: boolean, failureReason: string | null,
    now: Date) => ({ identifier: identifier.slice(0, 254), method: meta.method, user_id: userId, ip_address: meta.ip,
    application_id: meta.applicationId, success, failure_reason: failureReason, created_at: now });

  const failed = async (identifier: string, meta: LoginMeta, userId: number | null, reason: string) => {
    await events.atomically('login.failed', async (trx) => {
      await attempts.insertLoginAttempt(trx, attemptRow(identifier, meta, userId, false, reason, clock.now()));
      await events.emit(trx, 'login.failed', { user_id: userId, method: meta.method, reason, application_id: meta.applicationId,
        ip_address: meta.ip }, userId);
    });
    await audit.record({ event_type: 'login_failed', user_id: userId, application_id: meta.applicationId, ip_address: meta.ip,
      user_agent: meta.userAgent, details: { method: meta.method, reason } });
  };


  /**
   * The account step of the logins that prove the person another way (a link, a provider): not locked (423), and able
   * to sign in — else `refusal`. Each refusal is recorded as a failed attempt.
   */
  async function admitAccount(user: users.LoginUser, identifier: string, meta: LoginMeta, refusal: () => AppError): Promise<void> {
    try {
      await lockout.assertNotLocked({ userId: user.id, lockedUntil: user.locked_until });
    } catch (err) {
      await failed(identifier, meta, user.id, 'account_locked');
      throw err;
    }
    if (canSignIn(user)) return;
    await failed(identifier, meta, user.id, failureReasonOf(user));
    throw refusal();
  }

  /** The second-factor step: passes when 2FA is off; otherwise needs a valid `totp_code`; wrong codes count toward lockout. */
  async function secondFactor(user: users.LoginUser, code: string | undefined, target: LockTarget, identifier: string, meta: LoginMeta) {
    if (!user.is_2fa_enabled) return;
    if (!code) {
      await failed(identifier, meta, user.id, '2fa_required');
      throw new AppError('2FA_REQUIRED', { extra: { requires_2fa: true } });
    }
    if (!(await verifySecondFactor(user, code))) {
      await failed(identifier, meta, user.id, 'invalid_2fa_code');
      await lockout.recordFailure(target, meta);
      throw new AppError('INVALID_CODE', { status: 401, extra: { requires_2fa: true } });
    }
  }

  const scopeFor = (u: ScopeSubject): TokenScope => tokenScopeFor(u, config);

  /**
   * The admin gate: 403 ADMIN_2FA_SETUP_REQUIRED carrying a 15-minute `2fa_setup_only` access token. The token
   * needs a session for the bearer check; the session's refresh token is never handed out, so the only way on
   * is to set 2FA up and sign in again with a code.
   */
  async function refuseUntilTwoFactor(user: users.LoginUser, identifier: string, deviceInfo: string | undefined,
    meta: LoginMeta): Promise<never> {
    let access: IssuedTokens;
    try {
      access = await db.transaction().execute((trx) =>
        sessions.open(trx, user, '2fa_setup_only', deviceInfo, meta, { accessLifetime: ADMIN_SETUP_TOKEN_LIFETIME }));
    } catch (err) {
      if (err instanceof AppError) await failed(identifier, meta, user.id, err.code.toLowerCase());
      throw err;
    }
    await failed(identifier, meta, user.id, 'admin_2fa_setup_required');
    throw new AppError('ADMIN_2FA_SETUP_REQUIRED', { extra: {
      access_token: access.access_token, token_type: 'Bearer', expires_in: ADMIN_SETUP_TOKEN_LIFETIME, token_scope: '2fa_setup_only',
    } });
  }

  /**
   * Opens the session, records the login and builds SPEC.md's token response (or applies the admin gate). With
   * `secondFactor` (a passkey that verified the user) the sign-in proved two factors: the admin gate is passed, and the
   * session is marked so that its refreshes pass it too.
   */
  async function completeLogin(user: users.LoginUser, identifier: string, deviceInfo: string | undefined, meta: LoginMeta,
    secondFactor?: 'passkey') {
    const scope = scopeFor({ ...user, second_factor: secondFactor });
    if (scope === '2fa_setup_only') return refuseUntilTwoFactor(user, identifier, deviceInfo, meta);
    if (isDeletionPending(user)) return signInPendingDeletion(user, identifier, deviceInfo, meta);
    let done: SignedIn;
    try {
      done = await signInAtOnce(user, identifier, deviceInfo, meta, scope) ?? await signInTransaction(user, identifier, deviceInfo, meta, scope);
    } catch (err) {
      if (err instanceof AppError) await failed(identifier, meta, user.id, err.code.toLowerCase());
      throw err;
    }
    if (secondFactor) await loginRepo.markSecondFactor(db, Number(done.issued.session_id), secondFactor);
    if (deps.onSignIn) await deps.onSignIn(user);
    return tokenResponseOf(done.row, done.grants, done.issued);
  }

  type SignedIn = { row: users.PublicUser; grants: Grants; issued: IssuedTokens };

  /**
   * One transaction: the last-login update (which answers the account row the response shows and holds its lock for
   * the session limits), the session with its refresh token, and the attempt with its audit event.
   */
  const signInTransaction = (user: users.LoginUser, identifier: string, deviceInfo: string | undefined, meta: LoginMeta,
    scope: TokenScope): Promise<SignedIn> => db.transaction().execute(async (trx) => {
    const now = clock.now();
    // The lock was checked before the password; a concurrent failure may have locked the account since.
    const recorded = await loginRepo.recordLogin(trx, user.id, now, lockout.enabled());
    if (!recorded) throw await lockout.lockedErrorOf(user.id, trx);
    // The account statement answered the grants: the access token takes them from it.
    const issued = await sessions.open(trx, user, scope, deviceInfo, meta, { userLocked: true, grants: recorded.grants });
    await attempts.insertLoginRecords(trx, {
      identifier: identifier.slice(0, 254), method: meta.method, userId: user.id, ip: meta.ip, applicationId: meta.applicationId, now,
      event: audit.enabled('info') ? {
        userAgent: meta.userAgent, details: JSON.stringify({ method: meta.method, session_id: Number(issued.session_id) }),
      } : null,
    });
    return { row: recorded.user, grants: recorded.grants, issued };
  });

  /**
   * DECISIONS.md "Account deletion and export": an account whose deletion is confirmed, having passed every check of
   * a normal login, gets a `deletion_pending` access token and no refresh token — enough to cancel the deletion,
   * read its status, export its data or sign out. Its session's refresh token is never handed out.
   */
  async function signInPendingDeletion(user: users.LoginUser, identifier: string, deviceInfo: string | undefined, meta: LoginMeta) {
    let done: SignedIn;
    try {
      done = await signInTransaction(user, identifier, deviceInfo, meta, 'deletion_pending');
    } catch (err) {
      if (err instanceof AppError) await failed(identifier, meta, user.id, err.code.toLowerCase());
      throw err;
    }
    const { refresh_token: _withheld, ...body } = tokenResponseOf(done.row, done.grants, done.issued);
    return { ...body, refresh_expires_in: 0, deletion_pending: true, scheduled_deletion_date: user.deletion_scheduled_at!.toISOString() };
  }

  /**
   * The usual case in one statement (`signInStatement`): account statement, session, attempt and audit event. Answers
   * undefined when the statement could not be sure of the session limits, and the transaction below decides.
   */
  async function signInAtOnce(user: users.LoginUser, identifier: string, deviceInfo: string | undefined, meta: LoginMeta,
    scope: TokenScope) {
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

  async function loadUser(userId: number) {
    const row = (await users.findPublicUser(db, userId))!;
    return { row, body: toUserResponse(row, await rbac.grantsOf(row)) };
  }

  /** SPEC.md "User" with its role and permission codes. */
  const userResponse = async (userId: number) => (await loadUser(userId)).body;

  /** SPEC.md "Token response" around freshly issued tokens, for the account `row`. */
  function tokenResponseOf(row: users.PublicUser, grants: Grants, issued: IssuedTokens) {
    const { token_scope: scope, ...tokens } = issued;
    return {
      ...tokens,
      must_change_password: row.must_change_password,
      ...(scope !== 'full' ? { token_scope: scope } : {}),
      requires_2fa: false,
      user: toUserResponse(row, grants),
    };
  }

  /** SPEC.md "Token response" around freshly issued tokens. */
  async function tokenResponse(userId: number, issued: IssuedTokens) {
    const row = (await users.findPublicUser(db, userId))!;
    return tokenResponseOf(row, await rbac.grantsOf(row), issued);
  }

  /**
   * POST login/email/ and login/phone/, as named steps: find user → locked? → verify password → record attempt →
   * account state → second factor → token scope → session and device limits → issue tokens.
   */
  async function loginWithPassword(input: PasswordLoginInput, meta: LoginMeta) {
    const identifier = 'email' in input.by ? input.by.email : input.by.phone;
    const user = await users.findUserForLogin(db, input.by);
    const target: LockTarget = user ? { userId: user.id, lockedUntil: user.locked_until } : { identifier };
    try {
      await lockout.assertNotLocked(target);
    } catch (err) {
      await failed(identifier, meta, user?.id ?? null, 'account_locked');
      throw err;
    }
    // Same work whether or not the account exists (the verifier pads with the dummy hash).
    const passwordOk = await verifyPassword(user, input.password);
    if (!user || !passwordOk) {
      await failed(identifier, meta, user?.id ?? null, 'invalid_credentials');
      await lockout.recordFailure(target, meta);
      throw new AppError('LOGIN_FAILED');
    }
    // Inactive, banned and deleted accounts get the same answer as a wrong password.
    if (!canSignIn(user)) {
      await failed(identifier, meta, user.id, user.is_banned ? 'banned' : 'inactive');
      throw new AppError('LOGIN_FAILED');
    }
    await secondFactor(user, input.totp_code, target, identifier, meta);
    return completeLogin(user, identifier, input.device_info, meta);
  }

  return { loginWithPassword, completeLogin, tokenResponse, userResponse, scopeFor, admitAccount, secondFactor, failed };
}

export type LoginService = ReturnType<typeof createLoginService>;
