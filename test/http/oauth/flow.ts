import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import * as client from 'openid-client';
import type { TestUser } from '../../factories/users.js';
import { freePort } from '../../helpers/cli.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { createBrowser } from './browser.js';
import { formOf } from './browser.js';

/** The relying party's redirect URI: nothing listens there, the flow reads the redirect to it. */
export const REDIRECT = 'http://127.0.0.1:9/callback';
/** A redirect URI's host as the consent page writes it. */
const escapedHost = (uri: string) => new URL(uri).host;

/** Where RP-initiated logout may send the person back. */
export const SIGNED_OUT = 'http://127.0.0.1:9/signed-out';

/**
 * A Gatehouse serving the authorization server on a loopback port (docs/oauth.md), with a confidential application
 * registered for {@link REDIRECT}; `relyingParty()` is openid-client configured from discovery.
 */
export async function startOauthApp(env: Record<string, string> = {}, opts: { dbPlugin?: KyselyPlugin;
  /** A port chosen beforehand (a provider registered the issuer's URLs first). */
  port?: number;
  /** `localhost` for a browser's passkey ceremony, which needs a domain (the server listens on every loopback address it names). */
  host?: '127.0.0.1' | 'localhost' } = {}) {
  const port = opts.port ?? await freePort();
  const host = opts.host ?? '127.0.0.1';
  const issuer = `http://${host}:${port}`;
  const t: TestApp = await createTestApp({ env: { SVC_PUBLIC_URL: issuer, SVC_OAUTH_ENABLED: 'true', ...env },
    ...(opts.dbPlugin ? { dbPlugin: opts.dbPlugin } : {}) });
  await t.app.listen({ port, host });
  const { credentials } = await t.container.services.applications.create({ name: 'Acme <Notes>', redirect_uris: [REDIRECT],
    post_logout_redirect_uris: [SIGNED_OUT], allowed_origins: [] });
  const clientId = credentials.access_key;
  const clientSecret = credentials.access_secret!;
  const relyingParty = (secret = clientSecret) =>
    client.discovery(new URL(issuer), clientId, secret, undefined, { execute: [client.allowInsecureRequests] });

  /** The browser part of the flow: sign-in, consent (approve or deny); answers the redirect to the client. */
  async function authorize(config: client.Configuration, user: Pick<TestUser, 'email' | 'password'>,
    opts: { scope?: string; decision?: 'approve' | 'deny'; params?: Record<string, string>; redirectUri?: string;
      /** Fields the consent form is sent with besides its own (an agent client's limits). */
      consent?: Record<string, string> } = {}) {
    const redirectUri = opts.redirectUri ?? REDIRECT;
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri, scope: opts.scope ?? 'openid email profile offline_access', state, nonce, ...opts.params,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const browser = createBrowser(issuer);
    const signInPage = await browser.open(url.toString());
    assert.equal(signInPage.status, 200, signInPage.html);
    assert.match(signInPage.html, /name="email"/);
    if (config.clientMetadata().client_id === clientId) assert.match(signInPage.html, /Acme &lt;Notes&gt;/, 'the client name is escaped');
    const signIn = formOf(signInPage.html);
    const consentPage = await browser.submit(signIn.action, { ...signIn.fields, email: user.email!, password: user.password! });
    assert.equal(consentPage.status, 200, consentPage.html);
    assert.match(consentPage.html, /name="decision" value="approve"/);
    assert.ok(consentPage.html.includes(escapedHost(redirectUri)), 'the redirect host is shown');
    const consent = formOf(consentPage.html);
    const back = await browser.submit(consent.action, { ...consent.fields, ...opts.consent, decision: opts.decision ?? 'approve' });
    assert.equal(back.status, 303, back.html);
    const location = new URL(back.location!);
    assert.equal(`${location.origin}${location.pathname}`, redirectUri);
    return { location, verifier, state, nonce, browser, consentPage };
  }

  /** The whole flow: tokens for `user`. */
  async function tokensFor(config: client.Configuration, user: Pick<TestUser, 'email' | 'password'>, scope?: string) {
    const { location, verifier, state, nonce } = await authorize(config, user, { scope });
    return client.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  }

  return { t, issuer, clientId, clientSecret, relyingParty, authorize, tokensFor };
}

export type OauthApp = Awaited<ReturnType<typeof startOauthApp>>;
