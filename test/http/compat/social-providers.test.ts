import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.js';
import { useTestApp } from '../../helpers/test-app.js';
import { expectStatus } from '../../helpers/answers.js';
import { APP_REDIRECT, startProviders } from '../social/helpers.js';

/** What the SDK's HTTP client sends on every call (the application headers are added by `t.api`). */
const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
/** The device line the SDK adds to social bodies. */
const SDK_DEVICE = 'v=1|os=linux;osv=6.8|device=server|arch=x64|app=sdk;appv=0.10.0|runtime=node;rtv=20.11.1|tz=UTC';

/** SDK compatibility (docs/migrating-from-tenxyte.md): the providers' own names, and the code sent as `authorization_code`. */
describe('SDK compatibility: social provider names', () => {
  let providers: Awaited<ReturnType<typeof startProviders>>;
  let ms: TestOidcProvider;
  before(async () => {
    providers = await startProviders();
    // A second OpenID provider plays microsoft, which vouches for an address only with `xms_edov`.
    ms = await startOidcProvider({ redirectUris: [APP_REDIRECT], extraClaims: ['xms_edov'] });
  });
  const t = useTestApp(() => {
    const setting = { ...JSON.parse(providers.env.SVC_SOCIAL_PROVIDERS),
      microsoft: { client_id: ms.clientId, client_secret: ms.clientSecret, issuer: ms.issuer } };
    return { env: { SVC_SOCIAL_PROVIDERS: JSON.stringify(setting) } };
  });
  after(async () => { await providers.close(); await ms.close(); });
  beforeEach(() => {
    providers.op.setAccount('alice', { email: 'alice@example.com', email_verified: true });
    ms.setAccount('mia', { email: 'mia@example.com', xms_edov: true });
    providers.gh.setUser('octo', { id: 4242, name: 'Octo Cat', emails: [{ email: 'octo@example.com', primary: true, verified: true }] });
    providers.fb.setUser('zuck', { id: 10150000000001, name: 'Mark Elliot', email: 'mark@example.com' });
  });

  /** loginWithSocial(provider, {authorization_code, redirect_uri}) as the SDK posts it. */
  const loginWithSocial = (provider: string, body: object) =>
    t.api({ method: 'POST', path: `social/${provider}/`, headers: SDK_HEADERS, payload: { ...body, device_info: SDK_DEVICE } });
  const codes: Record<string, () => Promise<string>> = {
    google: async () => (await providers.op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT })).code,
    microsoft: async () => (await ms.authorize({ sub: 'mia', redirectUri: APP_REDIRECT })).code,
    github: async () => providers.gh.issueCode({ login: 'octo', redirectUri: APP_REDIRECT }),
    facebook: async () => providers.fb.issueCode({ login: 'zuck', redirectUri: APP_REDIRECT }),
  };

  it('signs in through google, github, microsoft and facebook with {authorization_code}, answering the token pair', async () => {
    for (const [provider, email] of [['google', 'alice@example.com'], ['github', 'octo@example.com'],
      ['microsoft', 'mia@example.com'], ['facebook', 'mark@example.com']] as const) {
      const authorization_code = await codes[provider]!();
      const body = expectStatus(await loginWithSocial(provider, { authorization_code, redirect_uri: APP_REDIRECT }), 200);
      assert.deepEqual([body.provider, body.user.email, body.token_type], [provider, email, 'Bearer'], provider);
      assert.ok(body.access_token && body.refresh_token && body.expires_in > 0, provider);
      const me = expectStatus(await t.api({ method: 'GET', path: 'me/', token: body.access_token, headers: SDK_HEADERS }), 200);
      assert.equal(me.email, email);
    }
  });

  it('takes {code} as well, and the neutral names provider_a…provider_d still name the same providers', async () => {
    const github = await loginWithSocial('github', { code: await codes.github!(), redirect_uri: APP_REDIRECT });
    assert.equal(expectStatus(github, 200).provider, 'github');
    const microsoft = await loginWithSocial('provider_c', { authorization_code: await codes.microsoft!(), redirect_uri: APP_REDIRECT });
    assert.equal(expectStatus(microsoft, 200).provider, 'microsoft');
  });

  it('refuses an unknown provider name and a spent authorization_code', async () => {
    const unknown = expectStatus(await loginWithSocial('apple', { authorization_code: 'x', redirect_uri: APP_REDIRECT }), 400);
    assert.deepEqual([unknown.code, unknown.supported_providers.sort()],
      ['INVALID_PROVIDER', ['facebook', 'github', 'google', 'microsoft']]);
    const code = await codes.google!();
    expectStatus(await loginWithSocial('google', { authorization_code: code, redirect_uri: APP_REDIRECT }), 200);
    assert.equal(expectStatus(await loginWithSocial('google', { authorization_code: code, redirect_uri: APP_REDIRECT }), 401).code,
      'CODE_EXCHANGE_FAILED');
  });

  it('refuses code and authorization_code that disagree (400 validation), and takes them when they agree', async () => {
    const [one, two] = [await codes.github!(), await codes.github!()];
    const mixed = expectStatus(await loginWithSocial('github', { code: one, authorization_code: two, redirect_uri: APP_REDIRECT }), 400);
    assert.deepEqual([mixed.code, Object.keys(mixed.details)], ['VALIDATION_ERROR', ['authorization_code']]);
    expectStatus(await loginWithSocial('github', { code: one, authorization_code: one, redirect_uri: APP_REDIRECT }), 200);
  });
});
