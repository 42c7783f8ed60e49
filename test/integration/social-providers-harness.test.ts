import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { startOAuth2Server, type TestOAuth2Server } from '../helpers/oauth2-server.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';

const SERVICE_CALLBACK = 'http://localhost/api/v1/social/google/callback/';
const APP_REDIRECT = 'http://localhost:3000/callback';
const ALICE = { email: 'alice@example.com', email_verified: true, given_name: 'Alice', family_name: 'Liddell' };

/** Whether a new server can listen on `port` (nothing holds it any more). */
const portIsFree = (port: number) => new Promise<boolean>((resolve) => {
  const probe: Server = createServer();
  probe.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
});
const pkce = async () => {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) };
};
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('the OpenID provider test helper (oidc-provider on loopback)', () => {
  let op: TestOidcProvider;
  let config: client.Configuration;

  before(async () => {
    op = await startOidcProvider({ redirectUris: [SERVICE_CALLBACK, APP_REDIRECT], extraClaims: ['xms_edov'] });
    op.setAccount('alice', ALICE);
    config = await client.discovery(new URL(op.issuer), op.clientId, op.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
  });
  after(() => op.close());

  it('publishes its discovery document from an http issuer on 127.0.0.1 with PKCE S256 and both secret methods', async () => {
    assert.match(op.issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
    const meta = config.serverMetadata();
    assert.equal(meta.issuer, op.issuer);
    assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
    for (const method of ['client_secret_basic', 'client_secret_post']) assert.ok(meta.token_endpoint_auth_methods_supported?.includes(method));
    for (const claim of ['email', 'email_verified', 'name', 'given_name', 'family_name']) assert.ok(meta.claims_supported?.includes(claim));
    for (const url of [meta.authorization_endpoint, meta.token_endpoint, meta.userinfo_endpoint, meta.jwks_uri]) assert.ok(url?.startsWith(op.issuer));
  });

  it('gives a code through the real authorization endpoint and exchanges it, with PKCE, for a signed ID token', async () => {
    const { verifier, challenge } = await pkce();
    const { code, state } = await op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT, codeChallenge: challenge, nonce: 'n-1', state: 's-1' });
    assert.equal(state, 's-1');
    const tokens = await op.exchange(code, APP_REDIRECT, verifier);
    const { payload } = await jwtVerify(tokens.id_token, createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)), { issuer: op.issuer, audience: op.clientId });
    assert.equal(payload.sub, 'alice');
    assert.equal(payload.nonce, 'n-1');
    assert.equal(payload.email, 'alice@example.com');
    assert.equal(payload.email_verified, true);
    assert.equal(payload.name, 'Alice Liddell');
    await assert.rejects(op.exchange(code, APP_REDIRECT, verifier), /invalid_grant/, 'a code is single use');
  });

  it('refuses a code with the wrong verifier and accepts client_secret_post', async () => {
    const { verifier, challenge } = await pkce();
    const first = await op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT, codeChallenge: challenge });
    await assert.rejects(op.exchange(first.code, APP_REDIRECT, client.randomPKCECodeVerifier()), /invalid_grant/);
    const { code } = await op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT, codeChallenge: challenge });
    const res = await fetch(config.serverMetadata().token_endpoint!, { method: 'POST', body: new URLSearchParams({
      grant_type: 'authorization_code', code, redirect_uri: APP_REDIRECT, code_verifier: verifier, client_id: op.clientId, client_secret: op.clientSecret,
    }) });
    assert.equal(res.status, 200);
    assert.ok(((await res.json()) as { id_token?: string }).id_token);
  });

  it('serves openid-client: discovery, the authorization code grant with PKCE and nonce, and userinfo', async () => {
    op.setAccount('bob', { email: 'bob@example.com', email_verified: false, name: 'Bob', xms_edov: false });
    const { verifier, challenge } = await pkce();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: SERVICE_CALLBACK, scope: 'openid email profile', code_challenge: challenge, code_challenge_method: 'S256', nonce, state,
    });
    const callback = await op.signIn(url, 'bob');
    assert.equal(callback.origin + callback.pathname, SERVICE_CALLBACK);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state });
    assert.deepEqual({ ...tokens.claims(), iat: 0, exp: 0 }, {
      sub: 'bob', email: 'bob@example.com', email_verified: false, name: 'Bob', xms_edov: false,
      nonce, aud: op.clientId, iss: op.issuer, iat: 0, exp: 0,
    });
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, 'bob');
    assert.deepEqual(userinfo, { sub: 'bob', email: 'bob@example.com', email_verified: false, name: 'Bob', xms_edov: false });
  });

  it('sends the refusal back to the redirect URI as error=access_denied with the state', async () => {
    const url = client.buildAuthorizationUrl(config, { redirect_uri: SERVICE_CALLBACK, scope: 'openid email', state: 's-2' });
    const callback = await op.signIn(url, 'alice', { deny: true });
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    assert.equal(callback.searchParams.get('state'), 's-2');
  });

  it('mints ID tokens the JWKS verifies, and the variants a verifier must refuse', async () => {
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const expected = { issuer: op.issuer, audience: op.clientId };
    const { payload } = await jwtVerify(await op.issueIdToken({ sub: 'alice', nonce: 'n-3' }), jwks, expected);
    assert.equal(payload.email, 'alice@example.com');
    assert.equal(payload.nonce, 'n-3');
    await assert.rejects(jwtVerify(await op.issueIdToken({ sub: 'alice', audience: 'someone-else' }), jwks, expected), { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'aud' });
    await assert.rejects(jwtVerify(await op.issueIdToken({ sub: 'alice', expiresIn: -60 }), jwks, expected), { code: 'ERR_JWT_EXPIRED' });
    await assert.rejects(jwtVerify(await op.issueIdToken({ sub: 'alice', issuer: 'http://127.0.0.1:1' }), jwks, expected), { claim: 'iss' });
    await assert.rejects(jwtVerify(await op.issueIdToken({ sub: 'alice', signWithForeignKey: true }), jwks, expected), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
    const clock = new Date('2030-01-01T00:00:00Z');
    const { payload: atClock } = await jwtVerify(await op.issueIdToken({ sub: 'alice', now: clock }), jwks, { ...expected, currentDate: clock });
    assert.equal(atClock.iat, clock.getTime() / 1000);
  });

  it('stalls the token endpoint past the client\'s timeout, answers HTML on demand, and recovers', async () => {
    const impatient = await client.discovery(new URL(op.issuer), op.clientId, op.clientSecret, undefined, { execute: [client.allowInsecureRequests], timeout: 1 });
    op.stall(30_000, ['token']);
    const { redirect } = await op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT });
    await assert.rejects(client.authorizationCodeGrant(impatient, redirect), { code: 'OAUTH_TIMEOUT' });
    op.restore();
    op.garbage(['token', 'userinfo']);
    const second = await op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT });
    await assert.rejects(client.authorizationCodeGrant(config, second.redirect), { code: 'OAUTH_RESPONSE_IS_NOT_JSON' });
    await assert.rejects(client.fetchUserInfo(config, 'any', 'alice'), { code: 'OAUTH_RESPONSE_IS_NOT_JSON' });
    op.restore();
    const third = await op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT });
    assert.equal((await client.authorizationCodeGrant(config, third.redirect)).claims()?.sub, 'alice');
  });

  it('frees its port on close, even with a request stalled', async () => {
    const other = await startOidcProvider({ redirectUris: [APP_REDIRECT] });
    other.stall(60_000, ['discovery']);
    const pending = fetch(`${other.issuer}/.well-known/openid-configuration`).catch((err: Error) => err);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await other.close();
    assert.ok(await pending instanceof Error);
    assert.equal(await portIsFree(Number(new URL(other.issuer).port)), true);
  });
});

