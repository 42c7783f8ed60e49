import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { createUser } from '../factories/users.js';
import { describeInBrowser, launchChromium } from '../helpers/browser.js';
import { startOauthApp, type OauthApp } from '../http/oauth/flow.js';


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
});
