import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { deviceInfo, signIn } from '../../factories/sessions.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { createTestApp, useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from './assertions.js';

const WRONG = 'not the password at all';

const loginEmail = (t: TestApp, email: string, password: string, headers?: Record<string, string>) =>
  t.api({ method: 'POST', path: 'login/email/', payload: { email, password }, headers });

/** `n` logins with a wrong password; answers the responses. */
async function fail(t: TestApp, email: string, n: number) {
  const out: LightMyRequestResponse[] = [];
  for (let i = 0; i < n; i++) out.push(await loginEmail(t, email, WRONG));
  return out;
}

function assertLocked(res: LightMyRequestResponse, retryAfter: number) {
  assertError(res, 423, 'ACCOUNT_LOCKED', { retry_after: retryAfter });
  assert.ok(Number.isInteger(res.json().retry_after));
}

describe('account lockout', () => {
  const ATTEMPTS = 3;
  const DURATION = 600;
  const t = useTestApp({ env: { SVC_MAX_LOGIN_ATTEMPTS: String(ATTEMPTS), SVC_LOCKOUT_DURATION: String(DURATION) } });

  it('answers 423 ACCOUNT_LOCKED with an integer retry_after once SVC_MAX_LOGIN_ATTEMPTS checks have failed', async () => {
    const user = await createUser(t);
    const answers = await fail(t, user.email!, ATTEMPTS);
    for (const res of answers.slice(0, -1)) assertError(res, 401, 'LOGIN_FAILED');
    assertLocked(answers.at(-1)!, DURATION);
    assertLocked(await loginEmail(t, user.email!, WRONG), DURATION);
    t.clock.advance(100);
    assertLocked(await loginEmail(t, user.email!, WRONG), DURATION - 100);
    const row = await userRow(t, user.id);
    assert.equal(row.locked_until?.getTime(), t.clock.now().getTime() + (DURATION - 100) * 1000);
  });

  it('counts every failure of a concurrent burst, so the burst ends in a lock', async () => {
    const user = await createUser(t);
    const burst = await Promise.all(Array.from({ length: 12 }, () => loginEmail(t, user.email!, WRONG)));
    const statuses = burst.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 401).length, ATTEMPTS - 1, String(statuses));
    assert.equal(statuses.filter((s) => s === 423).length, 12 - (ATTEMPTS - 1), String(statuses));
    assertLocked(await loginEmail(t, user.email!, user.password!), DURATION);
    const unknown = await Promise.all(Array.from({ length: 12 }, () => loginEmail(t, 'nobody@example.com', WRONG)));
    assert.deepEqual(unknown.map((r) => r.statusCode).sort(), statuses.sort(), 'an unknown identifier answers the same');
    const row = await userRow(t, user.id);
    assert.equal(row.lockout_count, 1, 'the burst locked once');
  });

  it('answers the same 423 body to the right and the wrong password while locked', async () => {
    const user = await createUser(t);
    await fail(t, user.email!, ATTEMPTS);
    const right = await loginEmail(t, user.email!, user.password!);
    const wrong = await loginEmail(t, user.email!, WRONG);
    assertLocked(right, DURATION);
    assert.equal(right.body, wrong.body);
    assert.equal(await t.container.db.selectFrom('sessions').select('id').executeTakeFirst(), undefined);
  });

  it('locks an unknown identifier after the same number of attempts, with the same answers', async () => {
    const user = await createUser(t);
    const known = await fail(t, user.email!, ATTEMPTS + 1);
    const unknown = await fail(t, 'nobody@example.com', ATTEMPTS + 1);
    assert.deepEqual(unknown.map((r) => r.statusCode), known.map((r) => r.statusCode));
    assert.deepEqual(unknown.map((r) => r.body), known.map((r) => r.body));
    assertLocked(unknown.at(-1)!, DURATION);
    assert.equal((await loginEmail(t, 'somebody-else@example.com', WRONG)).statusCode, 401, 'other identifiers are not locked');
  });

  it('counts phone logins against the same account', async () => {
    const user = await createUser(t, { phone: '+14155552671' });
    for (let i = 0; i < ATTEMPTS - 1; i++) {
      const res = await t.api({ method: 'POST', path: 'login/phone/',
        payload: { phone_country_code: '+1', phone_number: '4155552671', password: WRONG } });
      assertError(res, 401, 'LOGIN_FAILED');
    }
    assertLocked(await loginEmail(t, user.email!, WRONG), DURATION);
  });

  it('ends the lock when the clock passes it, and locks twice as long the next time', async () => {
    const user = await createUser(t);
    await fail(t, user.email!, ATTEMPTS);
    t.clock.advance(DURATION - 1);
    assertLocked(await loginEmail(t, user.email!, user.password!), 1);
    t.clock.advance(2);
    const afterLock = await fail(t, user.email!, ATTEMPTS);
    for (const res of afterLock.slice(0, -1)) assertError(res, 401, 'LOGIN_FAILED');
    assertLocked(afterLock.at(-1)!, 2 * DURATION);
    t.clock.advance(2 * DURATION + 1);
    assertLocked((await fail(t, user.email!, ATTEMPTS)).at(-1)!, 4 * DURATION);
  });

  it('lets the right password in once the lock has ended', async () => {
    const user = await createUser(t);
    await fail(t, user.email!, ATTEMPTS);
    t.clock.advance(DURATION + 1);
    assert.equal((await loginEmail(t, user.email!, user.password!)).statusCode, 200);
  });

  it('doubles the lock of an unknown identifier the same way', async () => {
    await fail(t, 'nobody@example.com', ATTEMPTS);
    t.clock.advance(DURATION + 1);
    assertLocked((await fail(t, 'nobody@example.com', ATTEMPTS)).at(-1)!, 2 * DURATION);
  });

  it('resets the failure counter and the doubling on a successful login', async () => {
    const user = await createUser(t);
    await fail(t, user.email!, ATTEMPTS - 1);
    assert.equal((await loginEmail(t, user.email!, user.password!)).statusCode, 200);
    for (const res of await fail(t, user.email!, ATTEMPTS - 1)) assertError(res, 401, 'LOGIN_FAILED');
    assert.equal((await loginEmail(t, user.email!, user.password!)).statusCode, 200);

    await fail(t, user.email!, ATTEMPTS);
    t.clock.advance(DURATION + 1);
    assert.equal((await loginEmail(t, user.email!, user.password!)).statusCode, 200);
    assertLocked((await fail(t, user.email!, ATTEMPTS)).at(-1)!, DURATION);
  });
});

