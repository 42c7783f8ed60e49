import assert from 'node:assert/strict';
import { before, beforeEach, describe, it } from 'node:test';
import { enableTotp } from '../../factories/twofactor.js';
import type { TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { clearInbox } from '../passwordless/helpers.js';
import {
  accountAt, at, createViewer, DASHBOARD_ENV, emailLogin, expectStatus, getAs, magicLinkLogin, otpLogin, permissionDenied, phoneLogin,
} from './helpers.js';

/** A Wednesday, noon UTC: today is the 18th, the week started on Monday the 16th, the 30 days on 17 February. */
const NOW = '2026-03-18T12:00:00.000Z';

/** docs/dashboard.md: GET dashboard/auth/ (dashboard.view). */
describe('GET dashboard/auth/', () => {
  const t = useTestApp({ now: new Date(NOW), env: { ...DASHBOARD_ENV, SVC_JWT_REFRESH_TOKEN_LIFETIME: String(7 * 86_400) } });
  let viewer: TestUser;
  beforeEach(async () => {
    clearInbox(t);
    viewer = await createViewer(t);
  });

  /** A sign-in attempt of a method with no HTTP path yet (passkeys, social providers), written as its module writes it. */
  const attempt = (iso: string, method: string, success: boolean, userId: number | null, failureReason: string | null = null) =>
    t.container.db.insertInto('login_attempts').values({ identifier: 'someone@example.com', method, user_id: userId, ip_address: '192.0.2.1',
      application_id: t.credentials.id, success, failure_reason: failureReason, created_at: new Date(iso) }).execute();

  it('counts attempts today, this week and this month, sign-ins by method and failure reasons over 30 days, and tokens', async () => {
    // Verified addresses: their code and link sign-ins below keep their passwords (docs/authentication.md).
    const alice = await accountAt(t, '2026-02-01T00:00:00.000Z', { email: 'alice@example.com', verified: true });
    const dave = await accountAt(t, '2026-03-02T00:00:00.000Z', { email: 'dave@example.com', phone: '+33612345678', verified: true });
    const mallory = await accountAt(t, '2026-03-15T23:59:59.999Z', { email: 'mallory@example.com', is_banned: true });
    const erin = await accountAt(t, '2026-03-16T00:00:00.000Z', { email: 'erin@example.com' });
    await enableTotp(t, erin);
    const tom = await accountAt(t, '2026-03-18T00:00:00.000Z', { email: 'tom@example.com' });

    const ok = (status: number) => assert.equal(status, 200);
    const refused = (status: number) => assert.equal(status, 401);
    ok(await emailLogin(t, '2026-02-16T23:59:59.999Z', alice.email!, alice.password!)); // before the 30 days
    ok(await emailLogin(t, '2026-02-17T00:00:00.000Z', alice.email!, alice.password!)); // first instant of the 30 days
    refused(await emailLogin(t, '2026-02-28T23:59:59.999Z', alice.email!, 'not the password')); // last instant before the month
    ok(await emailLogin(t, '2026-03-01T00:00:00.000Z', alice.email!, alice.password!)); // first instant of the month
    await attempt('2026-03-10T10:00:00.000Z', 'passkey', true, alice.id);
    ok(await emailLogin(t, '2026-03-11T06:00:00.000Z', alice.email!, alice.password!)); // its refresh token expires today at 06:00
    await attempt('2026-03-12T10:00:00.000Z', 'social_google', true, alice.id);
    await attempt('2026-03-12T11:00:00.000Z', 'social_github', false, null, 'provider_error');
    ok(await phoneLogin(t, '2026-03-15T23:59:59.999Z', dave.phone!, dave.password!)); // last instant before the week
    await otpLogin(t, '2026-03-16T00:00:00.000Z', dave.phone!); // first instant of the week
    await magicLinkLogin(t, '2026-03-17T08:00:00.000Z', alice);
    refused(await emailLogin(t, '2026-03-17T10:00:00.000Z', mallory.email!, mallory.password!)); // banned
    refused(await emailLogin(t, '2026-03-18T00:00:00.000Z', 'nobody@example.com', 'whatever it is')); // first instant of today
    refused(await emailLogin(t, '2026-03-18T09:00:00.000Z', alice.email!, 'not the password'));
    refused(await emailLogin(t, '2026-03-18T09:01:00.000Z', alice.email!, 'not the password either'));
    refused(await emailLogin(t, '2026-03-18T10:00:00.000Z', erin.email!, erin.password!)); // 2FA on, no code
    // tom signs in and out: his session and refresh token are revoked, his access token blacklisted until 12:10.
    at(t, '2026-03-18T11:55:00.000Z');
    const signedIn = await t.api({ method: 'POST', path: 'login/email/', payload: { email: tom.email, password: tom.password } });
    const { access_token, refresh_token } = expectStatus(signedIn, 200);
    at(t, '2026-03-18T11:56:00.000Z');
    expectStatus(await t.api({ method: 'POST', path: 'logout/', token: access_token, payload: { refresh_token } }), 200);

    at(t, NOW);
    assert.deepEqual(expectStatus(await getAs(t, viewer, 'dashboard/auth/'), 200), {
      login_stats: {
        // erin's attempt without her code is a second step asked for, neither a success nor a failure.
        today: { total: 5, success_count: 1, failed_count: 3, second_step_count: 1, success_rate: 25 },
        this_week: { total: 8, success_count: 3, failed_count: 4, second_step_count: 1, success_rate: 42.86 },
        this_month: { total: 14, success_count: 8, failed_count: 5, second_step_count: 1, success_rate: 61.54 },
      },
      login_by_method: { password: 4, phone_password: 1, otp: 1, magic_link: 1, passkey: 1, social_github: 0, social_google: 1 },
      registration_stats: { today: 1, this_week: 2, this_month: 4 }, // tom; erin; dave and mallory
      token_stats: {
        active_refresh_tokens: 4, // dave's two, alice's magic link, the viewer's
        blacklisted_tokens: 1, // tom's access token
        expired_today: 1, // alice's of 11 March
      },
      top_login_failure_reasons: [
        { reason: 'invalid_credentials', count: 4 },
        { reason: 'banned', count: 1 },
        { reason: 'provider_error', count: 1 },
      ],
      charts: {
        logins_per_day_7d: [
          { date: '2026-03-12', success: 1, failed: 1, second_step: 0 },
          { date: '2026-03-13', success: 0, failed: 0, second_step: 0 },
          { date: '2026-03-14', success: 0, failed: 0, second_step: 0 },
          { date: '2026-03-15', success: 1, failed: 0, second_step: 0 },
          { date: '2026-03-16', success: 1, failed: 0, second_step: 0 },
          { date: '2026-03-17', success: 1, failed: 1, second_step: 0 },
          { date: '2026-03-18', success: 1, failed: 3, second_step: 1 },
        ],
      },
    });
  });

  it('always names the five fixed methods, with zeros, and only the social providers that were used', async () => {
    at(t, NOW);
    const body = expectStatus(await getAs(t, viewer, 'dashboard/auth/'), 200);
    assert.deepEqual(body.login_by_method, { password: 0, phone_password: 0, otp: 0, magic_link: 0, passkey: 0 });
    assert.deepEqual(body.top_login_failure_reasons, []);
    assert.equal(body.charts.logins_per_day_7d.length, 7);
    assert.deepEqual(body.login_stats.today, { total: 0, success_count: 0, failed_count: 0, second_step_count: 0, success_rate: 0 });
  });

  it('ranks ten failure reasons at most, the most frequent first, ties by name', async () => {
    for (let i = 0; i < 12; i++) {
      for (let n = 0; n <= i % 3; n++) await attempt(`2026-03-1${n}T10:0${i % 10}:00.000Z`, 'password', false, null, `reason_${String(i).padStart(2, '0')}`);
    }
    at(t, NOW);
    const reasons = expectStatus(await getAs(t, viewer, 'dashboard/auth/'), 200).top_login_failure_reasons;
    assert.deepEqual(reasons, [
      { reason: 'reason_02', count: 3 }, { reason: 'reason_05', count: 3 }, { reason: 'reason_08', count: 3 }, { reason: 'reason_11', count: 3 },
      { reason: 'reason_01', count: 2 }, { reason: 'reason_04', count: 2 }, { reason: 'reason_07', count: 2 }, { reason: 'reason_10', count: 2 },
      { reason: 'reason_00', count: 1 }, { reason: 'reason_03', count: 1 },
    ]);
  });

  it('counts the answers 2FA_REQUIRED and ADMIN_2FA_SETUP_REQUIRED apart: neither successes nor failures', async () => {
    const erin = await accountAt(t, '2026-03-01T00:00:00.000Z', { email: 'erin@example.com' });
    const totp = await enableTotp(t, erin);
    const sam = await accountAt(t, '2026-03-01T00:00:00.000Z', { email: 'sam@example.com', is_staff: true }); // no 2FA yet
    assert.equal(await emailLogin(t, '2026-03-18T08:00:00.000Z', erin.email!, erin.password!), 401); // 2FA_REQUIRED
    at(t, '2026-03-18T08:00:30.000Z');
    const withCode = await t.api({ method: 'POST', path: 'login/email/', payload: { email: erin.email, password: erin.password, totp_code: totp.code() } });
    assert.equal(withCode.statusCode, 200, withCode.body);
    assert.equal(await emailLogin(t, '2026-03-18T09:00:00.000Z', sam.email!, sam.password!), 403); // ADMIN_2FA_SETUP_REQUIRED
    assert.equal(await emailLogin(t, '2026-03-18T10:00:00.000Z', erin.email!, 'not the password'), 401);

    at(t, NOW);
    const auth = expectStatus(await getAs(t, viewer, 'dashboard/auth/'), 200);
    assert.deepEqual(auth.login_stats.today, { total: 4, success_count: 1, failed_count: 1, second_step_count: 2, success_rate: 50 });
    assert.deepEqual(auth.charts.logins_per_day_7d.at(-1), { date: '2026-03-18', success: 1, failed: 1, second_step: 2 });
    assert.deepEqual(auth.top_login_failure_reasons, [{ reason: 'invalid_credentials', count: 1 }]);
    const stats = expectStatus(await getAs(t, viewer, 'dashboard/stats/'), 200);
    assert.equal(stats.trends.login_success_rate, 50);
    assert.equal(stats.trends.login_second_steps, 2);
  });

  it('answers 403 PERMISSION_DENIED without dashboard.view', async () => {
    const someone = await accountAt(t, NOW, { email: 'someone@example.com' });
    assert.deepEqual(expectStatus(await getAs(t, someone, 'dashboard/auth/'), 403), permissionDenied('dashboard.view'));
  });
});
