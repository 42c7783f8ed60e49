import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { sdk, SDK_HEADERS } from './sdk-request.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const LOCKOUT_SECONDS = 900;

/** The body's `retry_after` (seconds) and the `Retry-After` header the SDK reads: both there, and equal. */
function retryAfterOf(res: LightMyRequestResponse, status: number, code: string): number {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.equal(body.code, code);
  assert.ok(Number.isInteger(body.retry_after) && body.retry_after >= 1, res.body);
  assert.equal(res.headers['retry-after'], String(body.retry_after));
  return body.retry_after;
}

/** SDK compatibility (docs/migrating-from-tenxyte.md): every 429 and 423 carries `Retry-After` as well as the body's `retry_after`. */
describe('SDK compatibility: Retry-After on 429 and 423', () => {
  const locking = useTestApp({ now: NOW, env: { SVC_OTP_LOGIN_ENABLED: 'true', SVC_MAX_LOGIN_ATTEMPTS: '3',
    SVC_LOCKOUT_DURATION: String(LOCKOUT_SECONDS) } });
  // Outside debug mode, where limits are not multiplied by 10.
  const limiting = useTestApp({ env: { SVC_DEBUG: 'false', SVC_SHORTCUT_SECURE_MODE: 'development', SVC_RATE_LIMITING_ENABLED: 'true' } });

  const loginEmail = (t: TestApp, email: string, password: string) => sdk(t, 'POST', 'login/email/', { body: { email, password } });

  it('423 ACCOUNT_LOCKED after failed logins: Retry-After is the lock\'s remaining seconds', async () => {
    const user = await createUser(locking);
    for (let i = 0; i < 2; i++) assert.equal((await loginEmail(locking, user.email!, 'wrong password')).statusCode, 401);
    assert.equal(retryAfterOf(await loginEmail(locking, user.email!, 'wrong password'), 423, 'ACCOUNT_LOCKED'), LOCKOUT_SECONDS);
    locking.clock.advance(60);
    assert.equal(retryAfterOf(await loginEmail(locking, user.email!, user.password!), 423, 'ACCOUNT_LOCKED'), LOCKOUT_SECONDS - 60);
  });

  it('423 of an account an administrator locked', async () => {
    const user = await createUser(locking, { locked_until: new Date(NOW.getTime() + 120_000) });
    assert.equal(retryAfterOf(await loginEmail(locking, user.email!, user.password!), 423, 'ACCOUNT_LOCKED'), 120);
  });

  it('423 of login/otp/verify/, whose body states a timestamp: Retry-After is the same instant as an HTTP-date', async () => {
    await createUser(locking, { phone: '+33612345678', locked_until: new Date(NOW.getTime() + 120_000) });
    const res = await locking.api({ method: 'POST', path: 'login/otp/verify/', headers: SDK_HEADERS,
      payload: { phone_country_code: '+33', phone_number: '612345678', otp_code: '123456' } });
    assert.equal(res.statusCode, 423, res.body);
    assert.equal(res.json().retry_after, '2025-03-01T10:02:00.000Z');
    assert.equal(res.headers['retry-after'], 'Sat, 01 Mar 2025 10:02:00 GMT');
  });

  it('429 RATE_LIMITED once a client is over a login window', async () => {
    const user = await createUser(limiting);
    for (let i = 0; i < 5; i++) assert.equal((await loginEmail(limiting, user.email!, user.password!)).statusCode, 200);
    assert.ok(retryAfterOf(await loginEmail(limiting, user.email!, user.password!), 429, 'RATE_LIMITED') <= 60);
  });

  it('sends no Retry-After on other refusals', async () => {
    const res = await loginEmail(locking, 'nobody@example.com', 'wrong password');
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.headers['retry-after'], undefined);
  });
});
