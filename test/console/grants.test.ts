import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import * as client from 'openid-client';
import { COMMAND_LINE_ORIGIN } from '../../src/modules/rbac/actor.js';
import { grantDirect } from '../factories/rbac.js';
import { createUser, type TestUser } from '../factories/users.js';
import { describeInBrowser } from '../helpers/browser.js';
import { createBrowser, formOf } from '../http/oauth/browser.js';
import { startConsole, type ConsoleServer } from './harness.js';

// docs/oauth.md "Grants": an operator sees an account's grants to OAuth clients on its page, and revokes one.
const REDIRECT = 'http://127.0.0.1:9/callback';
const NOTES_API = 'https://notes-api.example.com';

describeInBrowser('OAuth grants on the console\'s user page in Chromium', () => {
  let c: ConsoleServer;
  let ann: TestUser;
  let accessToken: string;
  let app: { access_key: string; access_secret: string };

  /** The whole code flow for `who`, through the pages (no JavaScript needed): the grant the console will show. */
  async function grantFor(who: TestUser) {
    const config = await client.discovery(new URL(c.origin), app.access_key, app.access_secret, undefined,
      { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid users.view', state: 's', resource: NOTES_API,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const browser = createBrowser(c.origin);
    const signIn = formOf((await browser.open(url.toString())).html);
    const consent = formOf((await browser.submit(signIn.action, { ...signIn.fields, email: who.email!, password: who.password! })).html);
    const back = await browser.submit(consent.action, { ...consent.fields, decision: 'approve' });
    const tokens = await client.authorizationCodeGrant(config, new URL(back.location!), { pkceCodeVerifier: verifier, expectedState: 's' },
      { resource: NOTES_API });
    return tokens.access_token;
  }

  const active = async (token: string) => {
    const res = await fetch(`${c.origin}/oauth/introspect`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${app.access_key}:${app.access_secret}`).toString('base64')}` },
      body: new URLSearchParams({ token }).toString() });
    return ((await res.json()) as { active: boolean }).active;
  };

  before(async () => {
    c = await startConsole({ env: { SVC_OAUTH_ENABLED: 'true' } });
    ({ credentials: app } = await c.t.container.services.applications.create({ name: 'Notes <App>', redirect_uris: [REDIRECT],
      post_logout_redirect_uris: [], allowed_origins: [] }) as { credentials: { access_key: string; access_secret: string } });
    await c.t.container.services.oauthResources.create({ uri: NOTES_API, name: 'Notes API', scopes: ['users.view'] }, COMMAND_LINE_ORIGIN);
    ann = await createUser(c.t, { first_name: 'Ann', last_name: 'Grant', email: 'ann.grant@example.com' });
    await grantDirect(c.t, ann.id, ['users.view']);
    accessToken = await grantFor(ann);
  });
  after(async () => { await c?.close(); });

  it('lists the grant with its client as text, its resource, scopes and limits, and revokes it after a confirmation', async () => {
    assert.equal(await active(accessToken), true);
    const { page, problems } = await c.signedIn({ hash: `#/users/${ann.id}` });
    await page.getByRole('heading', { name: 'OAuth grants' }).waitFor();
    const table = page.getByRole('table', { name: 'Grants to OAuth clients' });
    const row = table.locator('tbody tr', { hasText: 'Notes <App>' });
    await row.waitFor();
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /https:\/\/notes-api\.example\.com/);
    assert.match(text, /users\.view/);
    assert.match(text, /600\/min, no budget/);
    assert.match(text, /active/);
    assert.equal(await page.locator('main img').count(), 0);
    await c.screenshot(page, 'user-oauth-grants');

    await row.getByRole('button', { name: 'Revoke the grant to Notes <App>' }).click();
    await page.getByRole('group', { name: 'Confirm the revocation' }).getByRole('button', { name: 'Confirm revoke' }).click();
    await page.getByText('Grant revoked: its access and refresh tokens stop working now.').waitFor();
    await table.getByText('No grant.').waitFor();
    assert.equal(await active(accessToken), false, 'the grant\'s token stopped at once');
    assert.deepEqual(problems, []);
  });
});
