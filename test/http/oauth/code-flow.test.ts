import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { createUser, type TestUser } from '../../factories/users.js';
import type { TestApp } from '../../helpers/test-app.js';
import { createBrowser, formOf } from './browser.js';
import { REDIRECT, SIGNED_OUT, startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md: the authorization code flow with PKCE, driven by openid-client as the relying party and a browser
// without JavaScript through the sign-in and consent pages.
describe('OAuth authorization code flow (docs/oauth.md)', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let issuer: string;
  let user: TestUser;
  let clientId: string;

  before(async () => {
    oauth = await startOauthApp();
    ({ t, issuer, clientId } = oauth);
  });
  after(() => t.close());

  const relyingParty = (secret?: string) => oauth.relyingParty(secret);
  const authorize = (config: client.Configuration, opts: { scope?: string; decision?: 'approve' | 'deny' } = {}) =>
    oauth.authorize(config, user, opts);

  before(async () => {
    user = await createUser(t, { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' });
  });

  it('serves the same metadata at both discovery URLs, with PKCE S256 and iss in responses', async () => {
    const openid = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json() as Record<string, unknown>;
    const oauth = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    assert.deepEqual(oauth, openid);
    assert.equal(openid.issuer, issuer);
    assert.deepEqual(openid.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(openid.response_types_supported, ['code']);
    assert.equal(openid.authorization_response_iss_parameter_supported, true);
    assert.equal(openid.jwks_uri, `${issuer}/.well-known/jwks.json`);
    const jwks = await (await fetch(`${issuer}/.well-known/jwks.json`)).json() as { keys: { alg: string }[] };
    assert.ok(jwks.keys.some((k) => k.alg === 'RS256'), 'the key set holds an RS256 key');
  });

  it('signs the person in, asks consent, and issues ID, access and refresh tokens the relying party verifies', async () => {
    const config = await relyingParty();
    const { location, verifier, state, nonce } = await authorize(config);
    assert.equal(location.searchParams.get('iss'), issuer);
    const tokens = await client.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const claims = tokens.claims()!;
    assert.equal(claims.sub, String(user.id));
    assert.equal(typeof claims.auth_time, 'number');
    assert.ok(tokens.refresh_token, 'offline_access gives a refresh token');
    const info = await client.fetchUserInfo(config, tokens.access_token, String(user.id));
    assert.equal(info.email, 'ada@example.com');
    assert.equal(info.given_name, 'Ada');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token, 'refresh tokens rotate');
    const rows = await t.container.db.selectFrom('oauth_records').select(['id_hash', 'payload']).execute();
    for (const row of rows) {
      const text = JSON.stringify(row);
      assert.ok(!text.includes(tokens.access_token) && !text.includes(tokens.refresh_token!), 'no token is stored as it is');
    }
  });

  it('introspects an access token for its client and revokes it (RFC 7662, RFC 7009)', async () => {
    const config = await relyingParty();
    const { location, verifier, state, nonce } = await authorize(config, { scope: 'openid email' });
    const tokens = await client.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const live = await client.tokenIntrospection(config, tokens.access_token);
    assert.equal(live.active, true);
    assert.equal(live.sub, String(user.id));
    assert.equal(live.client_id, clientId);
    await client.tokenRevocation(config, tokens.access_token);
    assert.equal((await client.tokenIntrospection(config, tokens.access_token)).active, false);
    await assert.rejects(client.fetchUserInfo(config, tokens.access_token, String(user.id)));
  });

  it('refuses a replayed code and revokes what it issued', async () => {
    const config = await relyingParty();
    const { location, verifier, state, nonce } = await authorize(config);
    const tokens = await client.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    await assert.rejects(client.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state }),
      (err: { error?: string }) => err.error === 'invalid_grant');
    await assert.rejects(client.fetchUserInfo(config, tokens.access_token, String(user.id)));
    await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!), (err: { error?: string }) => err.error === 'invalid_grant');
  });

  it('redeems a code once when two exchanges race', async () => {
    const config = await relyingParty();
    const { location, verifier, state } = await authorize(config);
    const results = await Promise.allSettled([1, 2, 3].map(() =>
      client.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state })));
    assert.ok(results.filter((r) => r.status === 'fulfilled').length <= 1, 'at most one exchange succeeds');
  });

  it('refuses a wrong PKCE verifier and a wrong client secret', async () => {
    const config = await relyingParty();
    const { location, state } = await authorize(config);
    await assert.rejects(client.authorizationCodeGrant(config, location, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: state }),
      (err: { error?: string }) => err.error === 'invalid_grant');
    const wrong = await relyingParty('not-the-secret');
    await assert.rejects(client.authorizationCodeGrant(wrong, location, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: state }),
      (err: { error?: string }) => err.error === 'invalid_client');
  });

  it('signs the person out with RP-initiated logout, back to a registered address only', async () => {
    const config = await relyingParty();
    const { location, verifier, state, nonce, browser } = await authorize(config, { scope: 'openid' });
    const tokens = await client.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const elsewhere = await browser.open(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: 'http://127.0.0.1:9/elsewhere' }).toString());
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.location, null);
    const question = await browser.open(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: SIGNED_OUT, state: 'bye' }).toString());
    assert.equal(question.status, 200, question.html);
    assert.match(question.html, /name="logout"/);
    const form = formOf(question.html);
    const out = await browser.submit(form.action, { ...form.fields, logout: 'yes' });
    assert.equal(out.status, 303);
    const back = new URL(out.location!);
    assert.equal(`${back.origin}${back.pathname}`, SIGNED_OUT);
    assert.equal(back.searchParams.get('state'), 'bye');
    // Signed out: the next authorization asks for the password again.
    const again = await browser.open(client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' }).toString());
    assert.match(again.html, /name="password"/);
  });

  it('skips consent for a request the person already granted, unless prompt=consent', async () => {
    // A web client: a native one (loopback redirect) is asked every time, as RFC 8252 advises for clients that cannot
    // prove who they are (docs/oauth.md "Sign-in and consent").
    const web = 'https://notes.example.com/callback';
    const { credentials } = await t.container.services.applications.create({ name: 'Web Notes', redirect_uris: [web], allowed_origins: [] });
    const config = await client.discovery(new URL(issuer), credentials.access_key, credentials.access_secret!, undefined,
      { execute: [client.allowInsecureRequests] });
    const browser = createBrowser(issuer);
    const request = async (prompt?: string) => browser.open(client.buildAuthorizationUrl(config, { redirect_uri: web,
      scope: 'openid email', state: 's', ...(prompt ? { prompt } : {}),
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' }).toString());
    const signInPage = await request();
    const signIn = formOf(signInPage.html);
    const consentPage = await browser.submit(signIn.action, { ...signIn.fields, email: user.email!, password: user.password! });
    const consent = formOf(consentPage.html);
    const first = await browser.submit(consent.action, { ...consent.fields, decision: 'approve' });
    assert.ok(new URL(first.location!).searchParams.get('code'));
    const covered = await request();
    assert.equal(covered.status, 303, covered.html);
    assert.ok(new URL(covered.location!).searchParams.get('code'), 'a code without any page');
    const asked = await request('consent');
    assert.equal(asked.status, 200);
    assert.match(asked.html, /name="decision"/);
  });

  it('answers login_required to prompt=none without a sign-in, and shows no page', async () => {
    const config = await relyingParty();
    const res = await fetch(client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 'quiet', prompt: 'none',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' }),
    { redirect: 'manual' });
    assert.equal(res.status, 303);
    const location = new URL(res.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    assert.equal(location.searchParams.get('error'), 'login_required');
    assert.equal(location.searchParams.get('state'), 'quiet');
    assert.equal(location.searchParams.get('code'), null);
  });

  it('answers access_denied when the person denies', async () => {
    const config = await relyingParty();
    const { location } = await authorize(config, { decision: 'deny' });
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('iss'), issuer);
  });

  it('answers a 400 page without redirecting for an unregistered redirect URI or a lookalike of one', async () => {
    for (const lookalike of ['http://127.0.0.1:9/callback.evil', 'http://127.0.0.1:9/callback/', 'http://127.0.0.2:9/callback',
      'http://127.0.0.1:9/Callback', 'https://127.0.0.1:9/callback']) {
      const res = await fetch(`${issuer}/oauth/authorize?client_id=${clientId}&response_type=code&scope=openid`
        + `&redirect_uri=${encodeURIComponent(lookalike)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
      { redirect: 'manual' });
      assert.equal(res.status, 400, lookalike);
      assert.equal(res.headers.get('location'), null, lookalike);
      assert.match(await res.text(), /redirect_uri/);
    }
  });

  it('refuses a sign-in form without its CSRF field or from another origin, and a wrong password', async () => {
    const config = await relyingParty();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
    const browser = createBrowser(issuer);
    const page = await browser.open(url.toString());
    const form = formOf(page.html);
    const noCsrf = await browser.request(form.action, { method: 'POST', form: { email: user.email!, password: user.password! } });
    assert.equal(noCsrf.status, 403);
    const elsewhere = await browser.request(form.action, { method: 'POST', form: { ...form.fields, email: user.email!, password: user.password! },
      headers: { origin: 'https://evil.example' } });
    assert.equal(elsewhere.status, 403);
    const wrong = await browser.submit(form.action, { ...form.fields, email: user.email!, password: 'not the password' });
    assert.equal(wrong.status, 200);
    assert.match(wrong.html, /role="alert"/);
    assert.match(wrong.html, /name="password"/, 'the sign-in form again');
  });
});
