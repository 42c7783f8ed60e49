import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { decodeJwt, deviceInfo, signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { createTestApp, useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from './assertions.js';

const FAILED = { error: 'Refresh token is invalid, expired or revoked', code: 'REFRESH_FAILED' };

const logout = (t: TestApp, refreshToken: string | undefined, token?: string) =>
  t.api({ method: 'POST', path: 'logout/', token, payload: refreshToken === undefined ? {} : { refresh_token: refreshToken } });
const logoutAll = (t: TestApp, token?: string) => t.api({ method: 'POST', path: 'logout/all/', token });
const refresh = (t: TestApp, refreshToken: string) => t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: refreshToken } });
const me = (t: TestApp, token: string) => t.api({ method: 'GET', path: 'me/', token });

describe('POST logout/', () => {
  const t = useTestApp();

  it('answers 400 MISSING_REFRESH_TOKEN without a refresh token, with or without a bearer token', async () => {
    const tokens = await signIn(t, await createUser(t));
    for (const res of [await logout(t, undefined), await logout(t, '', tokens.access_token), await logout(t, undefined, tokens.access_token)]) {
      assertError(res, 400, 'MISSING_REFRESH_TOKEN');
    }
    assert.equal((await me(t, tokens.access_token)).statusCode, 200, 'nothing was revoked');
  });

  it('ends the session and blacklists the access token, leaving other sessions alone', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    const other = await signIn(t, user, { device_info: deviceInfo(2) });
    const res = await logout(t, tokens.refresh_token, tokens.access_token);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()), ['message']);
    assert.equal(typeof res.json().message, 'string');

    assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
    assertError(await me(t, tokens.access_token), 401, 'TOKEN_BLACKLISTED');
    const { jti, exp } = decodeJwt(tokens.access_token).payload;
    const entry = await t.container.db.selectFrom('token_blacklist').select(['jti', 'user_id', 'reason', 'expires_at'])
      .executeTakeFirstOrThrow();
    assert.deepEqual(entry, { jti, user_id: user.id, reason: 'logout', expires_at: new Date(Number(exp) * 1000) });

    assert.equal((await me(t, other.access_token)).statusCode, 200);
    assert.equal((await refresh(t, other.refresh_token)).statusCode, 200);
  });

  it('ends the session without a bearer token, which then answers TOKEN_BLACKLISTED', async () => {
    const tokens = await signIn(t, await createUser(t));
    assert.equal((await logout(t, tokens.refresh_token)).statusCode, 200);
    assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
    assertError(await me(t, tokens.access_token), 401, 'TOKEN_BLACKLISTED');
  });

  it('logs out with an expired bearer token', async () => {
    const tokens = await signIn(t, await createUser(t));
    t.clock.advance(tokens.expires_in + 1);
    assert.equal((await logout(t, tokens.refresh_token, tokens.access_token)).statusCode, 200);
    assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
  });

  it('answers 200 for an unknown refresh token and revokes nothing', async () => {
    const tokens = await signIn(t, await createUser(t));
    assert.equal((await logout(t, 'unknown-token')).statusCode, 200);
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200);
  });
});

describe('POST logout/ with the blacklist off', () => {
  const t = useTestApp({ env: { SVC_TOKEN_BLACKLIST_ENABLED: 'false' } });

  it('writes no blacklist entry but still ends the session', async () => {
    const tokens = await signIn(t, await createUser(t));
    assert.equal((await logout(t, tokens.refresh_token, tokens.access_token)).statusCode, 200);
    assert.equal(await t.container.db.selectFrom('token_blacklist').select('id').executeTakeFirst(), undefined);
    assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
    assertError(await me(t, tokens.access_token), 401, 'TOKEN_BLACKLISTED');
  });
});

describe('POST logout/all/', () => {
  const t = useTestApp();

  it('answers 401 UNAUTHORIZED without a bearer token', async () => {
    assertError(await logoutAll(t), 401, 'UNAUTHORIZED');
  });

  it('ends every session of the user and names the number of devices', async () => {
    const user = await createUser(t);
    const bystander = await createUser(t);
    const sessions = [
      await signIn(t, user, { device_info: deviceInfo(1) }),
      await signIn(t, user, { device_info: deviceInfo(1) }),
      await signIn(t, user, { device_info: deviceInfo(2) }),
    ];
    const untouched = await signIn(t, bystander);
    const res = await logoutAll(t, sessions[0]!.access_token);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { message: 'Logged out from 2 devices', devices_logged_out: 2 });
    for (const s of sessions) {
      assert.deepEqual((await refresh(t, s.refresh_token)).json(), FAILED);
      assertError(await me(t, s.access_token), 401, 'TOKEN_BLACKLISTED');
    }
    assert.equal((await me(t, untouched.access_token)).statusCode, 200);
    assert.equal((await refresh(t, untouched.refresh_token)).statusCode, 200);
  });

  it('names a single device in the singular', async () => {
    const tokens = await signIn(t, await createUser(t));
    assert.deepEqual((await logoutAll(t, tokens.access_token)).json(), { message: 'Logged out from 1 device', devices_logged_out: 1 });
  });

  it('lets the user log in again right afterwards', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    assert.equal((await logoutAll(t, tokens.access_token)).statusCode, 200);
    const fresh = await signIn(t, user);
    assert.equal((await me(t, fresh.access_token)).statusCode, 200);
    assert.equal((await refresh(t, fresh.refresh_token)).statusCode, 200);
    t.clock.advance(5);
    const later = await signIn(t, user);
    assert.equal((await me(t, later.access_token)).statusCode, 200);
  });

  it('invalidates every earlier access token through tokens_valid_after, not only through the ended sessions', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    t.clock.advance(2);
    const other = await signIn(t, user, { device_info: deviceInfo(2) });
    assert.equal((await logoutAll(t, other.access_token)).statusCode, 200);
    await t.container.db.updateTable('sessions').set({ revoked_at: null }).execute();
    assertError(await me(t, tokens.access_token), 401, 'TOKEN_BLACKLISTED');
  });
});

