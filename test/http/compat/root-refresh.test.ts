import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createApplication } from '../../factories/applications.js';
import { decodeJwt, parseSetCookie, signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { expectStatus } from '../../helpers/answers.js';

const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const ORIGIN = 'http://localhost:3000'; // the test application's allowed origin

/** What the SDK posts on a 401: the host root, no API prefix, no application headers. */
const rootRefresh = (t: TestApp, opts: { payload?: object | string; headers?: Record<string, string>; cookie?: string } = {}) =>
  t.app.inject({ method: 'POST', url: '/auth/refresh/', headers: { ...SDK_HEADERS, ...opts.headers }, payload: opts.payload ?? '',
    ...(opts.cookie ? { cookies: { refresh_token: opts.cookie } } : {}) });

function cookieOf(res: LightMyRequestResponse) {
  const cookie = parseSetCookie(res.headers['set-cookie']);
  assert.ok(cookie, `a refresh_token cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return cookie;
}

/** SDK compatibility (docs/migrating-from-tenxyte.md): `POST /auth/refresh/` at the host root, body `{refresh_token}`, read as `access` and `refresh`. */
describe('SDK compatibility: the root refresh alias with a body token', () => {
  const t = useTestApp({ env: { SVC_ROOT_REFRESH_ALIAS: 'true', SVC_REFRESH_TOKEN_ROTATION: 'true' } });

  it('refreshes without application headers, answering access and refresh beside access_token and refresh_token', async () => {
    const tokens = await signIn(t, await createUser(t));
    const res = await rootRefresh(t, { payload: { refresh_token: tokens.refresh_token } });
    const body = expectStatus(res, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(body.access, body.access_token);
    assert.equal(body.refresh, body.refresh_token);
    assert.notEqual(body.refresh, tokens.refresh_token, 'rotated');
    assert.equal(decodeJwt(body.access).payload.app, t.credentials.id, 'issued to the application of the refresh token');
    expectStatus(await t.api({ method: 'GET', path: 'me/', token: body.access }), 200);
    expectStatus(await rootRefresh(t, { payload: { refresh_token: body.refresh } }), 200);
  });

  it('answers access and refresh at <prefix>refresh/ too', async () => {
    const tokens = await signIn(t, await createUser(t));
    const body = expectStatus(await t.api({ method: 'POST', path: 'refresh/', headers: SDK_HEADERS,
      payload: { refresh_token: tokens.refresh_token } }), 200);
    assert.equal(body.access, body.access_token);
    assert.equal(body.refresh, body.refresh_token);
  });

  it('checks application headers as usual when they are sent', async () => {
    const tokens = await signIn(t, await createUser(t));
    const other = await createApplication(t);
    const payload = { refresh_token: tokens.refresh_token };
    assertError(await rootRefresh(t, { payload, headers: { ...t.headers, 'x-access-secret': 'wrong' } }), 401, 'APP_AUTH_INVALID');
    assertError(await rootRefresh(t, { payload, headers: { 'x-access-key': t.credentials.access_key } }), 401, 'APP_AUTH_REQUIRED');
    assertError(await rootRefresh(t, { payload, headers: other.headers }), 401, 'REFRESH_FAILED');
    expectStatus(await rootRefresh(t, { payload, headers: t.headers }), 200);
  });

  it('refreshes nothing for a token of an inactive application', async () => {
    const tokens = await signIn(t, await createUser(t));
    await t.container.db.updateTable('applications').set({ is_active: false }).where('id', '=', t.credentials.id).execute();
    t.container.services.applications.invalidate();
    assertError(await rootRefresh(t, { payload: { refresh_token: tokens.refresh_token } }), 401, 'REFRESH_FAILED');
  });

  it('answers 400 MISSING_REFRESH_TOKEN without a token and 401 REFRESH_FAILED for an unknown one', async () => {
    assertError(await rootRefresh(t, { payload: {} }), 400, 'MISSING_REFRESH_TOKEN');
    assertError(await rootRefresh(t, { payload: { refresh_token: 'x'.repeat(43) } }), 401, 'REFRESH_FAILED');
  });
});

/** SDK compatibility (docs/migrating-from-tenxyte.md) in cookie mode: no body, the cookie on Path `/`, the token's application's Origin rule. */
describe('SDK compatibility: the root refresh alias in cookie mode', () => {
  const t = useTestApp({ env: {
    SVC_ROOT_REFRESH_ALIAS: 'true', SVC_REFRESH_TOKEN_COOKIE_ENABLED: 'true', SVC_REFRESH_TOKEN_ROTATION: 'true',
  } });

  const login = async () => {
    const user = await createUser(t);
    const res = await t.api({ method: 'POST', path: 'login/email/', headers: SDK_HEADERS,
      payload: { email: user.email, password: user.password } });
    expectStatus(res, 200);
    return cookieOf(res);
  };

  it('sets the cookie on Path=/ and refreshes from it at the root, answering access and no refresh token in the body', async () => {
    const cookie = await login();
    assert.ok(cookie.attributes.includes('Path=/'), cookie.line);
    const res = await rootRefresh(t, { cookie: cookie.value, headers: { origin: ORIGIN } });
    const body = expectStatus(res, 200);
    assert.equal(body.access, body.access_token);
    assert.ok(!('refresh' in body) && !('refresh_token' in body), res.body);
    assert.equal(res.headers['access-control-allow-origin'], ORIGIN);
    const next = cookieOf(res);
    assert.notEqual(next.value, cookie.value);
    assert.ok(next.attributes.includes('Path=/'), next.line);
    const prefixed = expectStatus(await t.api({ method: 'POST', path: 'refresh/', cookies: { refresh_token: next.value },
      headers: { ...SDK_HEADERS, origin: ORIGIN }, payload: '' }), 200);
    assert.equal(prefixed.access, prefixed.access_token);
    assert.ok(!('refresh' in prefixed) && !('refresh_token' in prefixed));
  });

  it('applies the Origin rule of the application the token belongs to', async () => {
    const cookie = (await login()).value;
    assertError(await rootRefresh(t, { cookie, headers: { origin: 'https://evil.example' } }), 403, 'ORIGIN_NOT_ALLOWED');
    assertError(await rootRefresh(t, { cookie }), 403, 'ORIGIN_NOT_ALLOWED');
    expectStatus(await rootRefresh(t, { cookie, headers: { origin: ORIGIN } }), 200);
  });
});

/** SDK compatibility (docs/migrating-from-tenxyte.md): off in `medium` and `robust`, where the root path is unknown. */
describe('SDK compatibility: the root refresh alias switched off', () => {
  const t = useTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'medium' }, reset: false });

  it('answers 404 like any unknown path', async () => {
    assert.equal(t.container.config.ROOT_REFRESH_ALIAS, false);
    const tokens = await signIn(t, await createUser(t));
    const res = await rootRefresh(t, { payload: { refresh_token: tokens.refresh_token } });
    const unknown = await t.app.inject({ method: 'POST', url: '/auth/unknown/', headers: SDK_HEADERS, payload: '{}' });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), unknown.json());
  });
});
