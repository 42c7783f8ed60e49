import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createApplication } from '../../factories/applications.js';
import { decodeJwt, signIn } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus, NOT_FOUND, permissionDenied } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const at = (offsetSeconds: number) => new Date(NOW.getTime() + offsetSeconds * 1000);

/** One app for the enclosing suite; before each test: an auditor (audit.view), an operator (security.view) and ann. */
function adminFixture(env: Record<string, string>) {
  const f = { t: useTestApp({ now: NOW, env }) } as { t: TestApp; auditor: Account; operator: Account; ann: TestUser };
  beforeEach(async () => {
    const { t } = f;
    f.auditor = await account(t, { email: 'auditor@example.com' });
    await grantDirect(t, f.auditor.id, ['audit.view']);
    f.operator = await account(t, { email: 'operator@example.com' });
    await grantDirect(t, f.operator.id, ['security.view']);
    f.ann = await createUser(t, { email: 'ann@example.com' });
  });
  return f;
}

describe('admin token listings and security operations', () => {
  let t: TestApp;
  let auditor: Account;
  let operator: Account;
  let ann: TestUser;
  const f = adminFixture({ SVC_AUDIT_LOGGING_ENABLED: 'true' });
  beforeEach(() => ({ t, auditor, operator, ann } = f));

  const get = async (path: string, status = 200) => expectStatus(await t.api({ method: 'GET', path, token: auditor.token }), status);
  const post = (path: string, payload?: object, token = operator.token) => t.api({ method: 'POST', path, token, payload });
  const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);

  describe('GET admin/blacklisted-tokens/ and cleanup/', () => {
    async function blacklistRow(jti: string, reason: string, blacklistedAt: Date, expiresAt: Date, userId: number | null = ann.id) {
      const row = await t.container.db.insertInto('token_blacklist').values({ jti, user_id: userId, reason, blacklisted_at: blacklistedAt, expires_at: expiresAt })
        .returning('id').executeTakeFirstOrThrow();
      return String(row.id);
    }

    it('lists a logged-out access token as {id, token_jti, user, user_email, blacklisted_at, expires_at, reason, is_expired}', async () => {
      const session = await signIn(t, ann);
      expectStatus(await t.api({ method: 'POST', path: 'logout/', token: session.access_token, payload: { refresh_token: session.refresh_token } }), 200);
      const body = await get('admin/blacklisted-tokens/');
      const { jti, exp } = decodeJwt(session.access_token).payload as { jti: string; exp: number };
      assert.equal(body.count, 1);
      assert.deepEqual(body.results[0], { id: body.results[0].id, token_jti: jti, user: ann.id, user_email: 'ann@example.com',
        blacklisted_at: NOW.toISOString(), expires_at: new Date(exp * 1000).toISOString(), reason: 'logout', is_expired: false });
      assert.match(body.results[0].id, /^[0-9]+$/);
    });

    it('filters by user_id, reason and expired, and orders by blacklisted_at or expires_at', async () => {
      const other = await createUser(t);
      const a = await blacklistRow('a', 'logout', at(-300), at(600));
      const b = await blacklistRow('b', 'password_change', at(-200), at(-100));
      const c = await blacklistRow('c', 'security', at(-100), at(300), other.id);
      assert.deepEqual(ids(await get('admin/blacklisted-tokens/')), [c, b, a]);
      assert.deepEqual(ids(await get(`admin/blacklisted-tokens/?user_id=${other.id}`)), [c]);
      assert.deepEqual(ids(await get('admin/blacklisted-tokens/?reason=logout')), [a]);
      assert.deepEqual(ids(await get('admin/blacklisted-tokens/?reason=password_change')), [b]);
      assert.deepEqual(ids(await get('admin/blacklisted-tokens/?reason=security')), [c]);
      assert.deepEqual(ids(await get('admin/blacklisted-tokens/?expired=true')), [b]);
      assert.deepEqual(ids(await get('admin/blacklisted-tokens/?expired=false&ordering=expires_at')), [c, a]);
      assert.deepEqual((await get('admin/blacklisted-tokens/?expired=true')).results[0].is_expired, true);
      const orders: Record<string, string[]> = { blacklisted_at: [a, b, c], '-blacklisted_at': [c, b, a], expires_at: [b, c, a], '-expires_at': [a, c, b] };
      for (const [ordering, order] of Object.entries(orders)) assert.deepEqual(ids(await get(`admin/blacklisted-tokens/?ordering=${ordering}`)), order, ordering);
      assert.deepEqual((await get('admin/blacklisted-tokens/?reason=stolen', 400)).details, { reason: ['Must be one of: logout, password_change, security.'] });
      assert.deepEqual((await get('admin/blacklisted-tokens/?ordering=jti', 400)).details, { ordering: ['Must be one of: blacklisted_at, -blacklisted_at, expires_at, -expires_at.'] });
      assert.deepEqual((await get('admin/blacklisted-tokens/?user_id=abc', 400)).details, { user_id: ['Must be of type integer.'] });
    });

    it('cleanup/ (security.view) deletes only the entries whose token has expired', async () => {
      const live = await blacklistRow('live', 'logout', at(-10), at(600));
      await blacklistRow('old1', 'logout', at(-900), at(-600));
      await blacklistRow('old2', 'security', at(-900), at(0));
      assert.deepEqual(expectStatus(await post('admin/blacklisted-tokens/cleanup/'), 200), { message: '2 expired blacklist entries removed', deleted_count: 2 });
      assert.deepEqual(ids(await get('admin/blacklisted-tokens/')), [live]);
      assert.deepEqual(expectStatus(await post('admin/blacklisted-tokens/cleanup/'), 200), { message: '0 expired blacklist entries removed', deleted_count: 0 });
      assert.deepEqual(expectStatus(await post('admin/blacklisted-tokens/cleanup/', undefined, auditor.token), 403), permissionDenied('security.view'));
      const [event] = await auditEvents(t, 'blacklist_cleanup');
      assert.deepEqual([event?.actor_id, event?.details.deleted_count], [operator.id, 2]);
    });
  });

  describe('GET admin/refresh-tokens/ and revoke', () => {
    it('lists refresh tokens without their value, with user, application and state', async () => {
      const session = await signIn(t, ann, { device_info: 'v=1|os=Linux|device=Laptop' });
      const body = await get(`admin/refresh-tokens/?user_id=${ann.id}`);
      assert.equal(body.count, 1);
      assert.deepEqual(body.results[0], {
        id: body.results[0].id, user: ann.id, user_email: 'ann@example.com', application: t.credentials.id, application_name: 'Test App',
        device_info: 'v=1|os=Linux|device=Laptop', device_summary: 'Laptop (Linux)', ip_address: '127.0.0.1', is_revoked: false, is_rotated: false, is_expired: false,
        expires_at: new Date(NOW.getTime() + t.container.config.JWT_REFRESH_TOKEN_LIFETIME * 1000).toISOString(),
        created_at: NOW.toISOString(), last_used_at: null,
      });
      assert.equal(JSON.stringify(body).includes(session.refresh_token), false);
    });

    it('describes the device in words: from device_info, else from the User-Agent (curl), else null', async () => {
      await signIn(t, ann, { device_info: 'v=1|os=Android 14|device=Pixel 8|app=Acme 2.1' });
      t.clock.advance(10);
      await signIn(t, ann, { headers: { 'user-agent': 'curl/8.5.0' } });
      t.clock.advance(10);
      await signIn(t, ann, { headers: { 'user-agent': '' } });
      const body = await get(`admin/refresh-tokens/?user_id=${ann.id}&ordering=created_at`);
      assert.deepEqual(body.results.map((r: { device_info: string | null; device_summary: string | null }) => [r.device_info, r.device_summary]), [
        ['v=1|os=Android 14|device=Pixel 8|app=Acme 2.1', 'Acme 2.1 on Pixel 8 (Android 14)'],
        [null, 'curl'],
        [null, null],
      ]);
    });

    it('filters by user_id, application_id, is_revoked and expired, and orders by each allowed value', async () => {
      const other = await createApplication(t, { name: 'Mobile' });
      const s1 = await signIn(t, ann);
      t.clock.advance(10);
      await signIn(t, ann, { headers: other.headers });
      t.clock.advance(10);
      await signIn(t, ann);
      const rows = await t.container.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', ann.id).orderBy('id').execute();
      const [r1, r2, r3] = rows.map((r) => String(r.id)) as [string, string, string];
      await t.container.db.updateTable('refresh_tokens').set({ expires_at: at(-1), last_used_at: at(5) }).where('id', '=', Number(r1)).execute();
      await t.container.db.updateTable('refresh_tokens').set({ last_used_at: at(1) }).where('id', '=', Number(r3)).execute();
      expectStatus(await t.api({ method: 'POST', path: 'logout/', token: s1.access_token, payload: { refresh_token: s1.refresh_token } }), 200);
      const list = async (q: string) => ids(await get(`admin/refresh-tokens/?user_id=${ann.id}&${q}`));
      assert.deepEqual(await list(''), [r3, r2, r1]);
      assert.deepEqual(await list(`application_id=${other.id}`), [r2]);
      assert.deepEqual(await list('is_revoked=true'), [r1]);
      assert.deepEqual(await list('is_revoked=false'), [r3, r2]);
      assert.deepEqual(await list('expired=true'), [r1]);
      assert.deepEqual(await list('expired=false'), [r3, r2]);
      const orders: Record<string, string[]> = {
        created_at: [r1, r2, r3], '-created_at': [r3, r2, r1], expires_at: [r1, r2, r3], '-expires_at': [r3, r2, r1],
        last_used_at: [r3, r1, r2], '-last_used_at': [r1, r3, r2],
      };
      for (const [ordering, order] of Object.entries(orders)) assert.deepEqual(await list(`ordering=${ordering}`), order, ordering);
      assert.deepEqual((await get('admin/refresh-tokens/?ordering=token_hash', 400)).details,
        { ordering: ['Must be one of: created_at, -created_at, expires_at, -expires_at, last_used_at, -last_used_at.'] });
      assert.deepEqual((await get('admin/refresh-tokens/?is_revoked=revoked', 400)).details, { is_revoked: ['Must be of type boolean.'] });
    });

    it('revoke/ needs the phrase REVOKE, then ends the token\'s session: refresh and the session\'s access token fail', async () => {
      const session = await signIn(t, ann);
      const [{ id }] = (await get(`admin/refresh-tokens/?user_id=${ann.id}`)).results;
      for (const payload of [{}, { confirmation: 'revoke' }]) {
        assert.deepEqual(expectStatus(await post(`admin/refresh-tokens/${id}/revoke/`, payload), 400),
          { error: 'Send {"confirmation": "REVOKE"} to revoke this token', code: 'CONFIRMATION_REQUIRED' });
      }
      assert.equal((await t.api({ method: 'GET', path: 'me/', token: session.access_token })).statusCode, 200);
      const body = expectStatus(await post(`admin/refresh-tokens/${id}/revoke/`, { confirmation: 'REVOKE' }), 200);
      assert.equal(body.message, 'Refresh token revoked');
      assert.deepEqual([body.token.id, body.token.is_revoked, body.token.user], [id, true, ann.id]);
      assert.equal(expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: session.refresh_token } }), 401).code, 'REFRESH_FAILED');
      assert.equal(expectStatus(await t.api({ method: 'GET', path: 'me/', token: session.access_token }), 401).code, 'TOKEN_BLACKLISTED');
      assert.deepEqual(expectStatus(await post(`admin/refresh-tokens/${id}/revoke/`, { confirmation: 'REVOKE' }), 400),
        { error: 'This refresh token is already revoked', code: 'ALREADY_REVOKED' });
      const [event] = await auditEvents(t, 'refresh_token_revoked');
      assert.deepEqual([event?.user_id, event?.actor_id, event?.severity], [ann.id, operator.id, 'warning']);
    });

    it('revoke/ answers 404 for a missing token and 403 without security.view', async () => {
      assert.deepEqual(expectStatus(await post('admin/refresh-tokens/999999/revoke/', { confirmation: 'REVOKE' }), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await post('admin/refresh-tokens/nope/revoke/', { confirmation: 'REVOKE' }), 404), NOT_FOUND);
      await signIn(t, ann);
      const [{ id }] = (await get(`admin/refresh-tokens/?user_id=${ann.id}`)).results;
      assert.deepEqual(expectStatus(await post(`admin/refresh-tokens/${id}/revoke/`, { confirmation: 'REVOKE' }, auditor.token), 403), permissionDenied('security.view'));
    });
  });

  describe('GET admin/login-attempts/', () => {
    it('lists sign-in attempts, newest first, as {id, identifier, method, ip_address, application, success, failure_reason, created_at}', async () => {
      await t.container.db.deleteFrom('login_attempts').execute();
      t.clock.advance(60);
      await t.api({ method: 'POST', path: 'login/email/', payload: { email: 'ann@example.com', password: 'wrong password' } });
      const body = await get('admin/login-attempts/');
      assert.equal(body.count, 1);
      assert.deepEqual(body.results[0], { id: body.results[0].id, identifier: 'ann@example.com', method: 'password', ip_address: '127.0.0.1',
        application: t.credentials.id, success: false, failure_reason: 'invalid_credentials', created_at: at(60).toISOString() });
    });

    it('filters by identifier, ip_address, success, user_id, application_id and date range, and orders by each allowed value', async () => {
      await t.container.db.deleteFrom('login_attempts').execute();
      const other = await createApplication(t, { name: 'Mobile' });
      const insert = async (identifier: string, ip: string, success: boolean, createdAt: string, applicationId: number | null, userId: number | null) =>
        String((await t.container.db.insertInto('login_attempts').values({ identifier, method: 'password', ip_address: ip, success,
          created_at: createdAt, application_id: applicationId, user_id: userId, failure_reason: success ? null : 'invalid_credentials' })
          .returning('id').executeTakeFirstOrThrow()).id);
      const a = await insert('ann@example.com', '10.0.0.2', true, '2025-02-10T08:00:00Z', t.credentials.id, ann.id);
      const b = await insert('bob@example.com', '10.0.0.1', false, '2025-02-11T08:00:00Z', other.id, null);
      const c = await insert('ann@example.com', '10.0.0.3', false, '2025-02-12T08:00:00Z', t.credentials.id, ann.id);
      const list = async (q: string) => ids(await get(`admin/login-attempts/?${q}`));
      assert.deepEqual(await list(''), [c, b, a]);
      assert.deepEqual(await list('identifier=ANN@example.com'), [c, a]);
      assert.deepEqual(await list('identifier=ann'), []);
      assert.deepEqual(await list('ip_address=10.0.0.1'), [b]);
      assert.deepEqual(await list('success=true'), [a]);
      assert.deepEqual(await list('success=false'), [c, b]);
      assert.deepEqual(await list(`user_id=${ann.id}`), [c, a]);
      assert.deepEqual(await list(`application_id=${other.id}`), [b]);
      assert.deepEqual(await list('date_from=2025-02-11'), [c, b]);
      assert.deepEqual(await list('date_to=2025-02-11'), [b, a]);
      assert.deepEqual(await list('date_from=2025-02-11&date_to=2025-02-11'), [b]);
      const orders: Record<string, string[]> = {
        created_at: [a, b, c], '-created_at': [c, b, a], identifier: [a, c, b], '-identifier': [b, c, a], ip_address: [b, a, c], '-ip_address': [c, a, b],
      };
      for (const [ordering, order] of Object.entries(orders)) assert.deepEqual(await list(`ordering=${ordering}`), order, ordering);
      assert.deepEqual((await get('admin/login-attempts/?ordering=failure_reason', 400)).details,
        { ordering: ['Must be one of: created_at, -created_at, identifier, -identifier, ip_address, -ip_address.'] });
      assert.deepEqual((await get('admin/login-attempts/?success=nope', 400)).details, { success: ['Must be of type boolean.'] });
      assert.deepEqual((await get('admin/login-attempts/?date_to=2025-13-01', 400)).details, { date_to: ['Must be a valid date.'] });
    });
  });

  describe('GET admin/audit-logs/ and admin/audit-logs/<id>/', () => {
    it('shows an administrative change with the account concerned and the administrator who made it', async () => {
      const admin = await account(t, { roles: ['admin'], email: 'admin@example.com' });
      expectStatus(await t.api({ method: 'POST', path: `admin/users/${ann.id}/ban/`, token: admin.token, payload: { reason: 'spam' } }), 200);
      const body = await get('admin/audit-logs/?event_type=user_banned');
      assert.equal(body.count, 1);
      const [event] = body.results;
      assert.deepEqual(event, { id: event.id, event_type: 'user_banned', action: 'user_banned', severity: 'warning',
        user: ann.id, user_email: 'ann@example.com', actor: admin.id, actor_email: 'admin@example.com',
        application: t.credentials.id, application_name: 'Test App',
        ip_address: '127.0.0.1', user_agent: 'lightMyRequest', request_id: event.request_id,
        details: { reason: 'spam', sessions_revoked: 0 }, created_at: event.created_at });
      assert.match(event.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.deepEqual(await get(`admin/audit-logs/${event.id}/`), event);
      assert.deepEqual(await get('admin/audit-logs/999999/', 404), NOT_FOUND);
      assert.deepEqual(await get('admin/audit-logs/abc/', 404), NOT_FOUND);
    });

    it('filters by user_id, actor_id, event_type, severity, application_id, ip_address and date range, and orders by each allowed value', async () => {
      await t.container.db.deleteFrom('audit_events').execute();
      const other = await createApplication(t, { name: 'Mobile' });
      const insert = async (eventType: string, severity: string, createdAt: string, userId: number | null, actorId: number | null,
        applicationId: number | null, ip: string) =>
        String((await t.container.db.insertInto('audit_events').values({ event_type: eventType, severity, created_at: createdAt, user_id: userId,
          actor_id: actorId, application_id: applicationId, ip_address: ip, details: JSON.stringify({}) }).returning('id').executeTakeFirstOrThrow()).id);
      const a = await insert('login', 'info', '2025-02-10T08:00:00Z', ann.id, null, t.credentials.id, '10.0.0.1');
      const b = await insert('user_banned', 'warning', '2025-02-11T08:00:00Z', ann.id, operator.id, other.id, '10.0.0.2');
      const c = await insert('refresh_token_reuse', 'critical', '2025-02-12T08:00:00Z', operator.id, null, t.credentials.id, '10.0.0.2');
      const list = async (q: string) => ids(await get(`admin/audit-logs/?${q}`));
      assert.deepEqual(await list(''), [c, b, a]);
      assert.deepEqual(await list(`user_id=${ann.id}`), [b, a]);
      assert.deepEqual(await list(`actor_id=${operator.id}`), [b]);
      assert.deepEqual(await list('event_type=login'), [a]);
      assert.deepEqual(await list('severity=critical'), [c]);
      assert.deepEqual(await list('severity=warning'), [b]);
      assert.deepEqual(await list('severity=info'), [a]);
      assert.deepEqual(await list(`application_id=${other.id}`), [b]);
      assert.deepEqual(await list('ip_address=10.0.0.2'), [c, b]);
      assert.deepEqual(await list('date_from=2025-02-11&date_to=2025-02-11'), [b]);
      const orders: Record<string, string[]> = {
        created_at: [a, b, c], '-created_at': [c, b, a], event_type: [a, c, b], '-event_type': [b, c, a],
        severity: [c, a, b], '-severity': [b, a, c],
      };
      for (const [ordering, order] of Object.entries(orders)) assert.deepEqual(await list(`ordering=${ordering}`), order, ordering);
      assert.deepEqual((await get('admin/audit-logs/?severity=debug', 400)).details, { severity: ['Must be one of: info, warning, critical.'] });
      assert.deepEqual((await get("admin/audit-logs/?event_type=x'%20or%201=1", 400)).details, { event_type: ['Has an invalid format.'] });
      assert.deepEqual((await get('admin/audit-logs/?ordering=details', 400)).details, { ordering: ['Must be one of: created_at, -created_at, event_type, -event_type, severity, -severity.'] });
    });
  });
});

