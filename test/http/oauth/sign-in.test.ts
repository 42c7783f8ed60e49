import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser } from '../../factories/users.js';
import type { TestApp } from '../../helpers/test-app.js';
import { createBrowser, formOf } from './browser.js';
import { REDIRECT, startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md "Sign-in and consent": the sign-in page runs every check of a password login.
const ATTEMPTS = 3;
describe('the authorization server\'s sign-in page (docs/oauth.md "Sign-in and consent")', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let config: client.Configuration;
  let n = 0;
  const person = (name: string, extra: Parameters<typeof createUser>[1] = {}) => createUser(t, { email: `${name}-${++n}@example.com`, ...extra });

  before(async () => {
    oauth = await startOauthApp({ SVC_MAX_LOGIN_ATTEMPTS: String(ATTEMPTS) });
    t = oauth.t;
    config = await oauth.relyingParty();
  });
  after(() => t.close());

  /** A browser on the sign-in page of a new authorization request. */
  async function signInPage(headers: Record<string, string> = {}) {
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
    const browser = createBrowser(oauth.issuer);
    const first = await browser.request(url.toString(), { headers });
    const page = await browser.follow(first, headers);
    assert.equal(page.status, 200, page.html);
    return { browser, page };
  }

  it('asks an account with 2FA for its code on a second page; a wrong code is refused, a backup code passes', async () => {
    const user = await person('totp');
    const { backupCodes } = await enableTotp(t, user);
    const { browser, page } = await signInPage();
    const form = formOf(page.html);
    const codePage = await browser.submit(form.action, { ...form.fields, email: user.email!, password: user.password! });
    assert.match(codePage.html, /name="totp_code"/);
    assert.doesNotMatch(codePage.html, /name="password"/);
    const codeForm = formOf(codePage.html);
    const wrong = await browser.submit(codeForm.action, { ...codeForm.fields, totp_code: '000000' });
    assert.match(wrong.html, /role="alert"/);
    assert.match(wrong.html, /name="totp_code"/);
    const consent = await browser.submit(formOf(wrong.html).action, { ...formOf(wrong.html).fields, totp_code: backupCodes[0]! });
    assert.match(consent.html, /name="decision"/, consent.html);
  });

  it('refuses an administrator without 2FA, saying why, and signs nobody in', async () => {
    const admin = await person('staff', { is_staff: true });
    const { browser, page } = await signInPage();
    const form = formOf(page.html);
    const refused = await browser.submit(form.action, { ...form.fields, email: admin.email!, password: admin.password! });
    assert.match(refused.html, /two-factor authentication/);
    assert.match(refused.html, /name="password"/);
    const attempts = await t.container.db.selectFrom('login_attempts').select(['success', 'failure_reason'])
      .where('user_id', '=', admin.id).execute();
    assert.deepEqual(attempts, [{ success: false, failure_reason: 'admin_2fa_setup_required' }]);
  });

  it('locks the account after too many wrong passwords, like login/email/', async () => {
    const user = await person('locked');
    const { browser, page } = await signInPage();
    let current = page;
    for (let i = 0; i < ATTEMPTS; i++) {
      const form = formOf(current.html);
      current = await browser.submit(form.action, { ...form.fields, email: user.email!, password: 'not the password' });
      assert.match(current.html, /role="alert"/);
    }
    const form = formOf(current.html);
    const locked = await browser.submit(form.action, { ...form.fields, email: user.email!, password: user.password! });
    assert.match(locked.html, /locked/);
    assert.doesNotMatch(locked.html, /name="decision"/);
  });

  it('answers in French for Accept-Language: fr, and records a successful sign-in', async () => {
    const user = await person('fr');
    const { browser, page } = await signInPage({ 'accept-language': 'fr-FR,fr;q=0.9' });
    assert.match(page.html, /<html lang="fr">/);
    assert.match(page.html, /Mot de passe/);
    const form = formOf(page.html);
    await browser.submit(form.action, { ...form.fields, email: user.email!, password: user.password! });
    const attempts = await t.container.db.selectFrom('login_attempts').select(['success', 'method']).where('user_id', '=', user.id).execute();
    assert.deepEqual(attempts, [{ success: true, method: 'oauth_password' }]);
  });
});
