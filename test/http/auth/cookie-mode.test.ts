import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { setAllowedOrigins } from '../../factories/applications.js';
import { parseSetCookie } from '../../factories/sessions.js';
import { createUser, DEFAULT_PASSWORD, type TestUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from './assertions.js';

// The root refresh alias (on in the development preset) moves the cookie to Path=/: test/http/compat/root-refresh.test.ts covers it.
const COOKIE_MODE = { SVC_REFRESH_TOKEN_COOKIE_ENABLED: 'true', SVC_REFRESH_TOKEN_ROTATION: 'true', SVC_ROOT_REFRESH_ALIAS: 'false' };
const ORIGIN = 'http://localhost:3000'; // the test application's allowed origin
const JSON_HEADERS = { 'content-type': 'application/json', origin: ORIGIN };

/** The refresh-token cookie of a response, which must be there. */
function cookieOf(res: LightMyRequestResponse) {
  const cookie = parseSetCookie(res.headers['set-cookie']);
  assert.ok(cookie, `a refresh_token cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return cookie;
}

async function login(t: TestApp, user: TestUser) {
  const res = await t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } });
  assert.equal(res.statusCode, 200, res.body);
  return { res, cookie: cookieOf(res).value, body: res.json() };
}

const refreshWithCookie = (t: TestApp, cookie: string, headers: Record<string, string> = JSON_HEADERS, payload = '') =>
  t.api({ method: 'POST', path: 'refresh/', cookies: { refresh_token: cookie }, headers, payload });

describe('refresh-token cookie mode', () => {
  const t = useTestApp({ env: COOKIE_MODE });
  let lifetime: number;
  before(() => { lifetime = t.container.config.JWT_REFRESH_TOKEN_LIFETIME; });

  it('sets the refresh token in an HttpOnly, SameSite=Strict cookie on the API prefix and leaves it out of the JSON', async () => {
    const { res, cookie, body } = await login(t, await createUser(t));
    const set = cookieOf(res);
    assert.deepEqual(set.attributes.sort(), ['HttpOnly', `Max-Age=${lifetime}`, 'Path=/api/v1/auth/', 'SameSite=Strict']);
    assert.equal(body.refresh_token, undefined);
    assert.equal(typeof body.access_token, 'string');
    assert.ok(cookie.length >= 43);
    const stored = await t.container.db.selectFrom('refresh_tokens').select('token_hash').executeTakeFirstOrThrow();
    assert.notEqual(stored.token_hash, cookie, 'only a hash is stored');
  });

  it('sets the cookie on registration with login', async () => {
    const res = await t.api({ method: 'POST', path: 'register/', payload: { email: 'ann@example.com', password: DEFAULT_PASSWORD, login: true } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().refresh_token, undefined);
    assert.ok(cookieOf(res).attributes.includes('HttpOnly'));
  });

  it('refreshes from the cookie with an empty body, rotating it into a new cookie', async () => {
    let { cookie } = await login(t, await createUser(t));
    for (const payload of ['', '{}', '{"refresh_token": ""}']) {
      const res = await refreshWithCookie(t, cookie, JSON_HEADERS, payload);
      assert.equal(res.statusCode, 200, `${payload}: ${res.body}`);
      assert.equal(res.json().refresh_token, undefined);
      assert.equal(typeof res.json().access_token, 'string');
      const next = cookieOf(res);
      assert.notEqual(next.value, cookie);
      assert.deepEqual(next.attributes.sort(), ['HttpOnly', `Max-Age=${lifetime}`, 'Path=/api/v1/auth/', 'SameSite=Strict']);
      cookie = next.value;
    }
  });

  it('still accepts the refresh token in the body', async () => {
    const { cookie } = await login(t, await createUser(t));
    const res = await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: cookie } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().refresh_token, undefined);
    assert.ok(cookieOf(res));
  });

  it('answers 400 MISSING_REFRESH_TOKEN with neither a cookie nor a body token', async () => {
    assertError(await t.api({ method: 'POST', path: 'refresh/', headers: JSON_HEADERS, payload: '{}' }), 400, 'MISSING_REFRESH_TOKEN');
  });

  it('answers 415 when a request relying on the cookie is not JSON', async () => {
    const { cookie } = await login(t, await createUser(t));
    assertError(await refreshWithCookie(t, cookie, { origin: ORIGIN }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertError(await t.api({ method: 'POST', path: 'logout/', cookies: { refresh_token: cookie }, headers: { origin: ORIGIN } }),
      415, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal((await refreshWithCookie(t, cookie)).statusCode, 200, 'the refused requests changed nothing');
  });

  it('answers 403 ORIGIN_NOT_ALLOWED when the application lists origins and the Origin is wrong or missing', async () => {
    const { cookie } = await login(t, await createUser(t));
    assertError(await refreshWithCookie(t, cookie, { 'content-type': 'application/json', origin: 'https://evil.example' }),
      403, 'ORIGIN_NOT_ALLOWED');
    assertError(await refreshWithCookie(t, cookie, { 'content-type': 'application/json' }), 403, 'ORIGIN_NOT_ALLOWED');
    assertError(await t.api({ method: 'POST', path: 'logout/', cookies: { refresh_token: cookie },
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, payload: '{}' }), 403, 'ORIGIN_NOT_ALLOWED');
    assert.equal((await refreshWithCookie(t, cookie)).statusCode, 200);
  });

  it('needs no Origin when the application lists no origins', async () => {
    await setAllowedOrigins(t, t.credentials.id, []);
    const { cookie } = await login(t, await createUser(t));
    assert.equal((await refreshWithCookie(t, cookie, { 'content-type': 'application/json' })).statusCode, 200);
  });

  it('clears the cookie with Max-Age=0 on logout and ends the session', async () => {
    const { cookie, body } = await login(t, await createUser(t));
    const res = await t.api({ method: 'POST', path: 'logout/', token: body.access_token, cookies: { refresh_token: cookie },
      headers: JSON_HEADERS, payload: '' });
    assert.equal(res.statusCode, 200, res.body);
    const cleared = cookieOf(res);
    assert.equal(cleared.value, '');
    assert.deepEqual(cleared.attributes.filter((a) => !a.startsWith('Expires=')).sort(),
      ['HttpOnly', 'Max-Age=0', 'Path=/api/v1/auth/', 'SameSite=Strict']);
    assertError(await refreshWithCookie(t, cookie), 401, 'REFRESH_FAILED');
    assertError(await t.api({ method: 'GET', path: 'me/', token: body.access_token }), 401, 'TOKEN_BLACKLISTED');
  });

  it('puts the full-scope pair of a forced password change in the cookie, not the JSON', async () => {
    const flagged = await createUser(t, { must_change_password: true });
    const { body } = await login(t, flagged);
    assert.equal(body.token_scope, 'password_change_only');
    const res = await t.api({ method: 'POST', path: 'password/change/', token: body.access_token,
      payload: { current_password: flagged.password, new_password: 'violet submarine orchestra' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().refresh_token, undefined);
    assert.equal(typeof res.json().access_token, 'string');
    const refreshed = await refreshWithCookie(t, cookieOf(res).value);
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    assert.equal(refreshed.json().must_change_password, false);
  });

  it('clears the cookie on logout of all devices', async () => {
    const { body } = await login(t, await createUser(t));
    const res = await t.api({ method: 'POST', path: 'logout/all/', token: body.access_token });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(cookieOf(res).attributes.includes('Max-Age=0'));
  });
});

describe('refresh-token cookie mode outside debug', () => {
  const t = useTestApp({ env: { ...COOKIE_MODE, SVC_DEBUG: 'false', SVC_SHORTCUT_SECURE_MODE: 'development' } });

  it('marks the cookie Secure', async () => {
    const { res } = await login(t, await createUser(t));
    assert.deepEqual(cookieOf(res).attributes.sort(),
      ['HttpOnly', `Max-Age=${t.container.config.JWT_REFRESH_TOKEN_LIFETIME}`, 'Path=/api/v1/auth/', 'SameSite=Strict', 'Secure']);
  });
});

describe('without cookie mode', () => {
  const t = useTestApp();

  it('sets no cookie and ignores one sent', async () => {
    const user = await createUser(t);
    const res = await t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } });
    assert.equal(res.headers['set-cookie'], undefined);
    const refreshed = await refreshWithCookie(t, res.json().refresh_token);
    assertError(refreshed, 400, 'MISSING_REFRESH_TOKEN');
  });
});
