import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import {
  clearInbox, loginCodeFor, MAGIC_LINK_ON, OTP_LOGIN_ON, otherCode, requestLoginCode, requestMagicLink, verifyLoginCode,
  verifyMagicLink,
} from './helpers.js';

const PHONE = '+33612345678';
const LOCKOUT_SECONDS = 900;

// The apps of the describes below share one database; holding it here avoids reopening it for each.

/** 423 ACCOUNT_LOCKED whose `retry_after` is the ISO time the lock ends (login/otp/verify/, docs/decisions.md). */
function assertLockedUntil(res: LightMyRequestResponse, until: Date) {
  const body = assertError(res, 423, 'ACCOUNT_LOCKED', { retry_after: undefined });
  assert.equal(typeof body.retry_after, 'string', res.body);
  assert.equal(body.retry_after, until.toISOString());
}

describe('login code lockout', () => {
  const t = useTestApp({ env: { ...OTP_LOGIN_ON, SVC_MAX_LOGIN_ATTEMPTS: '3', SVC_LOCKOUT_DURATION: String(LOCKOUT_SECONDS) } });
  beforeEach(() => { clearInbox(t); });

  it('locks the account after wrong codes and answers 423 with retry_after as a timestamp, even for the right code', async () => {
    await createUser(t, { phone: PHONE });
    const code = await loginCodeFor(t, PHONE);
    const until = new Date(t.clock.now().getTime() + LOCKOUT_SECONDS * 1000);
    assertError(await verifyLoginCode(t, PHONE, otherCode(code)), 401, 'OTP_INVALID');
    assertError(await verifyLoginCode(t, PHONE, otherCode(code)), 401, 'OTP_INVALID');
    assertLockedUntil(await verifyLoginCode(t, PHONE, otherCode(code)), until);
    t.clock.advance(60);
    assertLockedUntil(await verifyLoginCode(t, PHONE, code), until);
    const row = await t.container.db.selectFrom('users').select(['locked_until', 'is_phone_verified'])
      .where('phone', '=', PHONE).executeTakeFirstOrThrow();
    assert.equal(row.locked_until?.toISOString(), until.toISOString());
    assert.equal(row.is_phone_verified, false);
  });

  it('signs in with the code once the lock has ended', async () => {
    await createUser(t, { phone: PHONE });
    for (let i = 0; i < 3; i++) await verifyLoginCode(t, PHONE, '000000');
    t.clock.advance(LOCKOUT_SECONDS + 1);
    const res = await verifyLoginCode(t, PHONE, await loginCodeFor(t, PHONE));
    assert.equal(res.statusCode, 200, res.body);
  });

  it('counts unknown phones the same way, so the 423 reveals nothing', async () => {
    const unknown = '+33698765432';
    const until = new Date(t.clock.now().getTime() + LOCKOUT_SECONDS * 1000);
    assertError(await verifyLoginCode(t, unknown, '123456'), 401, 'OTP_INVALID');
    assertError(await verifyLoginCode(t, unknown, '123456'), 401, 'OTP_INVALID');
    assertLockedUntil(await verifyLoginCode(t, unknown, '123456'), until);
    assertLockedUntil(await verifyLoginCode(t, unknown, '123456'), until);
  });

  it('keeps the seconds form of retry_after on password logins', async () => {
    const user = await createUser(t, { phone: PHONE });
    for (let i = 0; i < 3; i++) await verifyLoginCode(t, PHONE, '000000');
    const res = await t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } });
    assertError(res, 423, 'ACCOUNT_LOCKED', { retry_after: LOCKOUT_SECONDS });
  });
});

describe('passwordless rate limits', () => {
  const t = useTestApp({ env: { ...OTP_LOGIN_ON, ...MAGIC_LINK_ON, SVC_DEBUG: 'false', SVC_RATE_LIMITING_ENABLED: 'true',
    SVC_TRUSTED_PROXIES: '127.0.0.1', SVC_BREACH_CHECK_ENABLED: 'false' }, reset: false });

  /** Each test uses its own client address (through the trusted proxy), so counters never leak between tests. */
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  function assertThrottled(res: LightMyRequestResponse, maxRetryAfter: number) {
    assert.equal(res.statusCode, 429, res.body);
    const body = res.json();
    assert.equal(body.code, 'RATE_LIMITED');
    assert.ok(Number.isInteger(body.retry_after) && body.retry_after >= 1 && body.retry_after <= maxRetryAfter, res.body);
    assert.equal(res.headers['retry-after'], String(body.retry_after));
  }

  it('login/otp/request/ answers 429 after 5 requests a minute', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await requestLoginCode(t, `+3361234567${i}`, from('198.51.100.11'))).statusCode, 200);
    }
    assertThrottled(await requestLoginCode(t, '+33612345679', from('198.51.100.11')), 60);
    assert.equal((await requestLoginCode(t, '+33612345679', from('198.51.100.12'))).statusCode, 200);
  });

  it('login/otp/verify/ answers 429 after 5 attempts a minute', async () => {
    for (let i = 0; i < 5; i++) {
      assertError(await verifyLoginCode(t, `+3369876543${i}`, '123456', {}, from('198.51.100.21')), 401, 'OTP_INVALID');
    }
    assertThrottled(await verifyLoginCode(t, '+33698765439', '123456', {}, from('198.51.100.21')), 60);
  });

  it('magic-link/request/ answers 429 after 3 requests an hour', async () => {
    const payload = { email: 'nobody@example.com', validation_url: 'http://localhost:3000/callback' };
    for (let i = 0; i < 3; i++) assert.equal((await requestMagicLink(t, payload, from('198.51.100.31'))).statusCode, 200);
    assertThrottled(await requestMagicLink(t, payload, from('198.51.100.31')), 3600);
  });

  it('magic-link/verify/ answers 429 after 5 attempts a minute', async () => {
    for (let i = 0; i < 5; i++) {
      assertError(await verifyMagicLink(t, { token: `unknown-${i}` }, from('198.51.100.41')), 401, 'INVALID_TOKEN');
    }
    assertThrottled(await verifyMagicLink(t, { token: 'unknown' }, from('198.51.100.41')), 60);
  });
});
