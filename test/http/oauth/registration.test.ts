import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { createUser } from '../../factories/users.js';
import type { TestApp } from '../../helpers/test-app.js';
import { createBrowser, formOf } from './browser.js';
import { startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md "Dynamic registration": public clients only, marked unverified, a few per address.
const NATIVE_REDIRECT = 'http://127.0.0.1:7/cb';

describe('dynamic client registration (RFC 7591, docs/oauth.md "Dynamic registration")', () => {
  let oauth: OauthApp;
  let t: TestApp;

  before(async () => {
    oauth = await startOauthApp();
    t = oauth.t;
  });
  after(() => t.close());

  const register = (metadata: Partial<client.ClientMetadata>) => client.dynamicClientRegistration(new URL(oauth.issuer),
    { redirect_uris: [NATIVE_REDIRECT], ...metadata }, client.None(), { execute: [client.allowInsecureRequests] });

  it('registers a public client even when a confidential one is asked for, and signs a person in through it', async () => {
    const config = await register({ client_name: 'Claude <Desktop>', token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'] } as Partial<client.ClientMetadata>);
    const metadata = config.clientMetadata();
    assert.equal(metadata.token_endpoint_auth_method, 'none');
    assert.equal(metadata.client_secret, undefined, 'no secret is handed out');
    assert.deepEqual(metadata.grant_types, ['authorization_code', 'refresh_token']);

    const user = await createUser(t, { email: 'dyn@example.com' });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: NATIVE_REDIRECT, scope: 'openid offline_access', state: 's',
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const browser = createBrowser(oauth.issuer);
    const page = await browser.open(url.toString());
    const form = formOf(page.html);
    const consent = await browser.submit(form.action, { ...form.fields, email: user.email!, password: user.password! });
    assert.match(consent.html, /Unverified application/);
    assert.match(consent.html, /Claude &lt;Desktop&gt;/);
    const approve = formOf(consent.html);
    const back = await browser.submit(approve.action, { ...approve.fields, decision: 'approve' });
    const tokens = await client.authorizationCodeGrant(config, new URL(back.location!), { pkceCodeVerifier: verifier, expectedState: 's' });
    assert.ok(tokens.refresh_token);

    const session = await t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } });
    const grants = await t.api({ method: 'GET', path: 'me/grants/', token: session.json().access_token });
    const [grant] = grants.json().results;
    assert.equal(grant.verified, false);
    assert.equal(grant.client_name, 'Claude <Desktop>');
  });

  it('stores no registration access token as it is', async () => {
    const config = await register({ client_name: 'Inspector' });
    const rows = await t.container.db.selectFrom('oauth_records').select(['model', 'payload']).where('model', '=', 'RegistrationAccessToken').execute();
    assert.ok(rows.length > 0);
    const token = (config.clientMetadata() as { registration_access_token?: string }).registration_access_token;
    assert.ok(token, 'the registration answer carries its access token');
    for (const row of rows) assert.ok(!JSON.stringify(row).includes(token));
  });
});

describe('dynamic registration switched off, and its rate limit', () => {
  it('has no registration endpoint with SVC_OAUTH_DYNAMIC_REGISTRATION=false', async () => {
    const oauth = await startOauthApp({ SVC_OAUTH_DYNAMIC_REGISTRATION: 'false' });
    try {
      const metadata = await (await fetch(`${oauth.issuer}/.well-known/openid-configuration`)).json() as Record<string, unknown>;
      assert.equal(metadata.registration_endpoint, undefined);
      const res = await fetch(`${oauth.issuer}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [NATIVE_REDIRECT] }) });
      assert.equal(res.status, 404);
    } finally {
      await oauth.t.close();
    }
  });

  it('answers 429 past ten registrations an hour from one address (a hundred in debug, whose limits are ×10)', async () => {
    const oauth = await startOauthApp({ SVC_RATE_LIMITING_ENABLED: 'true' });
    const limit = 10 * 10;
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= limit; i++) {
        const res = await fetch(`${oauth.issuer}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [NATIVE_REDIRECT], token_endpoint_auth_method: 'none' }) });
        statuses.push(res.status);
      }
      assert.deepEqual(statuses.slice(0, limit), Array(limit).fill(201));
      assert.equal(statuses[limit], 429);
    } finally {
      await oauth.t.close();
    }
  });
});