describe('account lockout limits', () => {
  it('caps the lock at 24 hours', async () => {
    const t = await createTestApp({ env: { SVC_MAX_LOGIN_ATTEMPTS: '2', SVC_LOCKOUT_DURATION: '50000' } });
    try {
      await t.reset();
      const user = await createUser(t);
      assertLocked((await fail(t, user.email!, 2)).at(-1)!, 50000);
      t.clock.advance(50001);
      assertLocked((await fail(t, user.email!, 2)).at(-1)!, 86400);
      t.clock.advance(86401);
      assertLocked((await fail(t, user.email!, 2)).at(-1)!, 86400);
    } finally {
      await t.close();
    }
  });

  it('follows the preset: 3 attempts and 60 minutes in robust', async () => {
    const t = await createTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'robust' } });
    try {
      await t.reset();
      const user = await createUser(t);
      const answers = await fail(t, user.email!, 3);
      assert.deepEqual(answers.map((r) => r.statusCode), [401, 401, 423]);
      assertLocked(answers[2]!, 3600);
    } finally {
      await t.close();
    }
  });

  it('follows the preset: 10 attempts and 15 minutes in development', async () => {
    const t = await createTestApp();
    try {
      await t.reset();
      const user = await createUser(t);
      const answers = await fail(t, user.email!, 10);
      assert.deepEqual(answers.map((r) => r.statusCode), [...Array(9).fill(401), 423]);
      assertLocked(answers[9]!, 900);
    } finally {
      await t.close();
    }
  });

  it('never locks with SVC_ACCOUNT_LOCKOUT_ENABLED=false', async () => {
    const t = await createTestApp({ env: { SVC_ACCOUNT_LOCKOUT_ENABLED: 'false', SVC_MAX_LOGIN_ATTEMPTS: '2' } });
    try {
      await t.reset();
      const user = await createUser(t);
      for (const res of [...await fail(t, user.email!, 6), ...await fail(t, 'nobody@example.com', 6)]) {
        assertError(res, 401, 'LOGIN_FAILED');
      }
      assert.equal((await loginEmail(t, user.email!, user.password!)).statusCode, 200);
      assert.equal((await userRow(t, user.id)).locked_until, null);
    } finally {
      await t.close();
    }
  });
});

