import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import * as client from 'openid-client';
import { grantDirect } from '../../factories/rbac.js';
import { signIn } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import type { TestApp } from '../../helpers/test-app.js';
import { startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md "Grants": each approved grant is a delegation the person lists and revokes, an administrator revokes,
// and every event ending the person's sessions revokes.
describe('OAuth grants (docs/oauth.md "Grants")', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let user: TestUser;
  let config: client.Configuration;

  before(async () => {
    oauth = await startOauthApp();
    t = oauth.t;
    config = await oauth.relyingParty();
  });
  after(() => t.close());
  // The application registered by startOauthApp stays: each test has people of its own instead of a reset.
  let n = 0;
  const person = (name: string) => createUser(t, { email: `${name}-${++n}@example.com` });
  beforeEach(async () => {
    user = await person('ada');
  });

  const grantsOf = async (token: string) => {
    const res = await t.api({ method: 'GET', path: 'me/grants/', token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().results as { id: string; client_id: string; client_name: string; verified: boolean; scopes: string[]; status: string }[];
  };
  const active = async (token: string) => (await client.tokenIntrospection(config, token)).active;

  it('lists the grant with its client and scopes, and the person revokes it: its tokens stop at once', async () => {
    const tokens = await oauth.tokensFor(config, user);
    const session = await signIn(t, user);
    const [grant, ...others] = await grantsOf(session.access_token);
    assert.equal(others.length, 0);
    assert.equal(grant!.client_id, oauth.clientId);
    assert.equal(grant!.client_name, 'Acme <Notes>');
    assert.equal(grant!.verified, true);
    assert.equal(grant!.status, 'active');
    assert.deepEqual([...grant!.scopes].sort(), ['email', 'offline_access', 'openid', 'profile']);
    assert.equal(await active(tokens.access_token), true);

    const res = await t.api({ method: 'DELETE', path: `me/grants/${grant!.id}/`, token: session.access_token });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await active(tokens.access_token), false);
    await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!), (err: { error?: string }) => err.error === 'invalid_grant');
    assert.deepEqual(await grantsOf(session.access_token), []);
  });

  it('answers 404 for another person\'s grant, and leaves it alone', async () => {
    const tokens = await oauth.tokensFor(config, user);
    const owner = await signIn(t, user);
    const [grant] = await grantsOf(owner.access_token);
    const mallory = await person('mallory');
    const session = await signIn(t, mallory);
    const res = await t.api({ method: 'DELETE', path: `me/grants/${grant!.id}/`, token: session.access_token });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(await grantsOf(session.access_token), []);
    assert.equal(await active(tokens.access_token), true);
  });

  it('an administrator with users.view lists a person\'s grants, with users.manage revokes any of them; without, 403', async () => {
    const tokens = await oauth.tokensFor(config, user);
    const [grant] = await grantsOf((await signIn(t, user)).access_token);
    const clerk = await person('clerk');
    const clerkToken = (await signIn(t, clerk)).access_token;
    const denied = await t.api({ method: 'DELETE', path: `admin/grants/${grant!.id}/`, token: clerkToken });
    assert.equal(denied.statusCode, 403);
    assert.equal((await t.api({ method: 'GET', path: `admin/grants/?user_id=${user.id}`, token: clerkToken })).statusCode, 403);
    const admin = await person('admin');
    await grantDirect(t, admin.id, ['users.manage', 'users.view']);
    const listed = await t.api({ method: 'GET', path: `admin/grants/?user_id=${user.id}`, token: (await signIn(t, admin)).access_token });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(listed.json().results.map((g: { id: string }) => g.id), [grant!.id]);
    const nobody = await t.api({ method: 'GET', path: `admin/grants/?user_id=${clerk.id}`, token: (await signIn(t, admin)).access_token });
    assert.deepEqual(nobody.json().results, []);
    const res = await t.api({ method: 'DELETE', path: `admin/grants/${grant!.id}/`, token: (await signIn(t, admin)).access_token });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await active(tokens.access_token), false);
  });

  it('logout from everywhere revokes the grants and their refresh tokens', async () => {
    const tokens = await oauth.tokensFor(config, user);
    const session = await signIn(t, user);
    const res = await t.api({ method: 'POST', path: 'logout/all/', token: session.access_token, payload: {} });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await active(tokens.access_token), false);
    await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!), (err: { error?: string }) => err.error === 'invalid_grant');
    await assert.rejects(client.fetchUserInfo(config, tokens.access_token, String(user.id)));
  });

  it('a banned person\'s tokens are inactive and refused', async () => {
    const tokens = await oauth.tokensFor(config, user);
    await t.container.db.updateTable('users').set({ is_banned: true }).where('id', '=', user.id).execute();
    assert.equal(await active(tokens.access_token), false);
    await assert.rejects(client.fetchUserInfo(config, tokens.access_token, String(user.id)));
    await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!));
  });

  it('a grant revoked through another instance is inactive here at once (nothing is cached)', async () => {
    const tokens = await oauth.tokensFor(config, user);
    const { createTestApp } = await import('../../helpers/test-app.js');
    const second = await createTestApp({ env: { SVC_OAUTH_ENABLED: 'true' } });
    try {
      const session = await signIn(second, user);
      const listed = await second.api({ method: 'GET', path: 'me/grants/', token: session.access_token });
      const [grant] = listed.json().results;
      const res = await second.api({ method: 'DELETE', path: `me/grants/${grant.id}/`, token: session.access_token });
      assert.equal(res.statusCode, 200, res.body);
    } finally {
      await second.close();
    }
    assert.equal(await active(tokens.access_token), false);
    await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!), (err: { error?: string }) => err.error === 'invalid_grant');
  });

  it('answers 404 FEATURE_DISABLED with the authorization server off', async () => {
    const { createTestApp } = await import('../../helpers/test-app.js');
    const off = await createTestApp();
    try {
      const other = await createUser(off, { email: 'off@example.com' });
      const res = await off.api({ method: 'GET', path: 'me/grants/', token: (await signIn(off, other)).access_token });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().error_code ?? res.json().code, 'FEATURE_DISABLED');
    } finally {
      await off.close();
    }
  });
});
