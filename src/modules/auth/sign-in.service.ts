import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { TokenScope } from '../../security/jwt.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Grants, RbacService } from '../rbac/rbac.service.js';
import { tokenScopeFor, type ScopeSubject } from '../sessions/scope.js';
import type { IssuedTokens, SessionService } from '../sessions/sessions.service.js';
import { canSignIn, failureReasonOf, isDeletionPending } from '../users/account-state.js';
import * as users from '../users/lookup.js';
import { toUserResponse } from '../users/users.schemas.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as attempts from './lockout.repo.js';
import * as loginRepo from './login.repo.js';
import type { LockoutService, LockTarget } from './lockout.service.js';
import { createSignInWrites, type LoginMeta, type SignedIn } from './sign-in-writes.js';

export type { LoginMeta } from './sign-in-writes.js';

/**
 * The second-factor step of every sign-in method. It answers true when `code` is a valid second factor for
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
  rbac: RbacService; verifySecondFactor?: SecondFactorVerifier; onSignIn?: SignInHook; events: WebhookEvents;
};

/** How a sign-in on the authorization server's pages ended once the credentials were right. */
export type ProviderSignIn = 'signed_in' | 'admin_2fa_setup_required' | 'password_change_required' | 'deletion_pending';

/** How a sign-in on those pages ends: signed in, refused with a reason, or on to the code page. */
export type ProviderOutcome = ProviderSignIn | 'second_factor_required';

/** The restricted token of an administrator without 2FA lives 15 minutes (docs/authentication.md "Admin gate"). */
export const ADMIN_SETUP_TOKEN_LIFETIME = 900;

/**
 * The steps every sign-in method shares — the password login, passkeys, OTP codes, magic links and social login — once
 * each method has found the account and checked its own credential: recording a failure, admitting the account, the
 * second factor, and completing the sign-in (admin gate, pending deletion, session and token answer).
 */
