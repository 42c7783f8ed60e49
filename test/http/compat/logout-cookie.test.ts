import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSetCookie } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { expectStatus } from '../../helpers/answers.js';

const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const ORIGIN = 'http://localhost:3000'; // the test application's allowed origin

/** SDK compatibility (docs/migrating-from-tenxyte.md): in cookie mode the SDK's logout/ sends `{}`, the refresh token is read from the cookie. */
describe('SDK compatibility: logout in cookie mode', () => {
  const t = useTestApp({ env: { SVC_REFRESH_TOKEN_COOKIE_ENABLED: 'true' } });

  const login = async () => {
    const user = await createUser(t);
    const res = await t.api({ method: 'POST', path: 'login/email/', headers: SDK_HEADERS,
      payload: { email: user.email, password: user.password } });
    const body = expectStatus(res, 200);
    return { access: body.access_token as string, cookie: parseSetCookie(res.headers['set-cookie'])!.value };
  };
  const logout = (token: string, cookie: string | undefined, origin = ORIGIN) => t.api({ method: 'POST', path: 'logout/', token,
    headers: { ...SDK_HEADERS, origin }, payload: {}, ...(cookie ? { cookies: { refresh_token: cookie } } : {}) });
  const refresh = (cookie: string) => t.api({ method: 'POST', path: 'refresh/', cookies: { refresh_token: cookie },
    headers: { ...SDK_HEADERS, origin: ORIGIN }, payload: {} });

  it('ends the session of the cookie\'s refresh token, clears the cookie and blacklists the access token', async () => {
    const { access, cookie } = await login();
    const res = await logout(access, cookie);
    assert.deepEqual(expectStatus(res, 200), { message: 'Logged out successfully' });
    const cleared = parseSetCookie(res.headers['set-cookie']);
    assert.ok(cleared?.value === '' && cleared.attributes.includes('Max-Age=0'), cleared?.line);
    assertError(await refresh(cookie), 401, 'REFRESH_FAILED');
    assertError(await t.api({ method: 'GET', path: 'me/', token: access }), 401, 'TOKEN_BLACKLISTED');
  });

  it('answers 400 MISSING_REFRESH_TOKEN to {} without the cookie, and ends nothing', async () => {
    const { access, cookie } = await login();
    assertError(await logout(access, undefined), 400, 'MISSING_REFRESH_TOKEN');
    expectStatus(await refresh(cookie), 200);
  });

  it('answers 403 ORIGIN_NOT_ALLOWED to a cookie sent from another origin, and ends nothing', async () => {
    const { access, cookie } = await login();
    assertError(await logout(access, cookie, 'https://evil.example'), 403, 'ORIGIN_NOT_ALLOWED');
    expectStatus(await refresh(cookie), 200);
  });
});