describe('login attempts and audit events', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true', SVC_MAX_LOGIN_ATTEMPTS: '2' } });

  const attempts = () => t.container.db.selectFrom('login_attempts')
    .select(['identifier', 'method', 'user_id', 'ip_address', 'application_id', 'success', 'failure_reason', 'created_at'])
    .orderBy('id').execute();
  const events = (type: string) => t.container.db.selectFrom('audit_events')
    .select(['event_type', 'severity', 'user_id', 'application_id', 'ip_address', 'details']).where('event_type', '=', type)
    .orderBy('id').execute();

  it('records every attempt with identifier, ip_address, application, success and failure_reason', async () => {
    const user = await createUser(t, { email: 'ann@example.com', phone: '+14155552671' });
    const inactive = await createUser(t, { email: 'off@example.com', is_active: false });
    const banned = await createUser(t, { email: 'out@example.com', is_banned: true });
    const twoFactor = await createUser(t, { email: 'tfa@example.com', is_2fa_enabled: true });
    await loginEmail(t, 'ann@example.com', user.password!);
    await loginEmail(t, 'ann@example.com', WRONG);
    await t.api({ method: 'POST', path: 'login/phone/', payload: { phone_country_code: '+1', phone_number: '4155552671', password: user.password } });
    await loginEmail(t, 'nobody@example.com', WRONG);
    await loginEmail(t, inactive.email!, inactive.password!);
    await loginEmail(t, banned.email!, banned.password!);
    await loginEmail(t, twoFactor.email!, twoFactor.password!);
    await fail(t, 'ann@example.com', 2);
    await loginEmail(t, 'ann@example.com', user.password!);

    const base = { method: 'password', ip_address: '127.0.0.1', application_id: t.credentials.id, created_at: t.clock.now() };
    assert.deepEqual(await attempts(), [
      { ...base, identifier: 'ann@example.com', user_id: user.id, success: true, failure_reason: null },
      { ...base, identifier: 'ann@example.com', user_id: user.id, success: false, failure_reason: 'invalid_credentials' },
      { ...base, identifier: '+14155552671', user_id: user.id, success: true, failure_reason: null },
      { ...base, identifier: 'nobody@example.com', user_id: null, success: false, failure_reason: 'invalid_credentials' },
      { ...base, identifier: 'off@example.com', user_id: inactive.id, success: false, failure_reason: 'inactive' },
      { ...base, identifier: 'out@example.com', user_id: banned.id, success: false, failure_reason: 'banned' },
      { ...base, identifier: 'tfa@example.com', user_id: twoFactor.id, success: false, failure_reason: '2fa_required' },
      { ...base, identifier: 'ann@example.com', user_id: user.id, success: false, failure_reason: 'invalid_credentials' },
      { ...base, identifier: 'ann@example.com', user_id: user.id, success: false, failure_reason: 'invalid_credentials' },
      { ...base, identifier: 'ann@example.com', user_id: user.id, success: false, failure_reason: 'account_locked' },
    ]);
  });

  it('records a login refused by a limit as a failed attempt', async () => {
    const user = await createUser(t, { max_sessions: 1 });
    await signIn(t, user);
    assertError(await loginEmail(t, user.email!, user.password!), 409, 'SESSION_LIMIT_EXCEEDED');
    const last = (await attempts()).at(-1)!;
    assert.equal(last.success, false);
    assert.equal(last.failure_reason, 'session_limit_exceeded');
  });

  it('writes login, login_failed, token_refresh, logout, logout_all and account_locked events', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    await loginEmail(t, user.email!, WRONG);
    await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: tokens.refresh_token } });
    await t.api({ method: 'POST', path: 'logout/', token: tokens.access_token, payload: { refresh_token: tokens.refresh_token } });
    const other = await signIn(t, user, { device_info: deviceInfo(2) });
    await t.api({ method: 'POST', path: 'logout/all/', token: other.access_token });
    await fail(t, user.email!, 2);

    const common = { user_id: user.id, application_id: t.credentials.id, ip_address: '127.0.0.1' };
    const [login] = await events('login');
    assert.deepEqual({ ...login, details: undefined }, { event_type: 'login', severity: 'info', ...common, details: undefined });
    assert.equal(login!.details.session_id, Number(tokens.session_id));
    const failed = await events('login_failed');
    assert.deepEqual(failed.map((e) => [e.user_id, e.severity, e.details.reason]),
      [[user.id, 'info', 'invalid_credentials'], [user.id, 'info', 'invalid_credentials'], [user.id, 'info', 'invalid_credentials']]);
    for (const type of ['token_refresh', 'logout', 'logout_all']) {
      const [event] = await events(type);
      assert.ok(event, type);
      assert.deepEqual({ user_id: event.user_id, application_id: event.application_id, ip_address: event.ip_address }, common, type);
    }
    assert.equal((await events('logout_all'))[0]!.details.devices, 1);
    const [locked] = await events('account_locked');
    assert.equal(locked?.severity, 'warning');
    assert.equal(locked?.user_id, user.id);
  });

  it('records account_locked for an unknown identifier without a user', async () => {
    await fail(t, 'nobody@example.com', 2);
    const [locked] = await events('account_locked');
    assert.equal(locked?.user_id, null);
  });
});