// see: issue 12 — a token retired by rotation was listed as live, and revoke/ on it answered ALREADY_REVOKED.
describe('admin/refresh-tokens/ lists every dead token as revoked (rotation on)', () => {
  let t: TestApp;
  let auditor: Account;
  let operator: Account;
  let ann: TestUser;
  const f = adminFixture({ SVC_REFRESH_TOKEN_ROTATION: 'true' });
  beforeEach(() => ({ t, auditor, operator, ann } = f));

  const list = async (query = '') => expectStatus(await t.api({ method: 'GET', path: `admin/refresh-tokens/?user_id=${ann.id}&ordering=created_at${query}`, token: auditor.token }), 200)
    .results as { id: string; is_revoked: boolean; is_rotated: boolean }[];
  const state = async () => (await list()).map((r) => [r.is_revoked, r.is_rotated]);
  const refresh = (refreshToken: string) => t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: refreshToken } });
  const revoke = (id: string) => t.api({ method: 'POST', path: `admin/refresh-tokens/${id}/revoke/`, token: operator.token, payload: { confirmation: 'REVOKE' } });

  it('lists a token retired by rotation as revoked, filters it out of is_revoked=false, and revoke/ on it answers ALREADY_REVOKED', async () => {
    const first = await signIn(t, ann);
    t.clock.advance(5);
    const second = expectStatus(await refresh(first.refresh_token), 200);
    assert.deepEqual(await state(), [[true, true], [false, false]]);
    const [retired, live] = (await list()).map((r) => r.id) as [string, string];
    assert.deepEqual((await list('&is_revoked=false')).map((r) => r.id), [live]);
    assert.deepEqual((await list('&is_revoked=true')).map((r) => r.id), [retired]);
    assert.deepEqual(expectStatus(await revoke(retired), 400), { error: 'This refresh token is already revoked', code: 'ALREADY_REVOKED' });
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: second.access_token })).statusCode, 200, 'the live successor is untouched');
    assert.equal(expectStatus(await revoke(live), 200).token.is_revoked, true);
    assert.deepEqual((await list('&is_revoked=false')).map((r) => r.id), []);
  });

  it('lists the tokens of a session ended by reuse detection as revoked', async () => {
    const first = await signIn(t, ann);
    t.clock.advance(5);
    expectStatus(await refresh(first.refresh_token), 200);
    t.clock.advance(60);
    assert.equal(expectStatus(await refresh(first.refresh_token), 401).code, 'REFRESH_FAILED');
    assert.deepEqual(await state(), [[true, true], [true, false]]);
    assert.deepEqual(await list('&is_revoked=false'), []);
  });

  it('lists the tokens of sessions ended by a password change or a logout as revoked, the caller\'s own excepted', async () => {
    const other = await signIn(t, ann);
    const loggedOut = await signIn(t, ann);
    const mine = await signIn(t, ann);
    expectStatus(await t.api({ method: 'POST', path: 'logout/', token: loggedOut.access_token, payload: { refresh_token: loggedOut.refresh_token } }), 200);
    expectStatus(await t.api({ method: 'POST', path: 'password/change/', token: mine.access_token,
      payload: { current_password: ann.password, new_password: 'another long passphrase 42' } }), 200);
    assert.equal(expectStatus(await refresh(other.refresh_token), 401).code, 'REFRESH_FAILED');
    assert.deepEqual((await state()).map(([revoked]) => revoked), [true, true, false]);
    const [otherId, loggedOutId] = (await list()).map((r) => r.id) as [string, string];
    for (const id of [otherId, loggedOutId]) assert.equal(expectStatus(await revoke(id), 400).code, 'ALREADY_REVOKED');
  });
});
