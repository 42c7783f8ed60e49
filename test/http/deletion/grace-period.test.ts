import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { enableTotp } from '../../factories/twofactor.js';
import { decodeJwt } from '../../factories/sessions.js';
import { agentApi, delegate } from '../agents/helpers.js';
import { lastMagicToken, MAGIC_LINK_ON, requestMagicLink, verifyMagicLink } from '../passwordless/helpers.js';
import {
  account, auditEvents, call, confirmationToken, expectStatus, login, mailsTo, requestAndConfirm, requestDeletion, requestRows,
  type Account,
} from './helpers.js';

const START = new Date('2026-03-01T10:00:00Z');
const DAY = 86_400;

/**
 * docs/decisions.md "Account deletion": during the grace period a login that passes every check answers a
 * `deletion_pending` token without refresh token; cancel reactivates; status tracks the request.
 */
describe('the grace period: deletion_pending sign-in, cancel-account-deletion/, account-deletion-status/', () => {
  const t = useTestApp({ env: { ...MAGIC_LINK_ON, SVC_MAX_LOGIN_ATTEMPTS: '3' }, now: START });
  let ann: Account;
  beforeEach(async () => {
    t.container.inbox.emails.length = 0;
    ann = await account(t);
  });

  const pendingLogin = async (who: Account, extra: object = {}) => {
    const body = expectStatus(await login(t, who, extra), 200);
    assert.equal(body.token_scope, 'deletion_pending');
    return body;
  };

  describe('sign-in while the deletion waits', () => {
    it('answers a deletion_pending access token, no refresh token, and the scheduled date', async () => {
      await requestAndConfirm(t, ann);
      const body = await pendingLogin(ann);
      assert.equal(body.refresh_token, undefined);
      assert.equal(body.refresh_expires_in, 0);
      assert.equal(body.deletion_pending, true);
      assert.equal(body.scheduled_deletion_date, '2026-03-31T10:00:00.000Z');
      assert.equal(body.user.is_active, false);
      assert.equal(decodeJwt(body.access_token).payload.scope, 'deletion_pending');
      const attempts = await t.container.db.selectFrom('login_attempts').select(['success']).where('user_id', '=', ann.id)
        .orderBy('id', 'desc').limit(1).execute();
      assert.deepEqual(attempts, [{ success: true }]);
    });

    it('accepts the token on status (and logout, cancel: below), and refuses it elsewhere with 403 INSUFFICIENT_SCOPE', async () => {
      await requestAndConfirm(t, ann);
      const { access_token: token } = await pendingLogin(ann);
      expectStatus(await call(t, 'GET', 'account-deletion-status/', token), 200);
      for (const [method, path] of [['GET', 'me/'], ['GET', 'me/roles/'], ['POST', 'request-account-deletion/'], ['GET', '2fa/status/']] as const) {
        const res = await call(t, method, path, token, method === 'POST' ? { password: ann.password } : undefined);
        assert.equal(res.statusCode, 403, `${method} ${path}: ${res.body}`);
        assert.equal(res.json().code, 'INSUFFICIENT_SCOPE');
      }
      assert.equal((await call(t, 'POST', 'logout/all/', token)).statusCode, 403);
      // logout/ accepts it without a refresh token (this session never handed one out) and ends its session.
      expectStatus(await call(t, 'POST', 'logout/', token, {}), 200);
      assert.equal((await call(t, 'GET', 'account-deletion-status/', token)).statusCode, 401);
    });

    it('still applies every check of a normal login: wrong password, second factor, ban, lockout', async () => {
      const totp = await enableTotp(t, ann);
      await requestDeletion(t, ann, { otp_code: totp.code() });
      expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token: await confirmationToken(t, ann.email!) }), 200);
      assert.equal(expectStatus(await login(t, { ...ann, password: 'wrong password' }), 401).code, 'LOGIN_FAILED');
      assert.equal(expectStatus(await login(t, ann), 401).code, '2FA_REQUIRED');
      t.clock.advance(60);
      await pendingLogin(ann, { totp_code: totp.code() });
      await t.container.db.updateTable('users').set({ is_banned: true }).where('id', '=', ann.id).execute();
      assert.equal(expectStatus(await login(t, ann, { totp_code: totp.code() }), 401).code, 'LOGIN_FAILED');
    });

    it('a locked account is refused while its deletion waits', async () => {
      await requestAndConfirm(t, ann);
      for (let i = 0; i < 2; i++) await login(t, { ...ann, password: 'wrong password' });
      assert.equal((await login(t, { ...ann, password: 'wrong password' })).statusCode, 423);
      assert.equal((await login(t, ann)).statusCode, 423);
    });

    it('an inactive account without a waiting deletion still cannot sign in', async () => {
      await t.container.db.updateTable('users').set({ is_active: false }).where('id', '=', ann.id).execute();
      assert.equal(expectStatus(await login(t, ann), 401).code, 'LOGIN_FAILED');
    });

    it('a magic-link sign-in answers the same restricted token', async () => {
      await requestAndConfirm(t, ann);
      expectStatus(await requestMagicLink(t, { email: ann.email, validation_url: 'http://localhost:3000/callback' }), 200);
      const body = expectStatus(await verifyMagicLink(t, { token: await lastMagicToken(t, ann.email!) }), 200);
      assert.equal(body.token_scope, 'deletion_pending');
      assert.equal(body.refresh_token, undefined);
      assert.equal(body.deletion_pending, true);
    });

    it('the token stops working once the deletion is cancelled by another session', async () => {
      await requestAndConfirm(t, ann);
      const first = await pendingLogin(ann);
      const second = await pendingLogin(ann);
      expectStatus(await call(t, 'POST', 'cancel-account-deletion/', second.access_token, { password: ann.password }), 200);
      // The account is active again: the restricted token of the other session still only reaches its routes.
      assert.equal((await call(t, 'GET', 'me/', first.access_token)).statusCode, 403);
    });
  });

  describe('cancel', () => {
    it('cancels a pending request: nothing to reactivate, and the confirmation token dies', async () => {
      await requestDeletion(t, ann);
      const token = await confirmationToken(t, ann.email!);
      const body = expectStatus(await call(t, 'POST', 'cancel-account-deletion/', ann.token, { password: ann.password }), 200);
      assert.deepEqual(body, {
        message: body.message, deletion_cancelled: true, account_reactivated: false, cancellation_time: START.toISOString(),
        security_note: body.security_note,
      });
      const [row] = await requestRows(t, ann.id);
      assert.equal(row!.status, 'cancelled');
      assert.equal(row!.cancelled_at!.toISOString(), START.toISOString());
      assert.equal(expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token }), 400).code, 'INVALID_TOKEN');
      expectStatus(await call(t, 'GET', 'me/', ann.token), 200);
      assert.equal((await auditEvents(t, 'account_deletion_cancelled')).length, 1);
      assert.equal((await mailsTo(t, ann.email!)).filter((m) => m.purpose === 'deletion_cancelled').length, 1);
    });

    it('cancels a confirmed request with the deletion_pending token: reactivated, with a full-scope pair', async () => {
      await requestAndConfirm(t, ann);
      t.clock.advance(5 * DAY);
      const restricted = await pendingLogin(ann);
      const body = expectStatus(await call(t, 'POST', 'cancel-account-deletion/', restricted.access_token, { password: ann.password }), 200);
      assert.equal(body.account_reactivated, true);
      assert.equal(body.token_type, 'Bearer');
      assert.equal(decodeJwt(body.access_token).payload.scope, 'full');
      expectStatus(await call(t, 'GET', 'me/', body.access_token), 200);
      const refreshed = expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: body.refresh_token } }), 200);
      assert.ok(refreshed.access_token);
      // The restricted session is over.
      assert.equal((await call(t, 'GET', 'account-deletion-status/', restricted.access_token)).statusCode, 401);
      const user = await t.container.db.selectFrom('users').select(['is_active', 'deletion_scheduled_at']).where('id', '=', ann.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(user, { is_active: true, deletion_scheduled_at: null });
      assert.equal((await requestRows(t, ann.id))[0]!.status, 'cancelled');
      // A normal login gives a full pair again.
      const full = expectStatus(await login(t, ann), 200);
      assert.equal(full.token_scope, undefined);
      assert.ok(full.refresh_token);
    });

    it('answers 400 with details.password for a wrong password, and nothing changes', async () => {
      await requestAndConfirm(t, ann);
      const { access_token: token } = await pendingLogin(ann);
      const res = expectStatus(await call(t, 'POST', 'cancel-account-deletion/', token, { password: 'wrong password' }), 400);
      assert.ok(res.details.password);
      assert.equal((await requestRows(t, ann.id))[0]!.status, 'confirmed');
    });

    it("answers 404 NO_PENDING_DELETION without an open request, and never touches another account's", async () => {
      const bob = await account(t);
      await requestDeletion(t, bob);
      const res = expectStatus(await call(t, 'POST', 'cancel-account-deletion/', ann.token, { password: ann.password }), 404);
      assert.equal(res.code, 'NO_PENDING_DELETION');
      assert.equal((await requestRows(t, bob.id))[0]!.status, 'confirmation_sent');
      expectStatus(await call(t, 'POST', 'cancel-account-deletion/', bob.token, { password: bob.password }), 200);
      assert.equal(expectStatus(await call(t, 'POST', 'cancel-account-deletion/', bob.token, { password: bob.password }), 404).code,
        'NO_PENDING_DELETION');
    });

    it('a new request can follow a cancelled one', async () => {
      await requestDeletion(t, ann);
      expectStatus(await call(t, 'POST', 'cancel-account-deletion/', ann.token, { password: ann.password }), 200);
      await requestDeletion(t, ann);
      assert.deepEqual((await requestRows(t, ann.id)).map((r) => r.status), ['cancelled', 'confirmation_sent']);
    });
  });

  describe('status', () => {
    it('answers zero requests and no active one for an account that never asked', async () => {
      assert.deepEqual(expectStatus(await call(t, 'GET', 'account-deletion-status/', ann.token), 200),
        { total_requests: 0, active_request: null, history: [] });
    });

    it('follows the request through its states, with the whole days left', async () => {
      await requestDeletion(t, ann, { reason: 'first' });
      expectStatus(await call(t, 'POST', 'cancel-account-deletion/', ann.token, { password: ann.password }), 200);
      t.clock.advance(DAY);
      const { access_token: fresh } = expectStatus(await login(t, ann), 200);
      const second = await requestDeletion(t, { ...ann, token: fresh }, { reason: 'second' });
      t.clock.advance(3600);
      expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token: await confirmationToken(t, ann.email!) }), 200);
      t.clock.advance(10 * DAY + 60);
      const { access_token: token } = await pendingLogin(ann);
      const body = expectStatus(await call(t, 'GET', 'account-deletion-status/', token), 200);
      assert.deepEqual(body, {
        total_requests: 2,
        active_request: {
          id: second.deletion_request_id, status: 'confirmed', requested_at: '2026-03-02T10:00:00.000Z',
          grace_period_ends_at: '2026-04-01T11:00:00.000Z', days_remaining: 20,
        },
        history: [
          { id: second.deletion_request_id, status: 'confirmed', requested_at: '2026-03-02T10:00:00.000Z',
            confirmed_at: '2026-03-02T11:00:00.000Z', completed_at: null, reason: 'second' },
          { id: body.history[1].id, status: 'cancelled', requested_at: '2026-03-01T10:00:00.000Z', confirmed_at: null, completed_at: null,
            reason: 'first' },
        ],
      });
    });
  });

  it('refuses agents on every lifecycle route (403 AGENT_NOT_ALLOWED)', async () => {
    const agent = await delegate(t, ann);
    const api = agentApi(t);
    for (const [method, path, payload] of [
      ['POST', 'request-account-deletion/', { password: ann.password }],
      ['POST', 'cancel-account-deletion/', { password: ann.password }],
      ['GET', 'account-deletion-status/', undefined],
    ] as const) {
      const res = await api(method, path, agent.token, payload);
      assert.equal(res.statusCode, 403, `${path}: ${res.body}`);
      assert.equal(res.json().code, 'AGENT_NOT_ALLOWED');
    }
    assert.deepEqual(await requestRows(t, ann.id), []);
  });
});
