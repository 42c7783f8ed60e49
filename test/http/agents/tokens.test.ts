import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('agent tokens (ai/tokens/)', () => {
  const t = useTestApp({ now: NOW, env: { ...AGENT_ENV, SVC_AIRS_MAX_TOKEN_LIFETIME: '7200' } });
  let alice: Account;
  let bob: Account;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    bob = await account(t, { email: 'bob@example.com' });
    await grantDirect(t, alice.id, ['roles.view', 'users.view']);
  });
  const user = (...a: Parameters<ReturnType<typeof userApi>>) => userApi(t)(...a);

  describe('POST ai/tokens/', () => {
    it('answers the token once, with its grants and defaults, and stores only its SHA-256', async () => {
      const created = await delegate(t, alice, { agent_id: 'planner', permissions: ['users.view', 'roles.view', 'roles.view'] });
      assert.match(created.token, /^gha_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual({ ...created, id: 0, token: '' }, {
        id: 0, token: '', agent_id: 'planner', status: 'ACTIVE', expires_at: '2025-03-01T11:00:00.000Z',
        granted_permissions: ['roles.view', 'users.view'], organization: null, budget_limit_usd: null,
      });
      const row = await t.container.db.selectFrom('agent_tokens').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      assert.equal(row.token_hash, createHash('sha256').update(created.token).digest('hex'));
      assert.ok(!JSON.stringify(row).includes(created.token.slice(4)));
      const detail = expectStatus(await user('GET', `ai/tokens/${created.id}/`, alice), 200);
      assert.equal(detail.token, undefined);
      assert.deepEqual(detail, {
        id: created.id, agent_id: 'planner', status: 'ACTIVE', suspended_reason: null, granted_permissions: ['roles.view', 'users.view'],
        organization: null, expires_at: '2025-03-01T11:00:00.000Z', created_at: NOW.toISOString(), last_used_at: null,
        request_count: 0, current_request_count: 0, failed_count: 0, spend_usd: 0, budget_limit_usd: null,
        circuit_breaker: { max_requests_per_minute: 60, max_requests_total: 1000, max_failed_requests: 10 },
        dead_mans_switch: null, last_heartbeat_at: null,
        parent_id: null, depth: 1, can_delegate: false, chain: [{ id: created.id, agent_id: 'planner' }],
      });
    });

    it('takes limits, a budget, a heartbeat and the SDK\'s breaker keys', async () => {
      const a = await delegate(t, alice, { expires_in: 7200, budget_limit_usd: 2.5, permissions: ['roles.view'],
        circuit_breaker: { max_requests_per_minute: 5, max_requests_total: 50, max_failed_requests: 3 },
        dead_mans_switch: { heartbeat_required_every: 120 } });
      const detail = expectStatus(await user('GET', `ai/tokens/${a.id}/`, alice), 200);
      assert.equal(detail.expires_at, '2025-03-01T12:00:00.000Z');
      assert.equal(detail.budget_limit_usd, 2.5);
      assert.deepEqual(detail.circuit_breaker, { max_requests_per_minute: 5, max_requests_total: 50, max_failed_requests: 3 });
      assert.deepEqual(detail.dead_mans_switch, { heartbeat_required_every: 120 });
      const b = await delegate(t, alice, { circuit_breaker: { max_requests: 10, window_seconds: 30 } });
      assert.equal(expectStatus(await user('GET', `ai/tokens/${b.id}/`, alice), 200).circuit_breaker.max_requests_per_minute, 20);
      expectError(await user('POST', 'ai/tokens/', alice, { agent_id: 'x', circuit_breaker: { max_requests: 10 } }), 400, 'VALIDATION_ERROR');
    });

    it('refuses a permission the user does not hold (403) and an unknown code (400 PERMISSIONS_NOT_FOUND)', async () => {
      const refused = expectError(await user('POST', 'ai/tokens/', alice, { agent_id: 'x', permissions: ['users.manage', 'roles.view'] }),
        403, 'PERMISSION_DENIED');
      assert.deepEqual(refused.details, { missing_permissions: ['users.manage'], requires: 'all' });
      const body = expectError(await user('POST', 'ai/tokens/', alice, { agent_id: 'x', permissions: ['roles.view', 'no.such'] }), 400,
        'PERMISSIONS_NOT_FOUND');
      assert.deepEqual(body.details, { permissions: ['no.such'] });
      assert.equal(await t.container.db.selectFrom('agent_tokens').select('id').executeTakeFirst(), undefined);
    });

    it('refuses lifetimes of zero, below zero or above SVC_AIRS_MAX_TOKEN_LIFETIME, and bad amounts and limits', async () => {
      for (const bad of [{ expires_in: 0 }, { expires_in: -5 }, { expires_in: 7201 }, { expires_in: 1.5 }, { expires_in: '60' },
        { budget_limit_usd: -1 }, { budget_limit_usd: 'ten' }, { circuit_breaker: { max_requests_total: 0 } },
        { dead_mans_switch: { heartbeat_required_every: 0 } }, { agent_id: '' }, { unknown: true }]) {
        expectError(await user('POST', 'ai/tokens/', alice, { agent_id: 'x', ...bad }), 400, 'VALIDATION_ERROR');
      }
      expectStatus(await user('POST', 'ai/tokens/', alice, { agent_id: 'x', expires_in: 7200 }), 201);
    });

    it('needs a user bearer: none → 401, an agent token → 403 AGENT_NOT_ALLOWED, an agent token as a Bearer → 401', async () => {
      expectError(await t.api({ method: 'POST', path: 'ai/tokens/', payload: { agent_id: 'x' } }), 401, 'UNAUTHORIZED');
      const { token } = await delegate(t, alice, { permissions: ['roles.view'] });
      expectError(await agentApi(t)('POST', 'ai/tokens/', token, { agent_id: 'x' }), 403, 'AGENT_NOT_ALLOWED');
      expectError(await t.api({ method: 'POST', path: 'ai/tokens/', token, payload: { agent_id: 'x' } }), 401, 'TOKEN_INVALID');
      expectError(await agentApi(t)('GET', 'me/', alice.token), 401, 'AGENT_TOKEN_INVALID');
    });

    it('answers 404 FEATURE_DISABLED with SVC_AIRS_ENABLED off, and AgentBearer is then no authentication', async () => {
      const off = await createTestApp({ now: NOW, env: { ...AGENT_ENV, SVC_AIRS_ENABLED: 'false' } });
      try {
        const carol = await account(off, { email: 'carol@example.com' });
        const disabled = expectError(await userApi(off)('POST', 'ai/tokens/', carol, { agent_id: 'x' }), 404, 'FEATURE_DISABLED');
        assert.deepEqual(disabled.details, { setting: 'SVC_AIRS_ENABLED' });
        expectError(await agentApi(off)('GET', 'me/', `gha_${'a'.repeat(43)}`), 401, 'TOKEN_INVALID');
      } finally {
        await off.close();
      }
    });
  });

  describe('GET ai/tokens/ and ai/tokens/<id>/', () => {
    it('lists the caller\'s tokens only, newest first, paged, filtered by status and agent_id', async () => {
      const first = await delegate(t, alice, { agent_id: 'one' });
      t.clock.advance(1);
      const second = await delegate(t, alice, { agent_id: 'two' });
      await delegate(t, bob, { agent_id: 'bobs' });
      expectStatus(await user('POST', `ai/tokens/${first.id}/suspend/`, alice), 200);
      const page = expectStatus(await user('GET', 'ai/tokens/?page_size=1', alice), 200);
      assert.equal(page.count, 2);
      assert.deepEqual(page.results.map((r: { id: number }) => r.id), [second.id]);
      assert.match(page.next, /page=2/);
      const ids = async (q: string) => expectStatus(await user('GET', `ai/tokens/?${q}`, alice), 200).results.map((r: { id: number }) => r.id);
      assert.deepEqual(await ids('status=SUSPENDED'), [first.id]);
      assert.deepEqual(await ids('agent_id=two'), [second.id]);
      assert.deepEqual(await ids('status=REVOKED'), []);
      expectError(await user('GET', 'ai/tokens/?status=nope', alice), 400, 'VALIDATION_ERROR');
    });

    it('answers 404 for another user\'s token, an unknown id and a malformed one', async () => {
      const bobs = await delegate(t, bob);
      for (const id of [bobs.id, 999999, 'abc']) {
        expectError(await user('GET', `ai/tokens/${id}/`, alice), 404, 'NOT_FOUND');
        expectError(await user('POST', `ai/tokens/${id}/revoke/`, alice), 404, 'NOT_FOUND');
        expectError(await user('PUT', `ai/tokens/${id}/`, alice, { agent_id: 'mine' }), 404, 'NOT_FOUND');
        expectError(await user('DELETE', `ai/tokens/${id}/`, alice), 404, 'NOT_FOUND');
      }
      assert.equal(expectStatus(await user('GET', `ai/tokens/${bobs.id}/`, bob), 200).status, 'ACTIVE');
    });

    it('shows a token past its expiry as EXPIRED, and lists it under that status', async () => {
      const created = await delegate(t, alice, { expires_in: 60 });
      t.clock.advance(61);
      assert.equal(expectStatus(await user('GET', `ai/tokens/${created.id}/`, alice), 200).status, 'EXPIRED');
      assert.equal(expectStatus(await user('GET', 'ai/tokens/?status=EXPIRED', alice), 200).count, 1);
      assert.equal(expectStatus(await user('GET', 'ai/tokens/?status=ACTIVE', alice), 200).count, 0);
    });
  });

  describe('PUT ai/tokens/<id>/', () => {
    it('renames, changes limits and narrows permissions', async () => {
      const created = await delegate(t, alice, { permissions: ['roles.view', 'users.view'] });
      const body = expectStatus(await user('PUT', `ai/tokens/${created.id}/`, alice, { agent_id: 'renamed', permissions: ['roles.view'],
        budget_limit_usd: 1.25, circuit_breaker: { max_requests_total: 9 }, dead_mans_switch: { heartbeat_required_every: 30 } }), 200);
      assert.equal(body.agent_id, 'renamed');
      assert.deepEqual(body.granted_permissions, ['roles.view']);
      assert.equal(body.budget_limit_usd, 1.25);
      assert.deepEqual(body.circuit_breaker, { max_requests_per_minute: 60, max_requests_total: 9, max_failed_requests: 10 });
      assert.deepEqual(body.dead_mans_switch, { heartbeat_required_every: 30 });
      expectError(await agentApi(t)('GET', 'admin/users/', created.token), 403, 'AGENT_PERMISSION_DENIED');
      const cleared = expectStatus(await user('PUT', `ai/tokens/${created.id}/`, alice, { budget_limit_usd: null, dead_mans_switch: null }), 200);
      assert.equal(cleared.budget_limit_usd, null);
      assert.equal(cleared.dead_mans_switch, null);
    });

    it('never widens permissions, even to ones the user holds', async () => {
      const created = await delegate(t, alice, { permissions: ['roles.view'] });
      const body = expectError(await user('PUT', `ai/tokens/${created.id}/`, alice, { permissions: ['roles.view', 'users.view'] }), 400, 'VALIDATION_ERROR');
      assert.match(body.details.permissions[0], /users\.view/);
      assert.deepEqual(expectStatus(await user('GET', `ai/tokens/${created.id}/`, alice), 200).granted_permissions, ['roles.view']);
    });

    it('refuses to change a revoked token', async () => {
      const created = await delegate(t, alice);
      expectStatus(await user('POST', `ai/tokens/${created.id}/revoke/`, alice), 200);
      expectError(await user('PUT', `ai/tokens/${created.id}/`, alice, { agent_id: 'again' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('revoke, suspend, resume, DELETE and revoke-all', () => {
    it('suspends (MANUAL), resumes, and revokes for good, answering {status, token}', async () => {
      const created = await delegate(t, alice, { permissions: ['roles.view'] });
      const suspended = expectStatus(await user('POST', `ai/tokens/${created.id}/suspend/`, alice), 200);
      assert.equal(suspended.status, 'suspended');
      assert.equal(suspended.token.status, 'SUSPENDED');
      assert.equal(suspended.token.suspended_reason, 'MANUAL');
      const refused = expectError(await agentApi(t)('GET', 'roles/', created.token), 403, 'AGENT_TOKEN_SUSPENDED');
      assert.equal(refused.reason, 'MANUAL');
      const resumed = expectStatus(await user('POST', `ai/tokens/${created.id}/resume/`, alice), 200);
      assert.deepEqual([resumed.status, resumed.token.status, resumed.token.suspended_reason], ['active', 'ACTIVE', null]);
      expectStatus(await agentApi(t)('GET', 'roles/', created.token), 200);
      const revoked = expectStatus(await user('POST', `ai/tokens/${created.id}/revoke/`, alice), 200);
      assert.deepEqual([revoked.status, revoked.token.status], ['revoked', 'REVOKED']);
      expectError(await agentApi(t)('GET', 'roles/', created.token), 401, 'AGENT_TOKEN_REVOKED');
      expectError(await user('POST', `ai/tokens/${created.id}/resume/`, alice), 400, 'VALIDATION_ERROR');
      expectError(await user('POST', `ai/tokens/${created.id}/suspend/`, alice), 400, 'VALIDATION_ERROR');
      assert.equal(expectStatus(await user('POST', `ai/tokens/${created.id}/revoke/`, alice), 200).token.status, 'REVOKED');
    });

    it('does not resume an expired token', async () => {
      const created = await delegate(t, alice, { expires_in: 60 });
      expectStatus(await user('POST', `ai/tokens/${created.id}/suspend/`, alice), 200);
      t.clock.advance(61);
      expectError(await user('POST', `ai/tokens/${created.id}/resume/`, alice), 400, 'VALIDATION_ERROR');
    });

    it('DELETE revokes', async () => {
      const created = await delegate(t, alice);
      const body = expectStatus(await user('DELETE', `ai/tokens/${created.id}/`, alice), 200);
      assert.deepEqual([body.status, body.token.status], ['revoked', 'REVOKED']);
      expectError(await agentApi(t)('GET', 'me/', created.token), 401, 'AGENT_TOKEN_REVOKED');
    });

    it('revoke-all revokes every live token of the caller and no one else\'s', async () => {
      const a = await delegate(t, alice);
      const b = await delegate(t, alice);
      const gone = await delegate(t, alice);
      expectStatus(await user('POST', `ai/tokens/${gone.id}/revoke/`, alice), 200);
      const bobs = await delegate(t, bob);
      assert.deepEqual(expectStatus(await user('POST', 'ai/tokens/revoke-all/', alice), 200), { message: '2 agent tokens revoked.', count: 2, status: 'revoked' });
      for (const { token } of [a, b]) expectError(await agentApi(t)('GET', 'me/', token), 401, 'AGENT_TOKEN_REVOKED');
      expectStatus(await agentApi(t)('GET', 'me/', bobs.token), 200);
      assert.equal(expectStatus(await user('POST', 'ai/tokens/revoke-all/', alice), 200).count, 0);
    });

    it('audits creation and every change of status', async () => {
      const created = await delegate(t, alice);
      await user('POST', `ai/tokens/${created.id}/suspend/`, alice);
      await user('POST', `ai/tokens/${created.id}/resume/`, alice);
      await user('POST', `ai/tokens/${created.id}/revoke/`, alice);
      const rows = await t.container.db.selectFrom('audit_events').select(['event_type', 'user_id'])
        .where('event_type', 'like', 'agent_token_%').orderBy('id').execute();
      assert.deepEqual(rows.map((r) => r.event_type), ['agent_token_created', 'agent_token_suspended', 'agent_token_resumed', 'agent_token_revoked']);
      assert.ok(rows.every((r) => r.user_id === alice.id));
    });
  });
});