describe('the GitHub-shaped OAuth 2 server test helper', () => {
  let gh: TestOAuth2Server;
  const exchange = (body: Record<string, string>, headers: Record<string, string> = { accept: 'application/json' }) =>
    fetch(gh.urls.token_url, { method: 'POST', body: new URLSearchParams(body), headers });

  before(async () => {
    gh = await startOAuth2Server();
    gh.setUser('octocat', { id: 583231, name: 'The Octocat', email: null, emails: [
      { email: 'old@example.com', primary: false, verified: true },
      { email: 'octocat@example.com', primary: true, verified: true },
      { email: 'unverified@example.com', primary: false, verified: false },
    ] });
  });
  after(() => gh.close());

  it('redirects with code and state, exchanges the code with PKCE, and serves /user and /user/emails', async () => {
    assert.match(gh.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const { verifier, challenge } = await pkce();
    const authorize = new URL(gh.urls.authorization_url);
    for (const [k, v] of Object.entries({ client_id: gh.clientId, redirect_uri: SERVICE_CALLBACK, scope: 'read:user user:email', state: 's-1', code_challenge: challenge, code_challenge_method: 'S256' })) authorize.searchParams.set(k, v);
    const back = await gh.signIn(authorize, 'octocat');
    assert.equal(back.origin + back.pathname, SERVICE_CALLBACK);
    assert.equal(back.searchParams.get('state'), 's-1');
    const res = await exchange({ client_id: gh.clientId, client_secret: gh.clientSecret, code: back.searchParams.get('code')!, redirect_uri: SERVICE_CALLBACK, code_verifier: verifier });
    const token = (await res.json()) as { access_token: string; token_type: string; scope: string };
    assert.deepEqual({ ...token, access_token: typeof token.access_token }, { access_token: 'string', token_type: 'bearer', scope: 'read:user,user:email' });
    const auth = { authorization: `Bearer ${token.access_token}` };
    assert.deepEqual(await (await fetch(gh.urls.userinfo_url, { headers: auth })).json(), { id: 583231, login: 'octocat', name: 'The Octocat', email: null });
    const emails = (await (await fetch(gh.urls.emails_url!, { headers: auth })).json()) as Array<{ email: string; primary: boolean; verified: boolean }>;
    assert.deepEqual(emails.filter((e) => e.primary && e.verified).map((e) => e.email), ['octocat@example.com']);
    assert.equal((await fetch(gh.urls.userinfo_url)).status, 401);
  });

  it('answers token errors with 200 and an error field, as GitHub does, and form-encoded without Accept JSON', async () => {
    const { verifier, challenge } = await pkce();
    const code = gh.issueCode({ login: 'octocat', redirectUri: APP_REDIRECT, codeChallenge: challenge });
    const wrongSecret = await exchange({ client_id: gh.clientId, client_secret: 'nope', code, code_verifier: verifier });
    assert.equal(wrongSecret.status, 200);
    assert.equal(((await wrongSecret.json()) as { error: string }).error, 'incorrect_client_credentials');
    const noVerifier = await exchange({ client_id: gh.clientId, client_secret: gh.clientSecret, code: gh.issueCode({ login: 'octocat', redirectUri: APP_REDIRECT, codeChallenge: challenge }) });
    assert.equal(((await noVerifier.json()) as { error: string }).error, 'bad_verification_code');
    const json = await fetch(gh.urls.token_url, { method: 'POST', body: JSON.stringify({ code, redirect_uri: APP_REDIRECT, code_verifier: verifier }),
      headers: { 'content-type': 'application/json', authorization: basic(gh.clientId, gh.clientSecret) } });
    assert.match(json.headers.get('content-type')!, /x-www-form-urlencoded/);
    assert.equal(new URLSearchParams(await json.text()).get('token_type'), 'bearer');
    const reused = await exchange({ client_id: gh.clientId, client_secret: gh.clientSecret, code, code_verifier: verifier });
    assert.equal(((await reused.json()) as { error: string }).error, 'bad_verification_code', 'a code is single use');
  });

  it('hides /user/emails from a token without the user:email scope', async () => {
    const token = gh.issueToken({ login: 'octocat', scope: 'read:user' });
    assert.equal((await fetch(gh.urls.emails_url!, { headers: { authorization: `token ${token}` } })).status, 404);
  });

  it('confirms through the token check only the tokens issued to the calling client', async () => {
    const check = (token: string, secret = gh.clientSecret) => fetch(gh.urls.token_check_url!.replace('{client_id}', gh.clientId), {
      method: 'POST', body: JSON.stringify({ access_token: token }), headers: { authorization: basic(gh.clientId, secret), 'content-type': 'application/json' },
    });
    const ours = gh.issueToken({ login: 'octocat' });
    const answer = await check(ours);
    assert.equal(answer.status, 200);
    assert.deepEqual(((await answer.json()) as { user: unknown }).user, { id: 583231, login: 'octocat', name: 'The Octocat', email: null });
    assert.equal((await check(gh.issueToken({ login: 'octocat', clientId: 'another-site' }))).status, 404);
    assert.equal((await check('gho_unknown')).status, 404);
    assert.equal((await check(ours, 'wrong-secret')).status, 401);
  });

  it('stalls, answers HTML on demand, recovers, and frees its port on close', async () => {
    const token = gh.issueToken({ login: 'octocat' });
    gh.stall(30_000, ['user']);
    await assert.rejects(fetch(gh.urls.userinfo_url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' });
    gh.restore();
    gh.garbage(['emails']);
    const garbled = await fetch(gh.urls.emails_url!, { headers: { authorization: `Bearer ${token}` } });
    assert.match(garbled.headers.get('content-type')!, /text\/html/);
    await assert.rejects(garbled.json(), SyntaxError);
    gh.restore();
    assert.equal((await fetch(gh.urls.emails_url!, { headers: { authorization: `Bearer ${token}` } })).status, 200);

    const other = await startOAuth2Server();
    other.stall(60_000, ['token']);
    const pending = fetch(other.urls.token_url, { method: 'POST' }).catch((err: Error) => err);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await other.close();
    assert.ok(await pending instanceof Error);
    assert.equal(await portIsFree(Number(new URL(other.url).port)), true);
  });
});
