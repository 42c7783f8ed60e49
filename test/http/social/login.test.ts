import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { deviceInfo } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { enableTotp } from '../../factories/twofactor.js';
import { useTestApp } from '../../helpers/test-app.js';
import { expectStatus } from '../../helpers/answers.js';
import { APP_REDIRECT, pkce, socialLogin, startProviders } from './helpers.js';

const ALICE = { email: 'alice@example.com', email_verified: true, given_name: 'Alice', family_name: 'Liddell' };

/** `POST social/<provider>/` (docs/social-login.md) against a real OpenID provider and a GitHub-shaped server on loopback. */
describe('POST social/<provider>/', () => {
  let providers: Awaited<ReturnType<typeof startProviders>>;
  before(async () => { providers = await startProviders(); });
  const t = useTestApp(() => ({ env: { ...providers.env, SVC_AUDIT_LOGGING_ENABLED: 'true' } }));
  after(async () => { await providers.close(); });
  beforeEach(() => {
    providers.restore();
    providers.op.setAccount('alice', ALICE);
    providers.gh.setUser('octo', { id: 4242, name: 'Octo Cat', emails: [
      { email: 'octo-old@example.com', primary: false, verified: true }, { email: 'octo@example.com', primary: true, verified: true }] });
    providers.fb.setUser('zuck', { id: 10150000000001, name: 'Mark Elliot', email: 'mark@example.com' });
  });

  const googleCode = async (sub = 'alice') => {
    const { verifier, challenge } = await pkce();
    const { code } = await providers.op.authorize({ sub, redirectUri: APP_REDIRECT, codeChallenge: challenge });
    return { code, redirect_uri: APP_REDIRECT, code_verifier: verifier };
  };
  const links = () => t.container.db.selectFrom('social_accounts').select(['user_id', 'provider', 'subject', 'email']).orderBy('id').execute();
  const account = (email: string) => t.container.db.selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'is_email_verified', 'has_usable_password']).where('email', '=', email).executeTakeFirst();

  describe('an OpenID provider (google)', () => {
    it('signs in with a code and PKCE: a new verified account without a password, linked to the identity', async () => {
      const body = expectStatus(await socialLogin(t, 'google', await googleCode()), 200);
      assert.equal(body.provider, 'google');
      assert.equal(body.is_new_user, true);
      assert.equal(body.message, 'Login successful');
      assert.ok(body.access_token && body.refresh_token);
      assert.equal(body.user.email, 'alice@example.com');
      assert.deepEqual(await account('alice@example.com'), { id: Number(body.user.id),
        email: 'alice@example.com', first_name: 'Alice', last_name: 'Liddell', is_email_verified: true, has_usable_password: false });
      assert.deepEqual(await links(), [{ user_id: Number(body.user.id), provider: 'google', subject: 'alice', email: 'alice@example.com' }]);
      const attempt = await t.container.db.selectFrom('login_attempts').select(['method', 'success']).executeTakeFirstOrThrow();
      assert.deepEqual(attempt, { method: 'social_google', success: true });
      // The next sign-in finds the same account; the alias provider_a names google.
      const again = expectStatus(await socialLogin(t, 'provider_a', { authorization_code: (await googleCode()).code,
        redirect_uri: APP_REDIRECT, code_verifier: (await googleCode()).code_verifier }), 401);
      assert.equal(again.code, 'CODE_EXCHANGE_FAILED', 'a verifier of another code is refused');
      const next = expectStatus(await socialLogin(t, 'provider_a', await googleCode()), 200);
      assert.equal(next.provider, 'google');
      assert.equal(next.is_new_user, false);
      assert.equal((await links()).length, 1);
    });

    it('signs in with an ID token signed by the provider, for our client, unexpired, with the nonce', async () => {
      const id_token = await providers.op.issueIdToken({ sub: 'alice', nonce: 'n-1' });
      expectStatus(await socialLogin(t, 'google', { id_token, nonce: 'n-1' }), 200);
      for (const [what, token, nonce] of [
        ['another audience', await providers.op.issueIdToken({ sub: 'alice', audience: 'someone-else' }), undefined],
        ['expired', await providers.op.issueIdToken({ sub: 'alice', now: new Date(Date.now() - 7200_000), expiresIn: 60 }), undefined],
        ['signed by another key', await providers.op.issueIdToken({ sub: 'alice', signWithForeignKey: true }), undefined],
        ['the wrong nonce', await providers.op.issueIdToken({ sub: 'alice', nonce: 'n-2' }), 'n-1'],
      ] as const) {
        const res = expectStatus(await socialLogin(t, 'google', { id_token: token, ...(nonce ? { nonce } : {}) }), 401);
        assert.equal(res.code, 'PROVIDER_AUTH_FAILED', what);
      }
    });

    it('refuses an identity without a verified address (email_not_verified) and an unverified account of that address (account_exists)', async () => {
      providers.op.setAccount('bob', { email: 'bob@example.com', email_verified: false });
      const unverified = expectStatus(await socialLogin(t, 'google', await googleCode('bob')), 401);
      assert.deepEqual([unverified.code, unverified.details], ['SOCIAL_AUTH_FAILED', { reason: 'email_not_verified' }]);
      await createUser(t, { email: 'alice@example.com' });
      const exists = expectStatus(await socialLogin(t, 'google', await googleCode()), 401);
      assert.deepEqual([exists.code, exists.details], ['SOCIAL_AUTH_FAILED', { reason: 'account_exists' }]);
      assert.deepEqual(await links(), []);
    });

    it('links to the existing account of a verified address, keeping its password', async () => {
      const ann = await createUser(t, { email: 'alice@example.com', verified: true });
      const body = expectStatus(await socialLogin(t, 'google', await googleCode()), 200);
      assert.equal(body.is_new_user, false);
      assert.equal(Number(body.user.id), ann.id);
      assert.equal((await account('alice@example.com'))!.has_usable_password, true);
    });

    it('honours 2FA and bans like a password login', async () => {
      const ann = await createUser(t, { email: 'alice@example.com', verified: true });
      const totp = await enableTotp(t, ann);
      assert.equal(expectStatus(await socialLogin(t, 'google', await googleCode()), 401).code, '2FA_REQUIRED');
      expectStatus(await socialLogin(t, 'google', { ...(await googleCode()), totp_code: totp.code() }), 200);
      await t.container.db.updateTable('users').set({ is_banned: true }).where('id', '=', ann.id).execute();
      const banned = expectStatus(await socialLogin(t, 'google', { ...(await googleCode()), totp_code: totp.code(1) }), 401);
      assert.deepEqual([banned.code, banned.details], ['SOCIAL_AUTH_FAILED', { reason: 'account_disabled' }]);
    });

    it('applies the administrators\' 2FA gate and the forced password change like a password login', async () => {
      const admin = await createUser(t, { email: 'alice@example.com', verified: true, is_staff: true });
      const gated = expectStatus(await socialLogin(t, 'google', await googleCode()), 403);
      assert.deepEqual([gated.code, gated.token_scope], ['ADMIN_2FA_SETUP_REQUIRED', '2fa_setup_only']);
      await t.container.db.updateTable('users').set({ is_staff: false, must_change_password: true }).where('id', '=', admin.id).execute();
      const forced = expectStatus(await socialLogin(t, 'google', await googleCode()), 200);
      assert.equal(forced.token_scope, 'password_change_only');
    });

    it('signs in with an access token tokeninfo says was issued to our client; refuses another client\'s and an unknown one', async () => {
      const ours = await providers.op.exchange((await providers.op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT })).code, APP_REDIRECT);
      const body = expectStatus(await socialLogin(t, 'google', { access_token: ours.access_token }), 200);
      assert.deepEqual([body.user.email, body.is_new_user], ['alice@example.com', true]);
      assert.deepEqual((await links()).map((l) => l.subject), ['alice']);
      const other = providers.op.otherClient;
      const { code } = await providers.op.authorize({ sub: 'alice', redirectUri: APP_REDIRECT, client: other });
      const theirs = await providers.op.exchange(code, APP_REDIRECT, undefined, other);
      for (const access_token of [theirs.access_token, 'ya29.unknown-token']) {
        assert.equal(expectStatus(await socialLogin(t, 'google', { access_token }), 401).code, 'PROVIDER_AUTH_FAILED');
      }
    });
  });

  describe('a GitHub-shaped provider', () => {
    it('signs in with a code: the primary verified address of the emails API', async () => {
      const code = providers.gh.issueCode({ login: 'octo', redirectUri: APP_REDIRECT });
      const body = expectStatus(await socialLogin(t, 'github', { code, redirect_uri: APP_REDIRECT }), 200);
      assert.equal(body.provider, 'github');
      assert.equal(body.user.email, 'octo@example.com');
      assert.deepEqual(await links(), [{ user_id: Number(body.user.id), provider: 'github', subject: '4242', email: 'octo@example.com' }]);
      const { first_name, last_name } = (await account('octo@example.com'))!;
      assert.deepEqual([first_name, last_name], ['Octo', 'Cat']);
    });

    it('signs in with an access token issued to our client, and refuses one issued to another', async () => {
      expectStatus(await socialLogin(t, 'provider_b', { access_token: providers.gh.issueToken({ login: 'octo' }) }), 200);
      const foreign = providers.gh.issueToken({ login: 'octo', clientId: 'another-site' });
      assert.equal(expectStatus(await socialLogin(t, 'github', { access_token: foreign }), 401).code, 'PROVIDER_AUTH_FAILED');
    });

    it('refuses an account without a verified primary address', async () => {
      providers.gh.setUser('ghost', { id: 7, emails: [{ email: 'ghost@example.com', primary: true, verified: false }] });
      const code = providers.gh.issueCode({ login: 'ghost', redirectUri: APP_REDIRECT });
      const res = expectStatus(await socialLogin(t, 'github', { code, redirect_uri: APP_REDIRECT }), 401);
      assert.deepEqual(res.details, { reason: 'email_not_verified' });
    });
  });

  describe('a Facebook-shaped provider', () => {
    it('signs in with a code: the address of /me, the names it gives, the Graph id as subject', async () => {
      const code = providers.fb.issueCode({ login: 'zuck', redirectUri: APP_REDIRECT });
      const body = expectStatus(await socialLogin(t, 'facebook', { code, redirect_uri: APP_REDIRECT }), 200);
      assert.deepEqual([body.provider, body.is_new_user, body.user.email], ['facebook', true, 'mark@example.com']);
      assert.deepEqual(await links(), [{ user_id: Number(body.user.id), provider: 'facebook', subject: '10150000000001', email: 'mark@example.com' }]);
      const { first_name, last_name, is_email_verified } = (await account('mark@example.com'))!;
      assert.deepEqual([first_name, last_name, is_email_verified], ['Mark', 'Elliot', true]);
      const attempt = await t.container.db.selectFrom('login_attempts').select('method').executeTakeFirstOrThrow();
      assert.equal(attempt.method, 'social_facebook');
      const wrong = providers.fb.issueCode({ login: 'zuck', redirectUri: APP_REDIRECT });
      const refused = await socialLogin(t, 'facebook', { code: wrong, redirect_uri: 'http://localhost:3000/callback?x=1' });
      assert.equal(expectStatus(refused, 400).code, 'INVALID_REDIRECT_URI');
    });

    it('signs in with an access token debug_token says is our app\'s; refuses another app\'s and an unknown one', async () => {
      const body = expectStatus(await socialLogin(t, 'provider_d', { access_token: providers.fb.issueToken({ login: 'zuck' }) }), 200);
      assert.equal(body.provider, 'facebook');
      for (const access_token of [providers.fb.issueToken({ login: 'zuck', clientId: '987654321' }), 'EAAunknown']) {
        assert.equal(expectStatus(await socialLogin(t, 'facebook', { access_token }), 401).code, 'PROVIDER_AUTH_FAILED');
      }
    });

    it('refuses an account whose address was not granted: no verified address', async () => {
      const res = await socialLogin(t, 'facebook', { access_token: providers.fb.issueToken({ login: 'zuck', scope: 'public_profile' }) });
      assert.deepEqual(expectStatus(res, 401).details, { reason: 'email_not_verified' });
      assert.deepEqual(await links(), []);
    });
  });

  describe('the checks of a password login', () => {
    it('locks the account after wrong codes given through social login, and refuses it while locked', async () => {
      const ann = await createUser(t, { email: 'alice@example.com', verified: true });
      const totp = await enableTotp(t, ann);
      const max = t.container.config.MAX_LOGIN_ATTEMPTS;
      const codes: string[] = [];
      for (let n = 0; n < max; n++) codes.push(JSON.parse((await socialLogin(t, 'google', { ...(await googleCode()), totp_code: '000000' })).body).code);
      assert.deepEqual(codes, [...Array(max - 1).fill('INVALID_CODE'), 'ACCOUNT_LOCKED'], 'the last wrong code locks the account');
      const locked = expectStatus(await socialLogin(t, 'google', { ...(await googleCode()), totp_code: totp.code() }), 423);
      assert.equal(locked.code, 'ACCOUNT_LOCKED');
      assert.equal(await t.container.db.selectFrom('sessions').select('id').where('user_id', '=', ann.id).executeTakeFirst(), undefined);
    });

    it('follows the account\'s device limit: a new device ends the oldest device\'s sessions (revoke_oldest)', async () => {
      await createUser(t, { email: 'alice@example.com', verified: true, max_devices: 1 });
      const first = expectStatus(await socialLogin(t, 'google', { ...(await googleCode()), device_info: deviceInfo(1) }), 200);
      const again = expectStatus(await socialLogin(t, 'google', { ...(await googleCode()), device_info: deviceInfo(1) }), 200);
      const me = (token: string) => t.api({ method: 'GET', path: 'me/', token });
      assert.equal((await me(first.access_token)).statusCode, 200, 'the same device is no new device');
      const other = expectStatus(await socialLogin(t, 'google', { ...(await googleCode()), device_info: deviceInfo(2) }), 200);
      assert.deepEqual([(await me(first.access_token)).statusCode, (await me(again.access_token)).statusCode,
        (await me(other.access_token)).statusCode], [401, 401, 200]);
    });
  });

  describe('bad input and failing providers', () => {
    it('answers 400 INVALID_PROVIDER with the configured providers', async () => {
      const res = expectStatus(await socialLogin(t, 'provider_c', await googleCode()), 400);
      assert.deepEqual([res.code, res.supported_providers], ['INVALID_PROVIDER', ['google', 'github', 'facebook']]);
      assert.equal(expectStatus(await socialLogin(t, 'twitter', {}), 400).code, 'INVALID_PROVIDER');
    });

    it('answers 400 INVALID_REDIRECT_URI for an address outside the application\'s list (exact match)', async () => {
      for (const redirect_uri of ['http://localhost:3000/callback/', 'http://evil.example/callback']) {
        const res = expectStatus(await socialLogin(t, 'google', { ...(await googleCode()), redirect_uri }), 400);
        assert.equal(res.code, 'INVALID_REDIRECT_URI');
      }
    });

    it('answers 400 without any proof, and 400 MISSING_REDIRECT_URI for a code alone', async () => {
      assert.equal(expectStatus(await socialLogin(t, 'google', {}), 400).code, 'VALIDATION_ERROR');
      assert.equal(expectStatus(await socialLogin(t, 'google', { code: 'x' }), 400).code, 'MISSING_REDIRECT_URI');
    });

    it('answers 401, never 500, when the provider answers garbage or stalls past 5 s', async () => {
      providers.gh.garbage(['token']);
      const garbage = await socialLogin(t, 'github', { code: providers.gh.issueCode({ login: 'octo', redirectUri: APP_REDIRECT }),
        redirect_uri: APP_REDIRECT });
      assert.equal(expectStatus(garbage, 401).code, 'CODE_EXCHANGE_FAILED');
      providers.gh.restore();
      // A stall longer than the 5 s the provider is given: without the bound, the exchange would end in a sign-in.
      providers.op.stall(8000, ['token']);
      const stalled = await socialLogin(t, 'google', await googleCode());
      assert.equal(expectStatus(stalled, 401).code, 'CODE_EXCHANGE_FAILED');
    });
  });
});