describe('audit events with audit logging off', () => {
  it('still writes the account_locked security event, but no routine event', async () => {
    const t = await createTestApp({ env: { SVC_MAX_LOGIN_ATTEMPTS: '2' } });
    try {
      await t.reset();
      assert.equal(t.container.config.AUDIT_LOGGING_ENABLED, false);
      const user = await createUser(t);
      await signIn(t, user);
      await fail(t, user.email!, 2);
      const rows = await t.container.db.selectFrom('audit_events').select(['event_type', 'user_id']).execute();
      assert.deepEqual(rows, [{ event_type: 'account_locked', user_id: user.id }]);
    } finally {
      await t.close();
    }
  });
});

describe('login rate limits', () => {
  const OUTSIDE_DEBUG = { SVC_DEBUG: 'false', SVC_SHORTCUT_SECURE_MODE: 'development', SVC_RATE_LIMITING_ENABLED: 'true',
    SVC_TRUSTED_PROXIES: '127.0.0.1' };
  const t = useTestApp({ env: OUTSIDE_DEBUG });
  let ip = 0;
  /** Every test uses its own client address (through the trusted proxy), so counters never leak between tests. */
  const nextIp = () => `203.0.113.${++ip}`;

  function assertThrottled(res: LightMyRequestResponse, window = 60) {
    assertError(res, 429, 'RATE_LIMITED', { retry_after: undefined });
    const body = res.json();
    assert.ok(Number.isInteger(body.retry_after) && body.retry_after >= 1 && body.retry_after <= window, res.body);
    assert.equal(res.headers['retry-after'], String(body.retry_after));
  }

  it('answers 429 RATE_LIMITED with retry_after on the sixth login within a minute, email and phone together', async () => {
    const user = await createUser(t, { phone: '+14155552671' });
    const headers = { 'x-forwarded-for': nextIp() };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await loginEmail(t, user.email!, user.password!, headers)).statusCode);
    for (let i = 0; i < 2; i++) {
      statuses.push((await t.api({ method: 'POST', path: 'login/phone/', headers,
        payload: { phone_country_code: '+1', phone_number: '4155552671', password: user.password } })).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    assertThrottled(await loginEmail(t, user.email!, user.password!, headers));
    assertThrottled(await t.api({ method: 'POST', path: 'login/phone/', headers, payload: {} }));
    assert.equal((await loginEmail(t, user.email!, user.password!, { 'x-forwarded-for': nextIp() })).statusCode, 200,
      'another client is not limited');
  });

  it('throttles before any password check', async () => {
    const user = await createUser(t);
    const headers = { 'x-forwarded-for': nextIp() };
    for (let i = 0; i < 5; i++) await loginEmail(t, user.email!, WRONG, headers);
    assertThrottled(await loginEmail(t, user.email!, WRONG, headers));
    assert.equal((await t.container.db.selectFrom('login_attempts').select('id').execute()).length, 5);
  });

  it('answers 429 on the fourth registration within an hour', async () => {
    const headers = { 'x-forwarded-for': nextIp() };
    for (let i = 0; i < 3; i++) {
      const res = await t.api({ method: 'POST', path: 'register/', headers,
        payload: { email: `u${i}@example.com`, password: 'long enough password' } });
      assert.equal(res.statusCode, 201, res.body);
    }
    assertThrottled(await t.api({ method: 'POST', path: 'register/', headers,
      payload: { email: 'u9@example.com', password: 'long enough password' } }), 3600);
  });

  it('answers 429 on the 31st refresh within a minute', async () => {
    const headers = { 'x-forwarded-for': nextIp() };
    for (let i = 0; i < 30; i++) assert.equal((await t.api({ method: 'POST', path: 'refresh/', headers, payload: {} })).statusCode, 400);
    assertThrottled(await t.api({ method: 'POST', path: 'refresh/', headers, payload: {} }));
  });
});

describe('login rate limits in debug mode', () => {
  it('allows ten times as many logins', async () => {
    const t = await createTestApp({ env: { SVC_RATE_LIMITING_ENABLED: 'true' } });
    try {
      await t.reset();
      const statuses = [];
      for (let i = 0; i < 51; i++) statuses.push((await t.api({ method: 'POST', path: 'login/email/', payload: {} })).statusCode);
      assert.deepEqual(statuses, [...Array(50).fill(400), 429]);
    } finally {
      await t.close();
    }
  });
});
