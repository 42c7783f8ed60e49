import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('AgentBearer authentication and the double check', () => {
  const t = useTestApp({ now: NOW, env: AGENT_ENV });
  let alice: Account;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com', first_name: 'Alice' });
    await grantDirect(t, alice.id, ['roles.view', 'users.view']);
  });
  const agent = (...a: Parameters<ReturnType<typeof agentApi>>) => agentApi(t)(...a);
  const tokenRow = (id: number) => t.container.db.selectFrom('agent_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('refuses unknown, malformed and user tokens with 401 AGENT_TOKEN_INVALID', async () => {
    for (const token of [`gha_${'A'.repeat(43)}`, 'gha_short', 'not-a-token', alice.token]) {
      expectError(await agent('GET', 'me/', token), 401, 'AGENT_TOKEN_INVALID');
    }
    expectError(await t.api({ method: 'GET', path: 'me/', headers: { authorization: 'AgentBearer' } }), 401, 'AGENT_TOKEN_INVALID');
  });

  it('still needs the application\'s credentials', async () => {
    const { token } = await delegate(t, alice);
    const res = await t.api({ method: 'GET', path: 'me/', appAuth: false, headers: { authorization: `AgentBearer ${token}` } });
    expectError(res, 401, 'APP_AUTH_REQUIRED');
  });

  it('reads the delegating user\'s profile and roles, and counts each request', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'] });
    const me = expectStatus(await agent('GET', 'me/', token), 200);
    assert.equal(me.email, 'alice@example.com');
    const roles = expectStatus(await agent('GET', 'me/roles/', token), 200);
    assert.ok(Array.isArray(roles.permissions));
    const row = await tokenRow(id);
    assert.equal(row.request_count, 2);
    assert.equal(row.last_used_at?.toISOString(), NOW.toISOString());
  });

  it('allows a granted permission the user holds, and refuses one not granted with 403 AGENT_PERMISSION_DENIED naming it', async () => {
    const { token } = await delegate(t, alice, { permissions: ['roles.view'] });
    expectStatus(await agent('GET', 'roles/', token), 200);
    const refused = expectError(await agent('GET', 'admin/users/', token), 403, 'AGENT_PERMISSION_DENIED');
    assert.deepEqual(refused.details, { missing_permissions: ['users.view'], requires: 'all' });
  });

  it('checks the user\'s current permissions: a permission taken from the user after delegation is refused at once', async () => {
    const { token } = await delegate(t, alice, { permissions: ['users.view'] });
    expectStatus(await agent('GET', 'admin/users/', token), 200);
    await t.container.db.deleteFrom('user_permissions').where('user_id', '=', alice.id).execute();
    expectError(await agent('GET', 'admin/users/', token), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('acts with what it was granted when the service checks the actor (a superuser\'s token is not a superuser)', async () => {
    const root = await account(t, { email: 'root@example.com', is_superuser: true });
    const { token } = await delegate(t, root, { permissions: ['users.view'] });
    expectStatus(await agent('GET', 'admin/users/', token), 200);
    expectError(await agent('GET', 'roles/', token), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('answers 403 AGENT_NOT_ALLOWED on every closed route, whatever was granted, and runs none of them', async () => {
    const { token } = await delegate(t, alice, { permissions: ['roles.view', 'users.view'], circuit_breaker: { max_failed_requests: 50 } });
    const closed: Array<[Parameters<typeof agent>[0], string, object?]> = [
      ['PATCH', 'me/', { first_name: 'Mallory' }], ['POST', 'password/change/', { old_password: 'x', new_password: 'y' }],
      ['POST', '2fa/setup/', {}], ['POST', 'logout/all/', {}], ['POST', 'refresh/', { refresh_token: 'x' }],
      ['POST', 'login/email/', { email: 'alice@example.com', password: 'x' }], ['GET', 'applications/', undefined],
      ['POST', 'ai/tokens/', { agent_id: 'child' }], ['GET', 'ai/tokens/', undefined], ['POST', 'otp/request/', {}],
      ['POST', 'password/reset/request/', { email: 'alice@example.com' }],
    ];
    for (const [method, path, payload] of closed) {
      const res = await agent(method, path, token, payload);
      assert.equal(res.json().code, 'AGENT_NOT_ALLOWED', `${method} ${path}: ${res.body}`);
      assert.equal(res.statusCode, 403);
    }
    const me = await t.container.db.selectFrom('users').select('first_name').where('id', '=', alice.id).executeTakeFirstOrThrow();
    assert.equal(me.first_name, 'Alice');
  });

  it('stops every token of a user who is banned, locked or inactive, and resumes with the user', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'] });
    const db = t.container.db;
    for (const state of [{ is_banned: true }, { locked_until: new Date(NOW.getTime() + 3600_000) }, { is_active: false }]) {
      await db.updateTable('users').set(state).where('id', '=', alice.id).execute();
      // No permission would help while the user cannot act: the refusal names none.
      assert.equal(expectError(await agent('GET', 'roles/', token), 403, 'AGENT_PERMISSION_DENIED').details, undefined);
      expectError(await agent('GET', 'me/', token), 403, 'AGENT_PERMISSION_DENIED');
      await db.updateTable('users').set({ is_banned: false, locked_until: null, is_active: true }).where('id', '=', alice.id).execute();
    }
    expectStatus(await agent('GET', 'roles/', token), 200);
    // The user's standing is not the agent's doing: no denial was counted against the token.
    assert.equal((await tokenRow(id)).failed_count, 0);
  });

  it('revokes the tokens of a user banned through the admin API (docs/agents.md "Threat model")', async () => {
    const admin = await account(t, { email: 'admin@example.com', is_superuser: true });
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'] });
    expectStatus(await userApi(t)('POST', `admin/users/${alice.id}/ban/`, admin, { reason: 'abuse' }), 200);
    expectError(await agent('GET', 'roles/', token), 401, 'AGENT_TOKEN_REVOKED');
    assert.equal((await tokenRow(id)).status, 'REVOKED');
  });

  it('answers 401 AGENT_TOKEN_EXPIRED after the lifetime and marks the token EXPIRED', async () => {
    const { id, token } = await delegate(t, alice, { expires_in: 60 });
    t.clock.advance(59);
    expectStatus(await agent('GET', 'me/', token), 200);
    t.clock.advance(1);
    expectError(await agent('GET', 'me/', token), 401, 'AGENT_TOKEN_EXPIRED');
    assert.equal((await tokenRow(id)).status, 'EXPIRED');
    expectError(await agent('GET', 'me/', token), 401, 'AGENT_TOKEN_EXPIRED');
  });

  it('an agent token sent as a user Bearer is no user token (401), and a user token as AgentBearer no agent token', async () => {
    const { token } = await delegate(t, alice, { permissions: ['roles.view'] });
    expectError(await t.api({ method: 'GET', path: 'roles/', token }), 401, 'TOKEN_INVALID');
    expectError(await agent('GET', 'roles/', alice.token), 401, 'AGENT_TOKEN_INVALID');
  });
});
