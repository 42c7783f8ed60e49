import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { expectStatus } from '../../helpers/answers.js';
import { APP_REDIRECT, socialLogin, startProviders } from './helpers.js';

/**
 * A provider that answers garbage or stalls past the 5 s it is given, at each call the service makes: 401, never a
 * 500, and the next sign-in succeeds once the provider is back. Its own application, so nothing is cached yet.
 */
describe('failing providers, call by call', () => {
  let providers: Awaited<ReturnType<typeof startProviders>>;
  before(async () => { providers = await startProviders(); });
  const t = useTestApp(() => ({ env: providers.env }));
  after(async () => { await providers.close(); });
  beforeEach(() => {
    providers.restore();
    providers.op.setAccount('alice', { email: 'alice@example.com', email_verified: true });
    providers.fb.setUser('zuck', { id: 4, name: 'Mark Elliot', email: 'mark@example.com' });
  });

  const refusedWith = async (provider: string, payload: object) =>
    expectStatus(await socialLogin(t, provider, payload), 401).code as string;

  it('an OpenID provider\'s discovery document and its keys (JWKS): garbage, then a stall, then recovery', async () => {
    const idToken = await providers.op.issueIdToken({ sub: 'alice' });
    providers.op.garbage(['discovery']);
    assert.equal(await refusedWith('google', { id_token: idToken }), 'PROVIDER_AUTH_FAILED', 'discovery answers HTML');
    providers.op.restore();
    providers.op.garbage(['jwks']);
    assert.equal(await refusedWith('google', { id_token: idToken }), 'PROVIDER_AUTH_FAILED', 'the key set answers HTML');
    providers.op.restore();
    providers.op.stall(8000, ['jwks']);
    assert.equal(await refusedWith('google', { id_token: idToken }), 'PROVIDER_AUTH_FAILED', 'the key set stalls');
    providers.op.restore();
    expectStatus(await socialLogin(t, 'google', { id_token: idToken }), 200);
  });

  it('google\'s tokeninfo answering garbage', async () => {
    const { code } = await providers.op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT });
    const { access_token } = await providers.op.exchange(code, APP_REDIRECT);
    providers.op.garbage(['tokeninfo']);
    assert.equal(await refusedWith('google', { access_token }), 'PROVIDER_AUTH_FAILED');
    providers.op.restore();
    expectStatus(await socialLogin(t, 'google', { access_token }), 200);
  });

  it('a Facebook-shaped provider\'s token check, profile and token endpoint', async () => {
    const access_token = providers.fb.issueToken({ login: 'zuck' });
    providers.fb.garbage(['token_check']);
    assert.equal(await refusedWith('facebook', { access_token }), 'PROVIDER_AUTH_FAILED', 'debug_token answers HTML');
    providers.fb.restore();
    providers.fb.garbage(['user']);
    assert.equal(await refusedWith('facebook', { access_token }), 'PROVIDER_AUTH_FAILED', '/me answers HTML');
    providers.fb.restore();
    providers.fb.stall(8000, ['token']);
    const code = providers.fb.issueCode({ login: 'zuck', redirectUri: APP_REDIRECT });
    assert.equal(await refusedWith('facebook', { code, redirect_uri: APP_REDIRECT }), 'CODE_EXCHANGE_FAILED', 'the token endpoint stalls');
    providers.fb.restore();
    expectStatus(await socialLogin(t, 'facebook', { access_token }), 200);
    assert.equal(await t.container.db.selectFrom('social_accounts').select('id').where('provider', '=', 'facebook').execute()
      .then((rows) => rows.length), 1, 'the refusals linked nothing');
  });
});
