import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser } from '../../factories/users.js';
import { freePort } from '../../helpers/cli.js';
import { startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.js';
import type { TestApp } from '../../helpers/test-app.js';
import { SoftAuthenticator } from '../../helpers/webauthn-authenticator.js';
import { register } from '../passkeys/helpers.js';
import { createBrowser, formOf, type PageAnswer } from './browser.js';
import { REDIRECT, startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md "Sign-in and consent": besides the password, the sign-in page offers passkeys and the configured social
// providers, each with every check of a password login, ending at consent like the password does.
describe('the sign-in page\'s passkeys and social providers (docs/oauth.md "Sign-in and consent")', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let op: TestOidcProvider;
  let config: client.Configuration;
  let passkeyOrigin: string;
  let n = 0;
  const email = (name: string) => `${name}-${++n}@example.com`;

  before(async () => {
    const port = await freePort();
    // The provider knows Gatehouse's callback for the pages (registered there by whoever configures it).
    op = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/oauth/social/google/callback`] });
    oauth = await startOauthApp({
      SVC_SOCIAL_PROVIDERS: JSON.stringify({ google: { client_id: op.clientId, client_secret: op.clientSecret, issuer: op.issuer } }),
      SVC_WEBAUTHN_ENABLED: 'true', SVC_WEBAUTHN_RP_ID: 'localhost',
    }, { port });
    t = oauth.t;
    config = await oauth.relyingParty();
    // With an IP in SVC_PUBLIC_URL a passkey page reaches the same server as localhost (docs/passkeys.md "Settings").
    passkeyOrigin = `http://localhost:${port}`;
  });
  after(async () => {
    await t.close();
    await op.close();
  });

  /** A browser on the sign-in page of a new authorization request, with what the client needs to redeem the code. */
  async function signInPage() {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid email', state: 'st',
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const browser = createBrowser(oauth.issuer);
    const page = await browser.open(url.toString());
    assert.equal(page.status, 200, page.html);
    return { browser, page, verifier };
  }

  /** Approves the consent page and redeems the code: the ID token's subject. */
  async function consentAndRedeem(browser: ReturnType<typeof createBrowser>, consentPage: PageAnswer, verifier: string) {
    assert.match(consentPage.html, /name="decision" value="approve"/, consentPage.html);
    const form = formOf(consentPage.html);
    const back = await browser.submit(form.action, { ...form.fields, decision: 'approve' });
    assert.equal(back.status, 303, back.html);
    const tokens = await client.authorizationCodeGrant(config, new URL(back.location!), { pkceCodeVerifier: verifier, expectedState: 'st' });
    return tokens.claims()!.sub;
  }

  /** The link of a provider on the sign-in page. */
  const providerLink = (html: string, name: string) => {
    const href = new RegExp(`<a href="([^"]+/social/${name})">`).exec(html)?.[1];
    assert.ok(href, `no link for ${name} in ${html}`);
    return href;
  };

  /** Follows the provider's link, signs in at the provider as `sub`, and brings the browser back: the page it lands on. */
  async function throughProvider(browser: ReturnType<typeof createBrowser>, page: PageAnswer, sub: string, opts: { deny?: boolean } = {}) {
    const toProvider = await browser.request(providerLink(page.html, 'google'));
    assert.equal(toProvider.status, 303, toProvider.html);
    assert.ok(toProvider.location!.startsWith(op.issuer), toProvider.location!);
    const back = await op.signIn(toProvider.location!, sub, opts);
    assert.equal(back.pathname, '/oauth/social/google/callback');
    return { callback: back, landed: await browser.open(back.toString()) };
  }

  describe('social providers', () => {
    it('offers each configured provider; a new person signs in with Google, consents, and the client gets their account', async () => {
      const address = email('new');
      op.setAccount('new-person', { email: address, email_verified: true, given_name: 'Noor' });
      const { browser, page, verifier } = await signInPage();
      assert.match(page.html, />Continue with Google</);
      const { landed } = await throughProvider(browser, page, 'new-person');
      const sub = await consentAndRedeem(browser, landed, verifier);
      const account = await t.container.db.selectFrom('users').select(['id', 'email']).where('email', '=', address).executeTakeFirstOrThrow();
      assert.equal(sub, String(account.id));
      const attempts = await t.container.db.selectFrom('login_attempts').select(['method', 'success']).where('user_id', '=', account.id).execute();
      assert.deepEqual(attempts, [{ method: 'social_google', success: true }]);
      // No Gatehouse session: the sign-in belongs to the authorization server.
      assert.equal((await t.container.db.selectFrom('sessions').select('id').where('user_id', '=', account.id).execute()).length, 0);
    });

    it('asks an account with 2FA for its code after the provider, and records the sign-in as the provider\'s', async () => {
      const user = await createUser(t, { email: email('twofa') });
      await t.container.db.updateTable('users').set({ is_email_verified: true }).where('id', '=', user.id).execute();
      const { backupCodes } = await enableTotp(t, user);
      op.setAccount('twofa-person', { email: user.email!, email_verified: true });
      const { browser, page, verifier } = await signInPage();
      const { landed } = await throughProvider(browser, page, 'twofa-person');
      assert.match(landed.html, /name="totp_code"/, landed.html);
      const codeForm = formOf(landed.html);
      const wrong = await browser.submit(codeForm.action, { ...codeForm.fields, totp_code: '000000' });
      assert.match(wrong.html, /role="alert"/);
      const consent = await browser.submit(formOf(wrong.html).action, { ...formOf(wrong.html).fields, totp_code: backupCodes[0]! });
      assert.equal(await consentAndRedeem(browser, consent, verifier), String(user.id));
      const attempts = await t.container.db.selectFrom('login_attempts').select(['method', 'success', 'failure_reason'])
        .where('user_id', '=', user.id).orderBy('id').execute();
      assert.deepEqual(attempts, [{ method: 'social_google', success: false, failure_reason: 'invalid_2fa_code' },
        { method: 'social_google', success: true, failure_reason: null }]);
    });

    it('refuses a banned account and a refusal at the provider on the sign-in page, saying why, and grants nothing', async () => {
      const user = await createUser(t, { email: email('banned'), is_banned: true });
      await t.container.db.updateTable('users').set({ is_email_verified: true }).where('id', '=', user.id).execute();
      op.setAccount('banned-person', { email: user.email!, email_verified: true });
      const first = await signInPage();
      const banned = (await throughProvider(first.browser, first.page, 'banned-person')).landed;
      assert.equal(banned.status, 200);
      assert.match(banned.html, /Signing in with that provider did not succeed/);
      assert.match(banned.html, /name="password"/);
      // Shown once: the page read again is the plain sign-in page.
      assert.doesNotMatch((await first.browser.open(banned.url)).html, /role="alert"/);

      const second = await signInPage();
      const denied = (await throughProvider(second.browser, second.page, 'banned-person', { deny: true })).landed;
      assert.match(denied.html, /Signing in with that provider did not succeed/);
      assert.equal(await t.container.db.selectFrom('oauth_records').select('id_hash').where('model', '=', 'Grant')
        .where('account_id', '=', user.id).executeTakeFirst(), undefined);
    });

    it('takes the provider\'s answer only from the browser that went there, once', async () => {
      op.setAccount('victim', { email: email('victim'), email_verified: true });
      const { browser, page } = await signInPage();
      const back = await op.signIn((await browser.request(providerLink(page.html, 'google'))).location!, 'victim');
      // Another browser (an attacker's link) has no state cookie: refused, and the state is spent; the interaction is
      // still at its sign-in page.
      const refused = await createBrowser(oauth.issuer).open(back.toString());
      assert.equal(refused.status, 400);
      assert.match(refused.html, /invalid_request/);
      assert.equal((await browser.request(back.toString())).status, 400);
      assert.match((await browser.open(page.url)).html, /name="password"/);

      // The right browser, once; its replay is refused.
      const next = await signInPage();
      const answer = await op.signIn((await next.browser.request(providerLink(next.page.html, 'google'))).location!, 'victim');
      assert.match((await next.browser.open(answer.toString())).html, /name="decision"/);
      assert.equal((await next.browser.request(answer.toString())).status, 400);
    });

    it('starts only for this browser\'s interaction, and only for a configured provider', async () => {
      const { page } = await signInPage();
      const stranger = createBrowser(oauth.issuer);
      const foreign = await stranger.request(providerLink(page.html, 'google'));
      assert.equal(foreign.status, 400);
      assert.equal(foreign.location, null);
      const { browser, page: own } = await signInPage();
      const unknown = await browser.request(providerLink(own.html, 'google').replace(/google$/, 'myspace'));
      assert.equal(unknown.status, 400);
      assert.equal(unknown.location, null);
    });
  });

  describe('passkeys', () => {
    /** An account with a passkey registered through the API (the password session that registered it is ended). */
    async function withPasskey(overrides: Parameters<typeof createUser>[1] = {}) {
      const user = await createUser(t, { email: email('passkey'), ...overrides });
      const login = await t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } });
      const token = (login.json() as { access_token: string }).access_token;
      const key = new SoftAuthenticator({ origin: passkeyOrigin });
      assert.equal((await register(t, token, key, { device_name: 'Laptop' })).res.statusCode, 201);
      await t.container.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
      return { user, key };
    }

    /** The passkey form of a sign-in page: where the script asks the options, where it posts, its CSRF field. */
    function passkeyFormOf(html: string) {
      const form = /<form method="post" action="([^"]+)" id="passkey-form"><input type="hidden" name="csrf_token" value="([^"]+)">/.exec(html);
      const optionsAction = /data-options="([^"]+)"/.exec(html)?.[1];
      assert.ok(form && optionsAction, `no passkey form in ${html}`);
      return { action: form[1]!, csrf: form[2]!, optionsAction };
    }

    /** Asks the options as the page's script does; the assertion the authenticator answers, as the script posts it. */
    async function assertionFor(browser: ReturnType<typeof createBrowser>, page: PageAnswer, key: SoftAuthenticator,
      overrides: Parameters<SoftAuthenticator['get']>[1] = {}) {
      const { optionsAction, csrf } = passkeyFormOf(page.html);
      const asked = await browser.request(optionsAction, { method: 'POST', form: { csrf_token: csrf } });
      assert.equal(asked.status, 200, asked.html);
      const { publicKey } = JSON.parse(asked.html) as { publicKey: Parameters<SoftAuthenticator['get']>[0] };
      assert.equal(publicKey.userVerification, 'required');
      return JSON.stringify(key.get(publicKey, overrides));
    }

    /** The whole ceremony from a sign-in page: the page the browser lands on. */
    async function passkeyCeremony(browser: ReturnType<typeof createBrowser>, page: PageAnswer, key: SoftAuthenticator,
      overrides: Parameters<SoftAuthenticator['get']>[1] = {}) {
      const credential = await assertionFor(browser, page, key, overrides);
      const { action, csrf } = passkeyFormOf(page.html);
      return browser.submit(action, { csrf_token: csrf, credential });
    }

    it('offers a passkey through the page\'s own script, allowed by the page\'s CSP', async () => {
      const { browser, page } = await signInPage();
      assert.match(page.html, /<button type="button" id="passkey" data-options="[^"]+" hidden>Sign in with a passkey<\/button>/);
      assert.match(page.html, /<script src="\/oauth\/passkey.js" defer><\/script>/);
      const answer = await fetch(`${oauth.issuer}/oauth/passkey.js`);
      assert.match(answer.headers.get('content-type')!, /^text\/javascript/);
      assert.match(await answer.text(), /navigator\.credentials\.get/);
      const raw = await fetch(page.url, { headers: { cookie: [...browser.jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      assert.match(raw.headers.get('content-security-policy')!, /script-src 'self'; connect-src 'self'/);
    });

    it('signs in with a passkey that verified the person: both factors for 2FA and the administrators\' gate', async () => {
      // An administrator without 2FA (the password would be refused here), and an account with 2FA (no code page).
      const admin = await withPasskey({ is_staff: true });
      const withTotp = await withPasskey();
      await enableTotp(t, withTotp.user);
      for (const { user, key } of [admin, withTotp]) {
        const { browser, page, verifier } = await signInPage();
        const consent = await passkeyCeremony(browser, page, key);
        assert.equal(await consentAndRedeem(browser, consent, verifier), String(user.id));
        const attempts = await t.container.db.selectFrom('login_attempts').select(['method', 'success']).where('user_id', '=', user.id)
          .where('method', '=', 'passkey').execute();
        assert.deepEqual(attempts, [{ method: 'passkey', success: true }]);
      }
    });

    it('refuses an assertion without user verification for an account with 2FA, a replayed one, and garbage', async () => {
      const { user, key } = await withPasskey();
      await enableTotp(t, user);
      const { browser, page } = await signInPage();
      const unverified = await passkeyCeremony(browser, page, key, { userVerified: false });
      assert.match(unverified.html, /That passkey could not sign you in/);
      assert.match(unverified.html, /name="password"/);

      const again = passkeyFormOf(unverified.html);
      const garbage = await browser.submit(again.action, { csrf_token: again.csrf, credential: '{"id": 1' });
      assert.match(garbage.html, /That passkey could not sign you in/);

      // A good assertion signs in once; sent again (in another authorization request), it is refused.
      const fresh = await signInPage();
      const credential = await assertionFor(fresh.browser, fresh.page, key);
      const freshForm = passkeyFormOf(fresh.page.html);
      assert.match((await fresh.browser.submit(freshForm.action, { csrf_token: freshForm.csrf, credential })).html, /name="decision"/);
      const other = await signInPage();
      const otherForm = passkeyFormOf(other.page.html);
      const replayed = await other.browser.submit(otherForm.action, { csrf_token: otherForm.csrf, credential });
      assert.match(replayed.html, /That passkey could not sign you in/);
    });

    it('refuses the options and the assertion without this browser\'s CSRF field', async () => {
      const { key } = await withPasskey();
      const { browser, page } = await signInPage();
      const { optionsAction, action } = passkeyFormOf(page.html);
      assert.equal((await browser.request(optionsAction, { method: 'POST', form: { csrf_token: 'forged' } })).status, 403);
      const credential = JSON.stringify(key.get({ challenge: 'AAAA', rpId: 'localhost', allowCredentials: [] } as never));
      const forged = await browser.request(action, { method: 'POST', form: { csrf_token: 'forged', credential } });
      assert.equal(forged.status, 403);
    });
  });
});
