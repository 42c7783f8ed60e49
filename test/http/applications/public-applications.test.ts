import assert from 'node:assert/strict';
import { before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../../src/config/load.js';
import { seed, seedOptionsOf } from '../../../src/db/seed/seed.js';
import { createPublicApplication } from '../../factories/applications.js';
import { parseSetCookie } from '../../factories/sessions.js';
import { createUser, DEFAULT_PASSWORD, type TestUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';

/** docs/decisions.md "Public applications": public applications — key only, origin-pinned, refresh tokens in the cookie only. */

const PUBLIC_URL = 'http://gatehouse.test:8000';
const OWN_HOST = 'gatehouse.test:8000';
const SPA = 'https://spa.example.com';
const OTHER_SPA = 'https://other.example.com';
/** A route that needs the application and nothing else. */
const PROBE = 'password/requirements/';
const API_PREFIX = '/api/v1/auth/';
// The cookie switch off: a public application's refresh tokens go to the cookie all the same.
const ENV = {
  SVC_PUBLIC_URL: PUBLIC_URL, SVC_REFRESH_TOKEN_COOKIE_ENABLED: 'false', SVC_ROOT_REFRESH_ALIAS: 'false',
  SVC_REFRESH_TOKEN_ROTATION: 'true', SVC_AUDIT_LOGGING_ENABLED: 'true',
};
const PUBLIC_WARNING = 'A public application has no secret: its access_key may be published in browser code, and requests '
  + 'are accepted only from its allowed_origins.';

type PublicApp = Awaited<ReturnType<typeof createPublicApplication>>;

/** A request as browser code of a public application makes it: the key, and whatever else the browser adds. */
const asPublic = (t: TestApp, app: Pick<PublicApp, 'access_key'>, opts: {
  method?: 'GET' | 'HEAD' | 'POST'; path?: string; headers?: Record<string, string>; payload?: object | string;
  cookie?: string; token?: string;
} = {}) => t.api({
  method: opts.method ?? 'GET', path: opts.path ?? PROBE, appAuth: false, token: opts.token,
  headers: { 'x-access-key': app.access_key, ...opts.headers },
  ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  ...(opts.cookie ? { cookies: { refresh_token: opts.cookie } } : {}),
});

function refreshCookieOf(res: LightMyRequestResponse) {
  const cookie = parseSetCookie(res.headers['set-cookie']);
  assert.ok(cookie, `a refresh_token cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return cookie;
}

/**
 * Runs `check` twice: first with this instance's authentication cache empty (the database is read), then again with
 * the entry cached (the hook's synchronous path). Both must answer the same.
 */
async function bothPaths(t: TestApp, check: () => Promise<void>) {
  await t.container.services.applications.invalidate();
  await check();
  await check();
}

describe('public applications', () => {
  const t = useTestApp({ env: ENV });
  let spa: PublicApp;
  beforeEach(async () => {
    spa = await createPublicApplication(t, { name: 'Storefront', allowed_origins: [SPA] });
  });

  describe('applications/ API', () => {
    let root: Account;
    beforeEach(async () => { root = await account(t, { is_superuser: true }); });
    const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, payload?: object) =>
      t.api({ method, path, token: root.token, payload });

    it('creates a public application: credentials with the access key and a null secret, kind public, no stored secret', async () => {
      const body = expectStatus(await api('POST', 'applications/', { name: 'Console', kind: 'public',
        allowed_origins: ['https://console.example.com'] }), 201);
      assert.equal(body.application.kind, 'public');
      assert.match(body.credentials.access_key, /^[0-9a-f]{64}$/);
      assert.equal(body.credentials.access_secret, null);
      assert.equal(body.client_id, body.credentials.access_key);
      assert.equal(body.client_secret, null);
      assert.equal(body.warning, PUBLIC_WARNING);
      const row = await t.container.db.selectFrom('applications').select(['kind', 'secret_hash'])
        .where('id', '=', body.application.id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { kind: 'public', secret_hash: null });
      expectStatus(await asPublic(t, body.credentials, { headers: { origin: 'https://console.example.com' } }), 200);
    });

    it('creates a confidential application by default, and shows kind in the list and the detail', async () => {
      const body = expectStatus(await api('POST', 'applications/', { name: 'Server' }), 201);
      assert.equal(body.application.kind, 'confidential');
      assert.match(body.credentials.access_secret, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(expectStatus(await api('GET', `applications/${body.application.id}/`), 200).kind, 'confidential');
      assert.equal(expectStatus(await api('GET', `applications/${spa.id}/`), 200).kind, 'public');
      const all = expectStatus(await api('GET', 'applications/'), 200);
      assert.deepEqual(all.results.map((a: { name: string; kind: string }) => [a.name, a.kind]),
        [['Server', 'confidential'], ['Storefront', 'public'], ['Test App', 'confidential']]);
      const onlyPublic = expectStatus(await api('GET', 'applications/?kind=public'), 200);
      assert.deepEqual(onlyPublic.results.map((a: { name: string }) => a.name), ['Storefront']);
      expectStatus(await api('GET', 'applications/?kind=secret'), 400);
    });

    it('refuses a public application without an allowed origin, at creation and on update', async () => {
      const refused = expectStatus(await api('POST', 'applications/', { name: 'Nowhere', kind: 'public' }), 400);
      assert.deepEqual(refused.details, { allowed_origins:
        ['A public application needs at least one allowed origin: requests are accepted only from its origins.'] });
      assert.ok(expectStatus(await api('PATCH', `applications/${spa.id}/`, { allowed_origins: [] }), 400).details.allowed_origins);
      // A confidential application may still list none.
      expectStatus(await api('PATCH', `applications/${t.credentials.id}/`, { allowed_origins: [] }), 200);
    });

    it('never changes the kind of an application (400), but accepts the current kind in PUT and PATCH', async () => {
      const refused = expectStatus(await api('PATCH', `applications/${spa.id}/`, { kind: 'confidential' }), 400);
      assert.deepEqual(Object.keys(refused.details), ['kind']);
      expectStatus(await api('PATCH', `applications/${t.credentials.id}/`, { kind: 'public' }), 400);
      const kept = expectStatus(await api('PUT', `applications/${spa.id}/`, { name: 'Storefront 2', kind: 'public' }), 200);
      assert.deepEqual([kept.name, kept.kind, kept.allowed_origins], ['Storefront 2', 'public', [SPA]]);
      const row = await t.container.db.selectFrom('applications').select('secret_hash').where('id', '=', spa.id).executeTakeFirstOrThrow();
      assert.equal(row.secret_hash, null);
    });

    it('regenerate/ gives a public application a new key (still no secret); the old key stops working', async () => {
      const body = expectStatus(await api('POST', `applications/${spa.id}/regenerate/`, { confirmation: 'REGENERATE' }), 200);
      assert.notEqual(body.credentials.access_key, spa.access_key);
      assert.equal(body.credentials.access_secret, null);
      assert.equal(body.client_secret, null);
      assert.equal(body.application.kind, 'public');
      assertError(await asPublic(t, spa, { headers: { origin: SPA } }), 401, 'APP_AUTH_REQUIRED');
      expectStatus(await asPublic(t, body.credentials, { headers: { origin: SPA } }), 200);
    });
  });

  describe('application authentication', () => {
    it('accepts the key alone from an allowed Origin, with CORS headers that let the browser send cookies', async () => {
      await bothPaths(t, async () => {
        const res = await asPublic(t, spa, { headers: { origin: SPA } });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['access-control-allow-origin'], SPA);
        assert.equal(res.headers['access-control-allow-credentials'], 'true');
      });
      const preflight = await t.app.inject({ method: 'OPTIONS', url: `${API_PREFIX}refresh/`,
        headers: { origin: SPA, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-access-key' } });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], SPA);
      assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
    });

    it('refuses the key without an Origin, or from an origin the application does not list (401 APP_AUTH_INVALID)', async () => {
      const other = await createPublicApplication(t, { name: 'Other shop', allowed_origins: [OTHER_SPA] });
      await bothPaths(t, async () => {
        assertError(await asPublic(t, spa), 401, 'APP_AUTH_INVALID');
        for (const origin of ['https://evil.example', OTHER_SPA, 'null', 'https://spa.example.com:8443', 'http://spa.example.com']) {
          const res = await asPublic(t, spa, { headers: { origin } });
          assertError(res, 401, 'APP_AUTH_INVALID');
          // The refusal itself is readable only by origins some application lists, never as this application's answer.
          if (origin !== OTHER_SPA) assert.equal(res.headers['access-control-allow-origin'], undefined);
        }
        // Tenant view: another tenant's public key, from this tenant's origin, is refused too.
        assertError(await asPublic(t, other, { headers: { origin: SPA } }), 401, 'APP_AUTH_INVALID');
      });
    });

    it('refuses a public key sent with a secret (there is none), whatever the secret', async () => {
      await bothPaths(t, async () => {
        for (const secret of ['anything', t.credentials.access_secret, 'x'.repeat(43)]) {
          assertError(await asPublic(t, spa, { headers: { origin: SPA, 'x-access-secret': secret } }), 401, 'APP_AUTH_INVALID');
        }
      });
    });

    it('refuses an inactive public application', async () => {
      await t.container.db.updateTable('applications').set({ is_active: false }).where('id', '=', spa.id).execute();
      await bothPaths(t, async () => {
        assertError(await asPublic(t, spa, { headers: { origin: SPA } }), 401, 'APP_AUTH_INVALID');
      });
    });

    describe('same-origin GET and HEAD without Origin', () => {
      let own: PublicApp;
      beforeEach(async () => { own = await createPublicApplication(t, { name: 'Own pages', allowed_origins: [PUBLIC_URL] }); });
      const sameOrigin = { 'sec-fetch-site': 'same-origin', host: OWN_HOST };

      it('accepts a GET or HEAD with Sec-Fetch-Site: same-origin addressed to the host of SVC_PUBLIC_URL', async () => {
        await bothPaths(t, async () => {
          expectStatus(await asPublic(t, own, { headers: sameOrigin }), 200);
          assert.equal((await asPublic(t, own, { method: 'HEAD', headers: sameOrigin })).statusCode, 200);
          assert.equal((await asPublic(t, own, { headers: { ...sameOrigin, host: 'GATEHOUSE.test:8000' } })).statusCode, 200);
        });
      });

      it('refuses it addressed to another host, without Sec-Fetch-Site: same-origin, or as a POST', async () => {
        await bothPaths(t, async () => {
          assertError(await asPublic(t, own, { headers: { ...sameOrigin, host: 'evil.test:8000' } }), 401, 'APP_AUTH_INVALID');
          assertError(await asPublic(t, own, { headers: { ...sameOrigin, host: 'gatehouse.test:9000' } }), 401, 'APP_AUTH_INVALID');
          assertError(await asPublic(t, own, { headers: { host: OWN_HOST } }), 401, 'APP_AUTH_INVALID');
          for (const site of ['same-site', 'cross-site', 'none']) {
            assertError(await asPublic(t, own, { headers: { ...sameOrigin, 'sec-fetch-site': site } }), 401, 'APP_AUTH_INVALID');
          }
          assertError(await asPublic(t, own, { method: 'POST', path: 'password/strength/', payload: { password: 'x' },
            headers: sameOrigin }), 401, 'APP_AUTH_INVALID');
        });
      });

      it('refuses it for a public application that does not list the service\'s own origin', async () => {
        await bothPaths(t, async () => {
          assertError(await asPublic(t, spa, { headers: sameOrigin }), 401, 'APP_AUTH_INVALID');
        });
      });
    });

    it('leaves confidential applications unchanged: key and secret, with or without Origin; the key alone needs the secret', async () => {
      await bothPaths(t, async () => {
        expectStatus(await t.api({ method: 'GET', path: PROBE }), 200);
        expectStatus(await t.api({ method: 'GET', path: PROBE, headers: { origin: 'http://localhost:3000' } }), 200);
        const keyOnly = await asPublic(t, t.credentials, { headers: { origin: 'http://localhost:3000' } });
        assertError(keyOnly, 401, 'APP_AUTH_REQUIRED');
        // An unknown key alone is answered alike: the answer does not tell a confidential key from a made-up one.
        const unknown = await asPublic(t, { access_key: 'f'.repeat(64) }, { headers: { origin: 'http://localhost:3000' } });
        assert.equal(unknown.body, keyOnly.body);
        assertError(await t.api({ method: 'GET', path: PROBE, headers: { 'x-access-secret': 'wrong' } }), 401, 'APP_AUTH_INVALID');
      });
    });
  });

  describe('refresh tokens in the cookie only, with SVC_REFRESH_TOKEN_COOKIE_ENABLED off', () => {
    let user: TestUser;
    beforeEach(async () => { user = await createUser(t); });
    const json = (origin = SPA) => ({ origin, 'content-type': 'application/json' });
    const login = async (app: PublicApp = spa, origin = SPA) => {
      const res = await asPublic(t, app, { method: 'POST', path: 'login/email/', headers: { origin },
        payload: { email: user.email, password: user.password } });
      return { res, body: expectStatus(res, 200), cookie: refreshCookieOf(res) };
    };
    const refresh = (app: Pick<PublicApp, 'access_key'>, cookie: string, origin = SPA) =>
      asPublic(t, app, { method: 'POST', path: 'refresh/', cookie, headers: json(origin), payload: '' });

    it('a login sets the HttpOnly cookie and leaves refresh_token out of the body', async () => {
      const { body, cookie } = await login();
      assert.equal(body.refresh_token, undefined);
      assert.ok(!('refresh' in body));
      assert.deepEqual(cookie.attributes.sort(),
        ['HttpOnly', `Max-Age=${t.container.config.JWT_REFRESH_TOKEN_LIFETIME}`, `Path=${API_PREFIX}`, 'SameSite=Strict']);
      const me = expectStatus(await asPublic(t, spa, { path: 'me/', token: body.access_token, headers: { origin: SPA } }), 200);
      assert.equal(me.email, user.email);
    });

    it('registration with login sets the cookie too', async () => {
      const res = await asPublic(t, spa, { method: 'POST', path: 'register/', headers: { origin: SPA },
        payload: { email: 'new@example.com', password: DEFAULT_PASSWORD, login: true } });
      const body = expectStatus(res, 201);
      assert.equal(typeof body.access_token, 'string');
      assert.equal(body.refresh_token, undefined);
      assert.ok(refreshCookieOf(res).attributes.includes('HttpOnly'));
    });

    it('refresh/ reads the cookie and rotates it, with no refresh token in the body', async () => {
      let { cookie } = await login();
      for (let i = 0; i < 2; i++) {
        const res = await refresh(spa, cookie.value);
        const body = expectStatus(res, 200);
        assert.equal(body.refresh_token, undefined);
        assert.ok(!('refresh' in body), res.body);
        assert.equal(body.access, body.access_token);
        const next = refreshCookieOf(res);
        assert.notEqual(next.value, cookie.value);
        cookie = next;
      }
    });

    it('logout/ reads the cookie, clears it and ends the session', async () => {
      const { body, cookie } = await login();
      const res = await asPublic(t, spa, { method: 'POST', path: 'logout/', token: body.access_token, cookie: cookie.value,
        headers: json(), payload: '' });
      expectStatus(res, 200);
      const cleared = refreshCookieOf(res);
      assert.equal(cleared.value, '');
      assert.ok(cleared.attributes.includes('Max-Age=0'), cleared.line);
      assertError(await refresh(spa, cookie.value), 401, 'REFRESH_FAILED');
    });

    it('a confidential application in the same service still gets the refresh token in the body and no cookie', async () => {
      const res = await t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } });
      const body = expectStatus(res, 200);
      assert.equal(typeof body.refresh_token, 'string');
      assert.equal(res.headers['set-cookie'], undefined);
      const refreshed = expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: body.refresh_token } }), 200);
      assert.equal(typeof refreshed.refresh_token, 'string');
    });

    it('a cookie set for one application refreshes nothing under another, and stays usable by its own', async () => {
      const { body, cookie } = await login();
      const other = await createPublicApplication(t, { name: 'Other shop', allowed_origins: [OTHER_SPA] });
      // Another public application: the token belongs to the storefront (REFRESH_FAILED), and nothing is rotated.
      assertError(await refresh(other, cookie.value, OTHER_SPA), 401, 'REFRESH_FAILED');
      // A confidential application reads no cookie with the switch off, and refuses the token in the body.
      assertError(await t.api({ method: 'POST', path: 'refresh/', cookies: { refresh_token: cookie.value },
        headers: { 'content-type': 'application/json' }, payload: '' }), 400, 'MISSING_REFRESH_TOKEN');
      assertError(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: cookie.value } }), 401, 'REFRESH_FAILED');
      // Logging out under the other application ends nothing of the storefront's session.
      expectStatus(await asPublic(t, other, { method: 'POST', path: 'logout/', cookie: cookie.value, headers: json(OTHER_SPA),
        payload: '' }), 200);
      // The access token is bound to the storefront as well.
      assertError(await asPublic(t, other, { path: 'me/', token: body.access_token, headers: { origin: OTHER_SPA } }),
        401, 'TOKEN_APP_MISMATCH');
      expectStatus(await refresh(spa, cookie.value), 200);
    });

    it('refresh/ with the cookie from an origin the application does not list is refused before the token is read', async () => {
      const { cookie } = await login();
      assertError(await refresh(spa, cookie.value, 'https://evil.example'), 401, 'APP_AUTH_INVALID');
      assertError(await asPublic(t, spa, { method: 'POST', path: 'refresh/', cookie: cookie.value,
        headers: { 'content-type': 'application/json' }, payload: '' }), 401, 'APP_AUTH_INVALID');
      expectStatus(await refresh(spa, cookie.value), 200);
    });
  });

  describe('the console\'s application (gatehouse seed)', () => {
    const consoleRows = () => t.container.db.selectFrom('applications')
      .select(['id', 'name', 'kind', 'access_key', 'secret_hash', 'allowed_origins', 'builtin', 'is_active'])
      .where('builtin', '=', 'console').execute();

    it('is on by default in debug only, and pinned to the origin of SVC_PUBLIC_URL', () => {
      const secret = { SVC_JWT_SECRET_KEY: 'a-jwt-secret-that-is-at-least-32-bytes-long' };
      assert.deepEqual(seedOptionsOf(loadConfig({ SVC_DEBUG: 'true' }).config), { consoleOrigin: 'http://127.0.0.1:8000' });
      assert.deepEqual(seedOptionsOf(loadConfig({ SVC_DEBUG: 'true', SVC_PORT: '9100' }).config), { consoleOrigin: 'http://127.0.0.1:9100' });
      assert.deepEqual(seedOptionsOf(loadConfig({ ...secret, SVC_DEBUG: 'false' }).config), { consoleOrigin: null });
      assert.deepEqual(seedOptionsOf(loadConfig({ SVC_DEBUG: 'true', SVC_CONSOLE_ENABLED: 'false' }).config), { consoleOrigin: null });
      assert.deepEqual(seedOptionsOf(loadConfig({ ...secret, SVC_DEBUG: 'false', SVC_CONSOLE_ENABLED: 'true',
        SVC_PUBLIC_URL: 'https://Auth.Example.com/base/' }).config), { consoleOrigin: 'https://auth.example.com' });
    });

    it('is created only when the console is on, once however often seed runs', async () => {
      assert.equal((await seed(t.container.db, { consoleOrigin: null })).consoleApplication, 'off');
      assert.equal((await seed(t.container.db)).consoleApplication, 'off');
      assert.deepEqual(await consoleRows(), []);
      assert.equal((await seed(t.container.db, { consoleOrigin: PUBLIC_URL })).consoleApplication, 'created');
      assert.equal((await seed(t.container.db, { consoleOrigin: PUBLIC_URL })).consoleApplication, 'unchanged');
      const rows = await consoleRows();
      assert.equal(rows.length, 1);
      assert.deepEqual({ ...rows[0], id: undefined, access_key: undefined }, { id: undefined, access_key: undefined,
        name: 'Gatehouse Console', kind: 'public', secret_hash: null, allowed_origins: [PUBLIC_URL], builtin: 'console', is_active: true });
      assert.match(rows[0]!.access_key, /^[0-9a-f]{64}$/);
    });

    it('follows a changed SVC_PUBLIC_URL, keeping its key and whatever an operator renamed or deactivated', async () => {
      await seed(t.container.db, { consoleOrigin: PUBLIC_URL });
      const [created] = await consoleRows();
      await t.container.db.updateTable('applications').set({ name: 'Admin', is_active: false }).where('id', '=', created!.id).execute();
      assert.equal((await seed(t.container.db, { consoleOrigin: 'https://auth.example.com' })).consoleApplication, 'updated');
      const [updated] = await consoleRows();
      assert.deepEqual(updated, { ...created, name: 'Admin', is_active: false, allowed_origins: ['https://auth.example.com'] });
    });

    it('works as a public application from its origin and for same-origin GETs', async () => {
      await seed(t.container.db, { consoleOrigin: PUBLIC_URL });
      const [consoleApp] = await consoleRows();
      await bothPaths(t, async () => {
        expectStatus(await asPublic(t, consoleApp!, { headers: { origin: PUBLIC_URL } }), 200);
        expectStatus(await asPublic(t, consoleApp!, { headers: { 'sec-fetch-site': 'same-origin', host: OWN_HOST } }), 200);
        assertError(await asPublic(t, consoleApp!, { headers: { origin: SPA } }), 401, 'APP_AUTH_INVALID');
      });
    });

    it('does not count as an application for quickstart, which still creates "Default App"', async () => {
      await t.container.db.deleteFrom('applications').execute();
      await seed(t.container.db, { consoleOrigin: PUBLIC_URL });
      const created = await t.container.services.applications.ensureDefault();
      assert.equal(created?.application.name, 'Default App');
      assert.equal(created?.application.kind, 'confidential');
      assert.equal(await t.container.services.applications.ensureDefault(), null);
    });
  });
});

/** The SDK's root refresh (docs/migrating-from-tenxyte.md): without application headers the token's application is the caller, and its origin rule holds. */
describe('public applications at the root refresh alias', () => {
  const t = useTestApp({ env: { ...ENV, SVC_ROOT_REFRESH_ALIAS: 'true' } });
  let spa: PublicApp;
  beforeEach(async () => {
    spa = await createPublicApplication(t, { name: 'Storefront', allowed_origins: [SPA] });
  });
  const rootRefresh = (cookie: string, headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/auth/refresh/',
    headers: { 'content-type': 'application/json', ...headers }, cookies: { refresh_token: cookie }, payload: '' });

  it('refreshes from the cookie whatever the cookie switch, only from one of the application\'s origins', async () => {
    const user = await createUser(t);
    const login = await asPublic(t, spa, { method: 'POST', path: 'login/email/', headers: { origin: SPA },
      payload: { email: user.email, password: user.password } });
    expectStatus(login, 200);
    const cookie = refreshCookieOf(login);
    assert.ok(cookie.attributes.includes('Path=/'), cookie.line);
    assertError(await rootRefresh(cookie.value, { origin: 'https://evil.example' }), 401, 'APP_AUTH_INVALID');
    assertError(await rootRefresh(cookie.value, {}), 401, 'APP_AUTH_INVALID');
    // A confidential application's headers: no cookie mode for it with the switch off.
    assertError(await rootRefresh(cookie.value, t.headers), 400, 'MISSING_REFRESH_TOKEN');
    const res = await rootRefresh(cookie.value, { origin: SPA });
    const body = expectStatus(res, 200);
    assert.ok(!('refresh_token' in body) && !('refresh' in body), res.body);
    assert.equal(body.access, body.access_token);
    assert.notEqual(refreshCookieOf(res).value, cookie.value);
    // The public application's own key works at the root too.
    expectStatus(await rootRefresh(refreshCookieOf(res).value, { ...spa.headers, origin: SPA }), 200);
  });
});
