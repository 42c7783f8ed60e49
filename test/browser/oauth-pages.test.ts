import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { createUser } from '../factories/users.js';
import { describeInBrowser, launchChromium } from '../helpers/browser.js';
import { startOauthApp, type OauthApp } from '../http/oauth/flow.js';
import { register } from '../http/passkeys/helpers.js';
import { SoftAuthenticator } from '../helpers/webauthn-authenticator.js';


// docs/oauth.md "Sign-in and consent": the pages work in a real browser with JavaScript off, under their CSP.
describeInBrowser('the authorization server\'s pages in Chromium', () => {
  let browser: Browser;
  let oauth: OauthApp;
  // The client's callback, a server on loopback: where the browser ends up is recorded.
  let callbackServer: Server;
  let REDIRECT: string;
  let callback: URL | undefined;

  after(async () => {
    await browser?.close();
    await oauth?.t.close();
    await new Promise((resolve) => callbackServer?.close(resolve));
  });
  before(async () => {
    callbackServer = createServer((req, res) => {
      // Only the callback itself: the browser asks for /favicon.ico too.
      const url = new URL(req.url!, REDIRECT);
      if (url.pathname === '/callback') callback = url;
      res.end('signed in');
    });
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    REDIRECT = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
    oauth = await startOauthApp();
    browser = await launchChromium();
  });

  it('signs in and consents without JavaScript, and the client exchanges the code it was sent', async () => {
    const user = await createUser(oauth.t, { email: 'chromium@example.com' });
    const { credentials } = await oauth.t.container.services.applications.create({ name: 'Acme <Notes>', redirect_uris: [REDIRECT],
      allowed_origins: [] });
    const config = await client.discovery(new URL(oauth.issuer), credentials.access_key, credentials.access_secret!, undefined,
      { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid email', state: 'st',
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const violations: string[] = [];
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });

    await page.goto(url.toString());
    assert.equal(await page.locator('h1').textContent(), 'Sign in');
    await page.fill('input[name="email"]', user.email!);
    await page.fill('input[name="password"]', user.password!);
    await Promise.all([page.waitForURL(/\/oauth\/interaction\//), page.click('button[type="submit"]')]);
    assert.match(await page.locator('main').textContent() ?? '', /Acme <Notes> wants to access your account/);
    await Promise.all([page.waitForURL(`${REDIRECT}**`), page.click('button[name="decision"][value="approve"]')]);

    assert.ok(callback, 'the browser reached the client');
    assert.equal(callback!.searchParams.get('state'), 'st');
    assert.equal(callback!.searchParams.get('iss'), oauth.issuer);
    const tokens = await client.authorizationCodeGrant(config, callback!, { pkceCodeVerifier: verifier, expectedState: 'st' });
    assert.equal(tokens.claims()!.sub, String(user.id));
    assert.deepEqual(violations, [], 'no Content-Security-Policy violation');
    await context.close();
  });

  it('signs in with a passkey through the page\'s script (a virtual authenticator), under the page\'s CSP', async () => {
    // A domain for the ceremony: the issuer is localhost, the RP ID too (docs/passkeys.md "Settings").
    const local = await startOauthApp({ SVC_WEBAUTHN_ENABLED: 'true', SVC_WEBAUTHN_RP_ID: 'localhost' }, { host: 'localhost' });
    try {
      const user = await createUser(local.t, { email: 'chromium-passkey@example.com' });
      const login = await local.t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } });
      const key = new SoftAuthenticator({ origin: local.issuer });
      assert.equal((await register(local.t, (login.json() as { access_token: string }).access_token, key)).res.statusCode, 201);
      const { credentials } = await local.t.container.services.applications.create({ name: 'Acme Notes', redirect_uris: [REDIRECT],
        allowed_origins: [] });
      const config = await client.discovery(new URL(local.issuer), credentials.access_key, credentials.access_secret!, undefined,
        { execute: [client.allowInsecureRequests] });
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 'pk',
        code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });

      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const problems: string[] = [];
      // (The browser's own favicon request answers 404: not a problem of the page.)
      page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
      page.on('pageerror', (err) => problems.push(err.message));
      // The passkey the account registered, handed to Chromium's virtual authenticator.
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', { options: {
        protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true,
        automaticPresenceSimulation: true } });
      const soft = key.credentials[0]!;
      const base64 = (b64url: string) => Buffer.from(b64url, 'base64url').toString('base64');
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: {
        credentialId: base64(soft.id), isResidentCredential: true, rpId: 'localhost', userHandle: base64(soft.userHandle), signCount: soft.counter,
        privateKey: (soft.privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64') } });

      callback = undefined;
      await page.goto(url.toString());
      await page.locator('#passkey').click();
      await page.locator('button[name="decision"][value="approve"]').waitFor();
      await Promise.all([page.waitForURL(`${REDIRECT}**`), page.click('button[name="decision"][value="approve"]')]);
      assert.ok(callback, 'the browser reached the client');
      const tokens = await client.authorizationCodeGrant(config, callback!, { pkceCodeVerifier: verifier, expectedState: 'pk' });
      assert.equal(tokens.claims()!.sub, String(user.id));
      assert.deepEqual(problems, [], 'no error and no Content-Security-Policy violation');
      const attempts = await local.t.container.db.selectFrom('login_attempts').select(['method', 'success']).where('user_id', '=', user.id)
        .where('method', '=', 'passkey').execute();
      assert.deepEqual(attempts, [{ method: 'passkey', success: true }]);
      await context.close();
    } finally {
      await local.t.close();
    }
  });
});
