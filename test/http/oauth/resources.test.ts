import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { grantDirect } from '../../factories/rbac.js';
import { signIn } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import type { TestApp } from '../../helpers/test-app.js';
import { startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md "Resources": registered APIs, audience-bound RFC 9068 access tokens, permission scopes the person holds.
const NOTES_API = 'https://notes-api.example.com';

describe('OAuth resources and audience-bound tokens (docs/oauth.md "Resources")', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let config: client.Configuration;
  let admin: string;
  let notes: { id: number; client_id: string; client_secret: string };
  let other: { client_id: string; client_secret: string };
  let n = 0;
  const person = () => createUser(t, { email: `res-${++n}@example.com` });

  before(async () => {
    oauth = await startOauthApp();
    t = oauth.t;
    config = await oauth.relyingParty();
    const root = await person();
    await grantDirect(t, root.id, ['applications.manage', 'applications.view']);
    admin = (await signIn(t, root)).access_token;
    const created = await t.api({ method: 'POST', path: 'oauth/resources/', token: admin,
      payload: { uri: NOTES_API, name: 'Notes API', scopes: ['users.view', 'users.manage'] } });
    assert.equal(created.statusCode, 201, created.body);
    notes = { id: created.json().resource.id, ...created.json().credentials };
    const second = await t.api({ method: 'POST', path: 'oauth/resources/', token: admin,
      payload: { uri: 'https://billing-api.example.com', name: 'Billing API', scopes: ['users.view'] } });
    other = second.json().credentials;
  });
  after(() => t.close());

  /** Introspection with a resource's own credentials. */
  const introspectAs = async (creds: { client_id: string; client_secret: string }, token: string) => {
    const res = await fetch(`${oauth.issuer}/oauth/introspect`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}` },
      body: new URLSearchParams({ token }).toString() });
    assert.equal(res.status, 200, await res.clone().text());
    return await res.json() as Record<string, unknown>;
  };

  async function tokensFor(user: TestUser, scope = 'openid users.view users.manage') {
    const { location, verifier, state, nonce } = await oauth.authorize(config, user, { scope, params: { resource: NOTES_API } });
    return client.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce },
      { resource: NOTES_API });
  }

  it('registers a resource once, with credentials shown once; a bad or repeated URI is refused', async () => {
    const list = await t.api({ method: 'GET', path: 'oauth/resources/', token: admin });
    assert.deepEqual(list.json().results.map((r: { uri: string }) => r.uri), ['https://billing-api.example.com', NOTES_API]);
    assert.ok(!JSON.stringify(list.json()).includes(notes.client_secret));
    const again = await t.api({ method: 'POST', path: 'oauth/resources/', token: admin, payload: { uri: NOTES_API, name: 'Again' } });
    assert.equal(again.statusCode, 400);
    const plain = await t.api({ method: 'POST', path: 'oauth/resources/', token: admin, payload: { uri: 'http://api.example.com', name: 'Plain' } });
    assert.equal(plain.statusCode, 400);
    assert.ok(plain.json().details.uri);
    const nobody = await person();
    const denied = await t.api({ method: 'POST', path: 'oauth/resources/', token: (await signIn(t, nobody)).access_token,
      payload: { uri: 'https://x.example.com', name: 'X' } });
    assert.equal(denied.statusCode, 403);
  });

  it('issues a JWT for the resource: typ at+jwt, aud its URI, the permission scopes the person holds, verifiable with the JWKS', async () => {
    const user = await person();
    await grantDirect(t, user.id, ['users.view']);
    const tokens = await tokensFor(user);
    assert.equal(decodeProtectedHeader(tokens.access_token).typ, 'at+jwt');
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(`${oauth.issuer}/.well-known/jwks.json`)),
      { issuer: oauth.issuer, audience: NOTES_API, typ: 'at+jwt' });
    assert.equal(payload.sub, String(user.id));
    assert.equal(payload.client_id, oauth.clientId);
    assert.equal(typeof payload.auth_time, 'number');
    assert.deepEqual(String(payload.scope).split(' ').sort(), ['users.view'], 'users.manage is not held: not granted');
  });

  it('is active to its resource\'s introspection only, says what it may do now, and dies when revoked', async () => {
    const user = await person();
    await grantDirect(t, user.id, ['users.view']);
    const tokens = await tokensFor(user);
    const seen = await introspectAs(notes, tokens.access_token);
    assert.equal(seen.active, true);
    assert.equal(seen.aud, NOTES_API);
    assert.equal(seen.scope, 'users.view');
    assert.equal(seen.sub, String(user.id));
    assert.equal((await introspectAs(other, tokens.access_token)).active, false, 'another resource sees nothing');
    assert.equal((await client.tokenIntrospection(config, tokens.access_token)).active, true, 'the client sees it');

    await t.container.db.deleteFrom('user_permissions').where('user_id', '=', user.id).execute();
    const now = await introspectAs(notes, tokens.access_token);
    assert.equal(now.active, true);
    assert.equal(now.scope, undefined, 'the permission is no longer held');

    await client.tokenRevocation(config, tokens.access_token);
    assert.equal((await introspectAs(notes, tokens.access_token)).active, false);
  });

  it('refuses a resource that is not registered (invalid_target), and refuses bad resource credentials', async () => {
    const user = await person();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: 'http://127.0.0.1:9/callback', scope: 'openid', state: 's',
      resource: 'https://unknown.example.com', code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256' });
    const res = await fetch(url, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'invalid_target');
    const tokens = await oauth.tokensFor(config, user, 'openid');
    const wrong = await fetch(`${oauth.issuer}/oauth/introspect`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${notes.client_id}:wrong`).toString('base64')}` },
      body: new URLSearchParams({ token: tokens.access_token }).toString() });
    assert.equal(wrong.status, 401);
  });
});