export function createSignInService(deps: Deps) {
  const { db, clock, config, audit, lockout, sessions, rbac, events } = deps;
  const verifySecondFactor = deps.verifySecondFactor ?? (async () => false);
  const writes = createSignInWrites({ db, clock, audit, lockout, sessions, events });

  const attemptRow = (identifier: string, meta: LoginMeta, userId: number | null, success: boolean, failureReason: string | null,
    now: Date) => ({ identifier: identifier.slice(0, 254), method: meta.method, user_id: userId, ip_address: meta.ip,
    application_id: meta.applicationId, success, failure_reason: failureReason, created_at: now });

  /** Records a failed sign-in: the attempt with its `login.failed` webhook event, and the `login_failed` audit event. */
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
   * Runs a step of the sign-in and, when it throws, records the failure once before passing the error on: as `reason`
   * whatever was thrown, or without it, as the refusal's code (an `AppError`'s, lower-cased; other errors are not
   * refusals and are not recorded).
   */
  async function recordingFailure<T>(identifier: string, meta: LoginMeta, userId: number | null, step: () => Promise<T>,
    reason?: string): Promise<T> {
    try {
      return await step();
    } catch (err) {
      if (reason !== undefined) await failed(identifier, meta, userId, reason);
      else if (err instanceof AppError) await failed(identifier, meta, userId, err.code.toLowerCase());
      throw err;
    }
  }

  /** The lock step: 423 while `target` is locked, recorded as `account_locked`. */
  const assertNotLocked = (target: LockTarget, identifier: string, meta: LoginMeta, userId: number | null) =>
    recordingFailure(identifier, meta, userId, () => lockout.assertNotLocked(target), 'account_locked');

  /**
   * The account step of the logins that prove the person another way (a link, a provider): not locked (423), and able
   * to sign in — else `refusal`. Each refusal is recorded as a failed attempt.
   */
  async function admitAccount(user: users.LoginUser, identifier: string, meta: LoginMeta, refusal: () => AppError): Promise<void> {
    await assertNotLocked({ userId: user.id, lockedUntil: user.locked_until }, identifier, meta, user.id);
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
    const access = await recordingFailure(identifier, meta, user.id, () => db.transaction().execute((trx) =>
      sessions.open(trx, user, '2fa_setup_only', deviceInfo, meta, { accessLifetime: ADMIN_SETUP_TOKEN_LIFETIME })));
    await failed(identifier, meta, user.id, 'admin_2fa_setup_required');
    throw new AppError('ADMIN_2FA_SETUP_REQUIRED', { extra: {
      access_token: access.access_token, token_type: 'Bearer', expires_in: ADMIN_SETUP_TOKEN_LIFETIME, token_scope: '2fa_setup_only',
    } });
  }

  /**
   * Opens the session, records the login and builds the token response (docs/authentication.md "Tokens"), or applies
   * the admin gate. With `secondFactor` (a passkey that verified the user) the sign-in proved two factors: the admin
   * gate is passed, and the session is marked so that its refreshes pass it too.
   */
  async function completeLogin(user: users.LoginUser, identifier: string, deviceInfo: string | undefined, meta: LoginMeta,
    secondFactor?: 'passkey') {
    const scope = scopeFor({ ...user, second_factor: secondFactor });
    if (scope === '2fa_setup_only') return refuseUntilTwoFactor(user, identifier, deviceInfo, meta);
    if (isDeletionPending(user)) return signInPendingDeletion(user, identifier, deviceInfo, meta);
    const done = await recordingFailure(identifier, meta, user.id, async () =>
      await writes.atOnce(user, identifier, deviceInfo, meta, scope) ?? await writes.inTransaction(user, identifier, deviceInfo, meta, scope));
    if (secondFactor) await loginRepo.markSecondFactor(db, Number(done.issued.session_id), secondFactor);
    if (deps.onSignIn) await deps.onSignIn(user);
    return tokenResponseOf(done.row, done.grants, done.issued);
  }

  /**
   * An account whose deletion is confirmed (docs/decisions.md "Account deletion"), having passed every check of a normal
   * login, gets a `deletion_pending` access token and no refresh token — enough to cancel the deletion, read its
   * status, export its data or sign out. Its session's refresh token is never handed out.
   */
  async function signInPendingDeletion(user: users.LoginUser, identifier: string, deviceInfo: string | undefined, meta: LoginMeta) {
    const done: SignedIn = await recordingFailure(identifier, meta, user.id, () =>
      writes.inTransaction(user, identifier, deviceInfo, meta, 'deletion_pending'));
    const { refresh_token: _withheld, ...body } = tokenResponseOf(done.row, done.grants, done.issued);
    return { ...body, refresh_expires_in: 0, deletion_pending: true, scheduled_deletion_date: user.deletion_scheduled_at!.toISOString() };
  }

  /**
   * A password sign-in on the authorization server's pages (docs/oauth.md "Sign-in and consent"), after the password
   * and second factor: every check `completeLogin` makes, but no Gatehouse session is opened. What would give a
   * restricted token refuses instead (an administrator without 2FA, a forced password change, a pending deletion);
   * otherwise the last login and the attempt are recorded, as for any sign-in. With `secondFactor` (a passkey that
   * verified the user) the sign-in proved two factors, which passes the admin gate.
   */
  async function completeProviderSignIn(user: users.LoginUser, identifier: string, meta: LoginMeta, secondFactor?: 'passkey')
    : Promise<ProviderSignIn> {
    const scope = scopeFor({ ...user, second_factor: secondFactor });
    const refusal: ProviderSignIn = scope === '2fa_setup_only' ? 'admin_2fa_setup_required'
      : scope === 'password_change_only' ? 'password_change_required'
        : isDeletionPending(user) ? 'deletion_pending' : 'signed_in';
    if (refusal !== 'signed_in') {
      await failed(identifier, meta, user.id, refusal);
      return refusal;
    }
    await recordingFailure(identifier, meta, user.id, () => db.transaction().execute(async (trx) => {
      const now = clock.now();
      if (!(await loginRepo.recordLogin(trx, user.id, now, lockout.enabled()))) throw await lockout.lockedErrorOf(user.id, trx);
      await attempts.insertLoginAttempt(trx, attemptRow(identifier, meta, user.id, true, null, now));
    }));
    await audit.record({ event_type: 'login', user_id: user.id, application_id: meta.applicationId, ip_address: meta.ip,
      user_agent: meta.userAgent, details: { method: meta.method } });
    if (deps.onSignIn) await deps.onSignIn(user);
    return 'signed_in';
  }

  /** The user object with its role and permission codes. */
  async function userResponse(userId: number) {
    const row = (await users.findPublicUser(db, userId))!;
    return toUserResponse(row, await rbac.grantsOf(row));
  }

  /** The token response (docs/authentication.md "Tokens") around freshly issued tokens, for the account `row`. */
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

  /** The token response around freshly issued tokens. */
  async function tokenResponse(userId: number, issued: IssuedTokens) {
    const row = (await users.findPublicUser(db, userId))!;
    return tokenResponseOf(row, await rbac.grantsOf(row), issued);
  }

  return { failed, recordingFailure, assertNotLocked, admitAccount, secondFactor, completeLogin, completeProviderSignIn, tokenResponse,
    userResponse, scopeFor };
}

export type SignInService = ReturnType<typeof createSignInService>;
