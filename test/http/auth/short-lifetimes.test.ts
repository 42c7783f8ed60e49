import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { clearInbox, lastEmailCode } from '../otp/helpers.js';
import { assertError } from './assertions.js';

// see: issue 12 — users test their own clients' refresh and expiry logic against lifetimes of a few seconds.
describe('lifetimes of a few seconds (SVC_JWT_ACCESS_TOKEN_LIFETIME=2, SVC_JWT_REFRESH_TOKEN_LIFETIME=5, SVC_OTP_LIFETIME=8)', () => {
  const t = useTestApp({ env: { SVC_DEBUG: 'false', SVC_SHORTCUT_SECURE_MODE: 'medium', SVC_BREACH_CHECK_ENABLED: 'false',
    SVC_JWT_ACCESS_TOKEN_LIFETIME: '2', SVC_JWT_REFRESH_TOKEN_LIFETIME: '5', SVC_OTP_LIFETIME: '8' } });
  beforeEach(() => { clearInbox(t); });

  it('issues an access token that lives 2 seconds, then answers TOKEN_EXPIRED, and refresh gives a new one', async () => {
    const tokens = await signIn(t, await createUser(t));
    assert.equal(tokens.expires_in, 2);
    assert.equal(tokens.refresh_expires_in, 5);
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: tokens.access_token })).statusCode, 200);
    t.clock.advance(3);
    assertError(await t.api({ method: 'GET', path: 'me/', token: tokens.access_token }), 401, 'TOKEN_EXPIRED');
    const refreshed = await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: tokens.refresh_token } });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    assert.equal(refreshed.json().expires_in, 2);
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: refreshed.json().access_token })).statusCode, 200);
  });

  it('lets the refresh token expire after 5 seconds', async () => {
    const tokens = await signIn(t, await createUser(t));
    t.clock.advance(6);
    assertError(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: tokens.refresh_token } }), 401, 'REFRESH_FAILED');
  });

  it('accepts an email code for 8 seconds and refuses it after', async () => {
    const user = await createUser(t, { email: 'ann@example.com' });
    const token = async () => (await signIn(t, user)).access_token;
    const request = async (as: string) => assert.equal((await t.api({ method: 'POST', path: 'otp/request/', token: as, payload: { otp_type: 'email' } })).statusCode, 200);
    const verify = (as: string, code: string) => t.api({ method: 'POST', path: 'otp/verify/email/', token: as, payload: { code } });

    let as = await token();
    await request(as);
    const late = await lastEmailCode(t, 'ann@example.com');
    t.clock.advance(9);
    as = await token();
    assertError(await verify(as, late), 401, 'INVALID_OTP');

    await request(as);
    const inTime = await lastEmailCode(t, 'ann@example.com');
    t.clock.advance(1);
    assert.equal((await verify(as, inTime)).statusCode, 200);
  });
});
