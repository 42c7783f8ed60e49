import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { useTestApp } from '../../helpers/test-app.js';
import { clearInbox, lastEmailCode } from '../otp/helpers.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const NEW_PASSWORD = 'violet submarine orchestra';

/**
 * Credentials die together (docs/agents.md "Threat model"): every event that ends all of a person's sessions revokes the
 * agent tokens they created before it, in the same transaction, and every agent check compares a token's creation time
 * with the account's `tokens_valid_after`. Tried from the side of someone holding a token minted before the event.
 */
describe('agent tokens end with their person\'s credentials', () => {
  const t = useTestApp({ now: NOW, env: AGENT_ENV });
  let alice: Account;
  beforeEach(async () => {
    clearInbox(t);
    t.clock.set(NOW);
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['users.view']);
  });
  const agent = (method: 'GET' | 'POST', path: string, token: string, payload?: unknown) => agentApi(t)(method, path, token, payload);
  const user = (...a: Parameters<ReturnType<typeof userApi>>) => userApi(t)(...a);
  const statusOf = async (id: number) =>
    (await t.container.db.selectFrom('agent_tokens').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  /** A token of alice's that works, then the event, then the same token refused as revoked on every kind of route. */
  async function revokedBy(event: () => Promise<void>) {
    const created = await delegate(t, alice, { permissions: ['users.view'] });
    const suspended = await delegate(t, alice, { agent_id: 'paused', permissions: ['users.view'] });
    expectStatus(await user('POST', `ai/tokens/${suspended.id}/suspend/`, alice), 200);
    expectStatus(await agent('GET', 'admin/users/', created.token), 200);
    t.clock.advance(1);
    await event();
    for (const { id, token } of [created, suspended]) {
      expectError(await agent('GET', 'admin/users/', token), 401, 'AGENT_TOKEN_REVOKED');
      expectError(await agent('GET', 'me/', token), 401, 'AGENT_TOKEN_REVOKED');
      expectError(await agent('POST', `ai/tokens/${id}/heartbeat/`, token), 401, 'AGENT_TOKEN_REVOKED');
      expectError(await t.api({ method: 'POST', path: 'ai/authorize/', headers: { authorization: `AgentBearer ${token}` },
        payload: { permission: 'users.view' } }), 401, 'AGENT_TOKEN_REVOKED');
      assert.equal(await statusOf(id), 'REVOKED');
    }
    const [audit] = await t.container.db.selectFrom('audit_events').select('details')
      .where('event_type', '=', 'agent_tokens_revoked').execute();
    assert.deepEqual((audit?.details as { token_ids: number[] }).token_ids.sort(), [created.id, suspended.id].sort());
  }

  it('logout/all/ revokes them', async () => {
    await revokedBy(async () => { expectStatus(await user('POST', 'logout/all/', alice), 200); });
  });

  it('a password change revokes them, while the caller keeps its session', async () => {
    await revokedBy(async () => {
      expectStatus(await user('POST', 'password/change/', alice, { current_password: alice.password, new_password: NEW_PASSWORD }), 200);
    });
    expectStatus(await user('GET', 'me/', alice), 200);
    // A token minted afterwards, from that session, works.
    const fresh = await delegate(t, alice, { permissions: ['users.view'] });
    expectStatus(await agent('GET', 'admin/users/', fresh.token), 200);
  });

  it('a password reset revokes them', async () => {
    await revokedBy(async () => {
      expectStatus(await t.api({ method: 'POST', path: 'password/reset/request/', payload: { email: alice.email } }), 200);
      const otp_code = await lastEmailCode(t, alice.email!);
      expectStatus(await t.api({ method: 'POST', path: 'password/reset/confirm/',
        payload: { email: alice.email, otp_code, new_password: NEW_PASSWORD } }), 200);
    });
  });

  describe('an administrator taking access away', () => {
    let admin: Account;
    beforeEach(async () => { admin = await account(t, { email: 'admin@example.com', is_superuser: true }); });
    const cases = {
      'deactivation': [{ is_active: false }, { is_active: true }],
      'lock': ['lock', 'unlock'],
      'ban': ['ban', 'unban'],
    } as const;
    for (const [name, [take, give]] of Object.entries(cases)) {
      const call = (what: object | string) => (typeof what === 'string'
        ? user('POST', `admin/users/${alice.id}/${what}/`, admin, {})
        : user('PATCH', `admin/users/${alice.id}/`, admin, what));
      it(`${name} revokes them, and lifting it does not bring them back`, async () => {
        await revokedBy(async () => { expectStatus(await call(take), 200); });
        expectStatus(await call(give), 200);
        const statuses = await t.container.db.selectFrom('agent_tokens').select('status').execute();
        assert.deepEqual(statuses.map((r) => r.status), ['REVOKED', 'REVOKED']);
      });
    }
  });

  it('a token the revocation missed is still refused: the check compares its creation time with tokens_valid_after', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['users.view'] });
    t.clock.advance(5);
    // As if the row had been left ACTIVE: only the account's tokens_valid_after moved.
    await t.container.db.updateTable('users').set({ tokens_valid_after: t.clock.now() }).where('id', '=', alice.id).execute();
    expectError(await agent('GET', 'admin/users/', token), 401, 'AGENT_TOKEN_REVOKED');
    assert.equal(await statusOf(id), 'REVOKED');
    const own = await delegate(t, alice, { agent_id: 'own', permissions: ['users.view'] }).catch(() => null);
    assert.equal(own, null, 'the bearer issued before tokens_valid_after mints nothing either');
    const second = await signIn(t, alice);
    const other = expectStatus(await t.api({ method: 'POST', path: 'ai/tokens/', token: second.access_token,
      payload: { agent_id: 'after', permissions: ['users.view'] } }), 201);
    await t.container.db.updateTable('users').set({ tokens_valid_after: new Date(t.clock.now().getTime() + 1000) })
      .where('id', '=', alice.id).execute();
    expectError(await agent('POST', `ai/tokens/${other.id}/heartbeat/`, other.token), 401, 'AGENT_TOKEN_REVOKED');
    assert.equal(await statusOf(other.id), 'REVOKED');
  });

  it('no token minted while logout/all/ runs outlives it', async () => {
    for (let round = 0; round < 5; round++) {
      await t.reset();
      t.clock.set(NOW);
      alice = await account(t, { email: 'alice@example.com' });
      await grantDirect(t, alice.id, ['users.view']);
      const mints = Array.from({ length: 6 }, (_, n) => user('POST', 'ai/tokens/', alice, { agent_id: `racer-${n}`, permissions: ['users.view'] }));
      const [logout, ...minted] = await Promise.all([user('POST', 'logout/all/', alice), ...mints]);
      expectStatus(logout, 200);
      for (const res of minted) {
        if (res.statusCode === 201) expectError(await agent('GET', 'admin/users/', res.json().token), 401, 'AGENT_TOKEN_REVOKED');
        else expectError(res, 401, 'TOKEN_BLACKLISTED');
      }
      const live = await t.container.db.selectFrom('agent_tokens').select('id').where('status', '=', 'ACTIVE').execute();
      assert.deepEqual(live, [], `round ${round}`);
    }
  });

  it('requests in flight when logout/all/ commits are answered, and every later one is refused', async () => {
    const { token } = await delegate(t, alice, { permissions: ['users.view'], circuit_breaker: { max_requests_per_minute: 500 } });
    const inFlight = Array.from({ length: 10 }, () => agent('GET', 'admin/users/', token));
    const [logout, ...answers] = await Promise.all([user('POST', 'logout/all/', alice), ...inFlight]);
    expectStatus(logout, 200);
    for (const res of answers) assert.ok([200, 401].includes(res.statusCode), res.body);
    expectError(await agent('GET', 'admin/users/', token), 401, 'AGENT_TOKEN_REVOKED');
  });
});
