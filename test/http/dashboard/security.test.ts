import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { enableTotp } from '../../factories/twofactor.js';
import type { TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { accountAt, at, auditAt, createViewer, DASHBOARD_ENV, emailLogin, expectStatus, getAs, permissionDenied } from './helpers.js';

/** Noon UTC: the last 24 hours start at noon on the 17th, the last 7 days at noon on the 11th. */
const NOW = '2026-03-18T12:00:00.000Z';

/** docs/dashboard.md: GET dashboard/security/ (dashboard.view). */
describe('GET dashboard/security/', () => {
  const t = useTestApp({ now: new Date(NOW), env: { ...DASHBOARD_ENV, SVC_MAX_LOGIN_ATTEMPTS: '3', SVC_LOCKOUT_DURATION: '3600' } });
  let viewer: TestUser;
  beforeEach(async () => {
    viewer = await createViewer(t);
  });

  /** A failed password sign-in for an address nobody has, from `ip`. */
  async function failedFrom(iso: string, ip: string, n: number) {
    at(t, iso);
    const res = await t.api({ method: 'POST', path: 'login/email/', remoteAddress: ip,
      payload: { email: `nobody-${ip}-${n}-${iso}@example.com`, password: 'whatever it is' } });
    assert.equal(res.statusCode, 401, res.body);
  }

  it('summarizes the audit log of the last 24 hours, failed attempts by address, blacklisted tokens and account flags', async () => {
    const kim = await accountAt(t, '2026-01-01T00:00:00.000Z', { email: 'kim@example.com' });
    const erin = await accountAt(t, '2026-01-01T00:00:00.000Z', { email: 'erin@example.com' });
    await enableTotp(t, erin);
    const lou = await accountAt(t, '2026-01-01T00:00:00.000Z', { email: 'lou@example.com' });
    await accountAt(t, '2026-01-01T00:00:00.000Z', { email: 'banned@example.com', is_banned: true });
    await accountAt(t, '2026-01-01T00:00:00.000Z', { email: 'gone-banned@example.com', is_banned: true,
      deleted_at: new Date('2026-02-01T00:00:00.000Z') });
    await accountAt(t, '2026-01-01T00:00:00.000Z', { email: 'gone@example.com', is_2fa_enabled: true,
      deleted_at: new Date('2026-02-01T00:00:00.000Z') });
    await accountAt(t, '2026-01-01T00:00:00.000Z', { email: 'was-locked@example.com',
      locked_until: new Date('2026-03-18T11:59:59.999Z') });

    // Failed attempts: three from .7 and one from .9 (at the first instant) in the last 24 hours; two more from .9 and
    // one from .3 (a millisecond too early for the 24 hours) in the 7 days; one from .5 a millisecond too early for those.
    for (let n = 0; n < 3; n++) await failedFrom(`2026-03-18T08:0${n}:00.000Z`, '198.51.100.7', n);
    await failedFrom('2026-03-17T12:00:00.000Z', '198.51.100.9', 0);
    await failedFrom('2026-03-15T10:00:00.000Z', '198.51.100.9', 1);
    await failedFrom('2026-03-15T10:01:00.000Z', '198.51.100.9', 2);
    await failedFrom('2026-03-17T11:59:59.999Z', '198.51.100.3', 0);
    await failedFrom('2026-03-11T11:59:59.999Z', '198.51.100.5', 0);
    // kim's third wrong password locks the account until 12:52 (answered 423, an account_locked event of severity warning).
    for (let n = 0; n < 3; n++) {
      assert.equal(await emailLogin(t, `2026-03-18T11:5${n}:00.000Z`, kim.email!, 'not the password'), n < 2 ? 401 : 423);
    }
    // lou signs in and out: the access token stays blacklisted until 12:05.
    at(t, '2026-03-18T11:50:00.000Z');
    const { access_token, refresh_token } = expectStatus(await t.api({ method: 'POST', path: 'login/email/',
      payload: { email: lou.email, password: lou.password } }), 200);
    at(t, '2026-03-18T11:50:30.000Z');
    expectStatus(await t.api({ method: 'POST', path: 'logout/', token: access_token, payload: { refresh_token } }), 200);
    await t.container.db.insertInto('token_blacklist').values({ jti: 'expired-at-noon', user_id: lou.id, reason: 'logout',
      blacklisted_at: new Date('2026-03-18T11:44:59.999Z'), expires_at: new Date('2026-03-18T11:59:59.999Z') }).execute();
    // Events no HTTP path writes here.
    await auditAt(t, '2026-03-17T12:00:00.000Z', { event_type: 'refresh_token_reuse', severity: 'critical', user_id: lou.id });
    await auditAt(t, '2026-03-17T11:59:59.999Z', { event_type: 'user_banned', severity: 'warning', user_id: lou.id });
    await auditAt(t, '2026-03-17T23:59:59.999Z', { event_type: 'password_set', user_id: lou.id }); // yesterday
    await auditAt(t, '2026-03-18T00:00:00.000Z', { event_type: 'password_reset', user_id: lou.id });
    await auditAt(t, '2026-03-18T09:00:00.000Z', { event_type: 'password_change', user_id: lou.id });
    await auditAt(t, '2026-03-18T09:05:00.000Z', { event_type: 'password_change_failed', severity: 'warning', user_id: lou.id });

    at(t, NOW);
    assert.deepEqual(expectStatus(await getAs(t, viewer, 'dashboard/security/'), 200), {
      audit_summary_24h: {
        total: 15,
        by_severity: { info: 12, warning: 2, critical: 1 },
        by_event_type: {
          account_locked: 1, login: 1, login_failed: 7, logout: 1, password_change: 1, password_change_failed: 1, password_reset: 1,
          password_set: 1, refresh_token_reuse: 1,
        },
      },
      blacklisted_tokens: 1,
      suspicious_activity: {
        last_24h: 7,
        last_7d: 10,
        top_ips: [
          { ip_address: '127.0.0.1', events: 3 }, // kim's three, from the test client's address
          { ip_address: '198.51.100.7', events: 3 },
          { ip_address: '198.51.100.9', events: 1 },
        ],
      },
      account_security: {
        locked_accounts: 1, // kim; the lock that ended a millisecond ago does not count
        banned_accounts: 1, // a deleted account does not count
        '2fa_adoption_rate': 16.67, // erin, of the 6 accounts not deleted
        password_changes_today: 2, // the reset at midnight and the change; not yesterday's, not the failed change
      },
    });
  });

  it('ranks ten addresses at most, the most failed attempts first, ties by address', async () => {
    for (let i = 1; i <= 12; i++) {
      for (let n = 0; n < (i % 3) + 1; n++) await failedFrom(`2026-03-18T0${n}:${String(i).padStart(2, '0')}:00.000Z`, `203.0.113.${i}`, n);
    }
    at(t, NOW);
    const top = expectStatus(await getAs(t, viewer, 'dashboard/security/'), 200).suspicious_activity.top_ips;
    assert.deepEqual(top, [
      { ip_address: '203.0.113.11', events: 3 }, { ip_address: '203.0.113.2', events: 3 }, { ip_address: '203.0.113.5', events: 3 },
      { ip_address: '203.0.113.8', events: 3 }, { ip_address: '203.0.113.1', events: 2 }, { ip_address: '203.0.113.10', events: 2 },
      { ip_address: '203.0.113.4', events: 2 }, { ip_address: '203.0.113.7', events: 2 }, { ip_address: '203.0.113.12', events: 1 },
      { ip_address: '203.0.113.3', events: 1 },
    ]);
  });

  it('answers zeros on a quiet database', async () => {
    at(t, NOW);
    assert.deepEqual(expectStatus(await getAs(t, viewer, 'dashboard/security/'), 200), {
      audit_summary_24h: { total: 0, by_severity: { info: 0, warning: 0, critical: 0 }, by_event_type: {} },
      blacklisted_tokens: 0,
      suspicious_activity: { last_24h: 0, last_7d: 0, top_ips: [] },
      account_security: { locked_accounts: 0, banned_accounts: 0, '2fa_adoption_rate': 0, password_changes_today: 0 },
    });
  });

  it('answers 403 PERMISSION_DENIED without dashboard.view', async () => {
    const someone = await accountAt(t, NOW, { email: 'someone@example.com' });
    assert.deepEqual(expectStatus(await getAs(t, someone, 'dashboard/security/'), 403), permissionDenied('dashboard.view'));
  });
});
