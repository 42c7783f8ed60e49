import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it, mock } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createPublicApplication } from '../../factories/applications.js';
import { parseSetCookie } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { enableTotp } from '../../factories/twofactor.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { expectStatus } from '../../helpers/answers.js';
import { APP_REDIRECT, serviceCallback, socialLogin, startProviders } from './helpers.js';

const ALICE = { email: 'alice@example.com', email_verified: true, given_name: 'Alice', family_name: 'Liddell' };
const COOKIE = 'gatehouse_social_state';

/** docs/social-login.md "The browser flow": authorize/ → provider → callback/ → 302 to the application, with real providers on loopback. */
describe('the browser social-login flow', () => {
  let providers: Awaited<ReturnType<typeof startProviders>>;
  before(async () => { providers = await startProviders(); });
  const t = useTestApp(() => ({ env: providers.env }));
  const fragment = useTestApp(() => ({
    env: { ...providers.env, SVC_SOCIAL_CALLBACK_TOKENS_IN_FRAGMENT: 'true', SVC_TRUSTED_PROXIES: '127.0.0.1' }, reset: false,
  }));
  after(async () => { await providers.close(); });
  beforeEach(() => {
    providers.restore();
    providers.op.setAccount('alice', ALICE);
    providers.gh.setUser('octo', { id: 4242, name: 'Octo Cat', emails: [{ email: 'octo@example.com', primary: true, verified: true }] });
    providers.fb.setUser('zuck', { id: 4, name: 'Mark Elliot', email: 'mark@example.com' });
  });

  /** GET social/<provider>/authorize/ as a browser: no application headers, `Host: localhost`. */
  const authorize = (app: TestApp, provider: string, query: Record<string, string>) => app.app.inject({
    method: 'GET', url: `/api/v1/auth/social/${provider}/authorize/?${new URLSearchParams(query).toString()}`, headers: { host: 'localhost' },
  });
  const stateCookieOf = (res: LightMyRequestResponse) => {
    const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${COOKIE}=`));
    assert.ok(header, 'the state cookie is set');
    assert.match(header, /HttpOnly/);
    assert.match(header, /SameSite=Lax/);
    return decodeURIComponent(header.split(';')[0]!.slice(COOKIE.length + 1));
  };
  /** The provider's redirect back to Gatehouse, followed as the browser would (with or without the cookie). */
  const callback = (app: TestApp, back: URL, cookie: string | null) => app.app.inject({
    method: 'GET', url: `${back.pathname}${back.search}`, headers: { host: 'localhost', ...(cookie ? { cookie: `${COOKIE}=${cookie}` } : {}) },
  });
  /** authorize/ → the provider signs `sub` in → the URL the provider sends the browser back to, and the state cookie. */
  const toProvider = async (app: TestApp, provider: 'google' | 'github' | 'facebook', who: string,
    opts: { deny?: boolean; accessKey?: string } = {}) => {
    const started = await authorize(app, provider, { access_key: opts.accessKey ?? app.credentials.access_key, redirect_uri: APP_REDIRECT });
    assert.equal(started.statusCode, 302, started.body);
    const location = new URL(started.headers.location as string);
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(location.searchParams.get('redirect_uri'), serviceCallback(provider));
    const back = await { google: providers.op, github: providers.gh, facebook: providers.fb }[provider].signIn(location, who, opts);
    return { back, cookie: stateCookieOf(started), location };
  };
  const landing = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['cache-control'], 'no-store');
    return new URL(res.headers.location as string);
  };

  it('signs in through an OpenID provider and lands on the application with the tokens in the query', async () => {
    const { back, cookie, location } = await toProvider(t, 'google', 'alice');
    assert.ok(location.searchParams.get('nonce'), 'a nonce is always sent');
    const to = landing(await callback(t, back, cookie));
    assert.equal(`${to.origin}${to.pathname}`, APP_REDIRECT);
    assert.equal(to.searchParams.get('token_type'), 'Bearer');
    const me = await t.api({ method: 'GET', path: 'me/', token: to.searchParams.get('access_token')! });
    assert.equal(expectStatus(me, 200).email, 'alice@example.com');
    assert.ok(to.searchParams.get('refresh_token'));
  });

  it('signs in through a GitHub-shaped and a Facebook-shaped provider the same way', async () => {
    for (const [provider, who, email] of [['github', 'octo', 'octo@example.com'], ['facebook', 'zuck', 'mark@example.com']] as const) {
      const { back, cookie, location } = await toProvider(t, provider, who);
      assert.equal(location.searchParams.get('scope'), provider === 'github' ? 'read:user user:email' : 'email public_profile');
      const to = landing(await callback(t, back, cookie));
      const me = await t.api({ method: 'GET', path: 'me/', token: to.searchParams.get('access_token')! });
      assert.equal(expectStatus(me, 200).email, email, provider);
    }
  });

  it('puts the tokens in the fragment with SVC_SOCIAL_CALLBACK_TOKENS_IN_FRAGMENT', async () => {
    await fragment.reset();
    const { back, cookie } = await toProvider(fragment, 'google', 'alice');
    const to = landing(await callback(fragment, back, cookie));
    assert.equal(to.search, '');
    const params = new URLSearchParams(to.hash.slice(1));
    assert.ok(params.get('access_token'));
  });

  it('gives the provider the public callback address: a trusted proxy\'s X-Forwarded-Proto and -Host, else the request\'s', async () => {
    const forwarded = { host: 'localhost', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'auth.example.com' };
    const query = (app: TestApp) => new URLSearchParams({ access_key: app.credentials.access_key, redirect_uri: APP_REDIRECT }).toString();
    const untrusted = await t.app.inject({ method: 'GET', url: `/api/v1/auth/social/google/authorize/?${query(t)}`, headers: forwarded });
    assert.equal(new URL(untrusted.headers.location as string).searchParams.get('redirect_uri'), serviceCallback('google'));
    // The two apps share the test database: the other one's application is re-created by its reset.
    await fragment.reset();
    const viaProxy = await fragment.app.inject({ method: 'GET', url: `/api/v1/auth/social/google/authorize/?${query(fragment)}`,
      headers: forwarded, remoteAddress: '127.0.0.1' });
    assert.equal(new URL(viaProxy.headers.location as string).searchParams.get('redirect_uri'),
      'https://auth.example.com/api/v1/auth/social/google/callback/');
  });

  it('refuses a state without its cookie, with another cookie, or replayed: 400 CALLBACK_ERROR, no tokens', async () => {
    for (const cookie of [null, 'someone-elses-cookie']) {
      const { back } = await toProvider(t, 'google', 'alice');
      const res = await callback(t, back, cookie);
      assert.equal(expectStatus(res, 400).code, 'CALLBACK_ERROR');
    }
    const { back, cookie } = await toProvider(t, 'google', 'alice');
    landing(await callback(t, back, cookie));
    assert.equal(expectStatus(await callback(t, back, cookie), 400).code, 'CALLBACK_ERROR');
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    assert.equal(expectStatus(await callback(t, forged, cookie), 400).code, 'CALLBACK_ERROR');
  });

  it('lands a public application with the access token only: its refresh token is in the HttpOnly cookie', async () => {
    const origin = 'http://localhost:3000';
    const spa = await createPublicApplication(t, { allowed_origins: [origin], redirect_uris: [APP_REDIRECT] });
    const { back, cookie } = await toProvider(t, 'google', 'alice', { accessKey: spa.access_key });
    const res = await callback(t, back, cookie);
    const to = landing(res);
    assert.equal(to.searchParams.get('refresh_token'), null);
    const access = to.searchParams.get('access_token')!;
    const refreshCookie = parseSetCookie(res.headers['set-cookie']);
    assert.ok(refreshCookie?.value, JSON.stringify(res.headers['set-cookie']));
    assert.ok(refreshCookie.attributes.includes('HttpOnly') && refreshCookie.attributes.includes('SameSite=Strict'), refreshCookie.line);
    const headers = { ...spa.headers, origin };
    assert.equal(expectStatus(await t.api({ method: 'GET', path: 'me/', token: access, appAuth: false, headers }), 200).email,
      'alice@example.com');
    const refreshed = await t.api({ method: 'POST', path: 'refresh/', appAuth: false, cookies: { refresh_token: refreshCookie.value },
      headers: { ...headers, 'content-type': 'application/json' }, payload: '' });
    assert.equal(expectStatus(refreshed, 200).refresh_token, undefined);
  });

  it('sends a refusal at the provider back to the application as error=CALLBACK_ERROR', async () => {
    const { back, cookie } = await toProvider(t, 'google', 'alice', { deny: true });
    assert.equal(back.searchParams.get('error'), 'access_denied');
    const to = landing(await callback(t, back, cookie));
    assert.deepEqual([...to.searchParams.keys()], ['error'], 'the code only: nothing the provider wrote reaches the application\'s page');
    assert.equal(to.searchParams.get('error'), 'CALLBACK_ERROR');
  });

  it('sends a 2FA account back with error=2FA_REQUIRED and a single-use mfa_token that a code turns into tokens', async () => {
    const ann = await createUser(t, { email: 'alice@example.com', verified: true });
    const totp = await enableTotp(t, ann);
    const { back, cookie } = await toProvider(t, 'google', 'alice');
    const to = landing(await callback(t, back, cookie));
    assert.equal(to.searchParams.get('error'), '2FA_REQUIRED');
    assert.equal(to.searchParams.get('access_token'), null);
    const mfa_token = to.searchParams.get('mfa_token')!;
    assert.equal(expectStatus(await socialLogin(t, 'google', { mfa_token, totp_code: '000000' }), 401).code, 'INVALID_CODE');
    // The token was consumed by the failed attempt: a new redirect is needed.
    assert.equal(expectStatus(await socialLogin(t, 'google', { mfa_token, totp_code: totp.code() }), 401).code, 'INVALID_TOKEN');
    const again = landing(await callback(t, ...(Object.values(await toProvider(t, 'google', 'alice')).slice(0, 2) as [URL, string])));
    const body = expectStatus(await socialLogin(t, 'google', { mfa_token: again.searchParams.get('mfa_token')!, totp_code: totp.code() }), 200);
    assert.equal(body.provider, 'google');
  });

  it('refuses an address outside the application\'s list, an unknown application and an unknown provider', async () => {
    const outside = await authorize(t, 'google', { access_key: t.credentials.access_key, redirect_uri: 'http://evil.example/cb' });
    assert.equal(expectStatus(outside, 400).code, 'INVALID_REDIRECT_URI');
    const unknownApp = await authorize(t, 'google', { access_key: 'nope', redirect_uri: APP_REDIRECT });
    assert.equal(unknownApp.statusCode, 401);
    assert.equal(expectStatus(await authorize(t, 'provider_c', { access_key: t.credentials.access_key, redirect_uri: APP_REDIRECT }), 400).code,
      'INVALID_PROVIDER');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/social/twitter/callback/?state=x&code=y', headers: { host: 'localhost' } });
    assert.equal(expectStatus(res, 400).code, 'PROVIDER_NOT_SUPPORTED');
  });

  it('answers callback/ with application headers, a code and a redirect URI like the POST (200)', async () => {
    const { code } = await providers.op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT });
    const res = await t.api({ method: 'GET', path: `social/google/callback/?${new URLSearchParams({ code, redirect_uri: APP_REDIRECT })}` });
    assert.equal(expectStatus(res, 200).provider, 'google');
    const missing = await t.api({ method: 'GET', path: `social/google/callback/?${new URLSearchParams({ redirect_uri: APP_REDIRECT })}` });
    assert.equal(expectStatus(missing, 400).code, 'MISSING_CODE');
  });

  it('answers callback/ with application headers through the sign-in answer schema: an undeclared field never leaves', async () => {
    const { social } = t.container.services;
    const callback = social.callback;
    // The answer as a careless change to the service could build it: an internal field beside the tokens, and in the user.
    mock.method(social, 'callback', async (...args: Parameters<typeof callback>) => {
      const answer = await callback(...args);
      return { ...answer, internal_note: 'not for clients', user: { ...answer.user, password_hash: 'argon2id$…' } };
    });
    try {
      const { code } = await providers.op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT });
      const res = await t.api({ method: 'GET', path: `social/google/callback/?${new URLSearchParams({ code, redirect_uri: APP_REDIRECT })}` });
      const body = expectStatus(res, 200);
      assert.equal(body.provider, 'google');
      assert.equal(typeof body.access_token, 'string');
      assert.equal(body.user.email, 'alice@example.com');
      assert.equal('internal_note' in body, false);
      assert.equal('password_hash' in body.user, false);
    } finally {
      mock.restoreAll();
    }
  });

  // see: #30 — a refusal forwarded with application headers answered MISSING_CODE (docs/social-login.md).
  it('answers callback/ with application headers and the provider\'s refusal 400 CALLBACK_ERROR, with its error and description', async () => {
    const auth = new URL('/auth', providers.op.issuer);
    for (const [k, v] of Object.entries({ client_id: providers.op.clientId, response_type: 'code', scope: 'openid email',
      redirect_uri: APP_REDIRECT, state: 'app-state' })) auth.searchParams.set(k, v);
    const refused = await providers.op.signIn(auth, 'alice', { deny: true });
    assert.equal(refused.searchParams.get('code'), null);
    const forwarded = new URLSearchParams(refused.search);
    forwarded.set('redirect_uri', APP_REDIRECT);
    const res = await t.api({ method: 'GET', path: `social/google/callback/?${forwarded}` });
    assert.deepEqual(expectStatus(res, 400), { error: 'Callback error', code: 'CALLBACK_ERROR',
      details: { error: 'access_denied', error_description: 'The user refused access.' } });
  });

  it('keeps only a capped, printable error and error_description from a refusal, and signs nobody in even with a code', async () => {
    const { code } = await providers.op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT });
    const query = new URLSearchParams({ code, redirect_uri: APP_REDIRECT, state: 's', iss: providers.op.issuer, scope: 'openid',
      error: `access_denied${'x'.repeat(100)}`, error_description: `<script>alert(1)</script>\r\nSet-Cookie: a=b ${'y'.repeat(1000)}` });
    const body = expectStatus(await t.api({ method: 'GET', path: `social/google/callback/?${query}` }), 400);
    assert.equal(body.code, 'CALLBACK_ERROR');
    assert.deepEqual(Object.keys(body.details).sort(), ['error', 'error_description']);
    assert.equal(body.details.error, `access_denied${'x'.repeat(51)}`);
    assert.equal(body.details.error_description, `<script>alert(1)</script>Set-Cookie: a=b ${'y'.repeat(200 - 41)}`);
    const refusedOnly = expectStatus(await t.api({ method: 'GET', path: `social/google/callback/?error=server_error` }), 400);
    assert.deepEqual(refusedOnly.details, { error: 'server_error' });
    const users = await t.container.db.selectFrom('users').select('id').where('email', '=', 'alice@example.com').execute();
    assert.deepEqual(users, [], 'the code that came with the refusal was not used');
    // The code is still good: the refusal did not spend it.
    const res = await t.api({ method: 'GET', path: `social/google/callback/?${new URLSearchParams({ code, redirect_uri: APP_REDIRECT })}` });
    assert.equal(expectStatus(res, 200).provider, 'google');
  });
});