describe('logout across instances', () => {
  const a = useTestApp();
  // `a`'s reset empties the database both share: `b` only forgets the applications it cached.
  const b = useTestApp({ reset: false });
  /** Instance `b` serves the same application as `a`, against the same database. */
  const onB = (opts: Parameters<TestApp['api']>[0]) => b.api({ ...opts, appAuth: false, headers: { ...a.headers, ...(opts.headers as object) } });

  beforeEach(() => { b.container.services.applications.invalidate(); });

  it('honours on one instance a logout made on another', async () => {
    const tokens = await signIn(a, await createUser(a));
    assert.equal((await onB({ method: 'GET', path: 'me/', token: tokens.access_token })).statusCode, 200);
    assert.equal((await logout(a, tokens.refresh_token, tokens.access_token)).statusCode, 200);
    assertError(await onB({ method: 'GET', path: 'me/', token: tokens.access_token }), 401, 'TOKEN_BLACKLISTED');
    assert.deepEqual((await onB({ method: 'POST', path: 'refresh/', payload: { refresh_token: tokens.refresh_token } })).json(), FAILED);
  });

  it('honours on one instance a logout of all devices made on another', async () => {
    const user = await createUser(a);
    const first = await signIn(a, user);
    const second = await signIn(a, user, { device_info: deviceInfo(2) });
    assert.equal((await onB({ method: 'GET', path: 'me/', token: first.access_token })).statusCode, 200);
    assert.equal((await onB({ method: 'POST', path: 'logout/all/', token: second.access_token })).statusCode, 200);
    for (const s of [first, second]) {
      assertError(await me(a, s.access_token), 401, 'TOKEN_BLACKLISTED');
      assert.deepEqual((await refresh(a, s.refresh_token)).json(), FAILED);
    }
  });

  it('honours a logout after a restart with the same secret', async () => {
    const user = await createUser(a);
    const first = await createTestApp();
    const onFirst = (opts: Parameters<TestApp['api']>[0]) => first.api({ ...opts, appAuth: false, headers: a.headers });
    const loggedOut = (await onFirst({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } })).json();
    const kept = (await onFirst({ method: 'POST', path: 'login/email/',
      payload: { email: user.email, password: user.password, device_info: deviceInfo(2) } })).json();
    assert.equal((await onFirst({ method: 'POST', path: 'logout/', token: loggedOut.access_token,
      payload: { refresh_token: loggedOut.refresh_token } })).statusCode, 200);
    await first.close();

    const restarted = await createTestApp();
    try {
      const onRestarted = (opts: Parameters<TestApp['api']>[0]) => restarted.api({ ...opts, appAuth: false, headers: a.headers });
      assertError(await onRestarted({ method: 'GET', path: 'me/', token: loggedOut.access_token }), 401, 'TOKEN_BLACKLISTED');
      assert.deepEqual((await onRestarted({ method: 'POST', path: 'refresh/', payload: { refresh_token: loggedOut.refresh_token } })).json(), FAILED);
      assert.equal((await onRestarted({ method: 'GET', path: 'me/', token: kept.access_token })).statusCode, 200);
      assert.equal((await onRestarted({ method: 'POST', path: 'refresh/', payload: { refresh_token: kept.refresh_token } })).statusCode, 200);
    } finally {
      await restarted.close();
    }
  });

  it('honours a logout of all devices after a restart with the same secret', async () => {
    const user = await createUser(a);
    const tokens = await signIn(a, user);
    const second = await signIn(a, user, { device_info: deviceInfo(2) });
    assert.equal((await logoutAll(a, second.access_token)).statusCode, 200);
    const restarted = await createTestApp();
    try {
      const res = await restarted.api({ method: 'GET', path: 'me/', token: tokens.access_token, appAuth: false, headers: a.headers });
      assertError(res, 401, 'TOKEN_BLACKLISTED');
    } finally {
      await restarted.close();
    }
  });
});
