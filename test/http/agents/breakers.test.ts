import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('agent circuit breakers', () => {
  const t = useTestApp({ now: NOW, env: AGENT_ENV });
  let alice: Account;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['roles.view', 'users.view']);
  });
  const agent = (...a: Parameters<ReturnType<typeof agentApi>>) => agentApi(t)(...a);
  const tokenRow = (id: number) => t.container.db.selectFrom('agent_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const suspendedEvents = () => t.container.db.selectFrom('audit_events').select(['details', 'severity'])
    .where('event_type', '=', 'agent_token_suspended').execute();

  it('20 parallel requests against a total of 5 let exactly 5 through, and the token is suspended for RATE_LIMIT', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'], circuit_breaker: { max_requests_total: 5 } });
    const answers = await Promise.all(Array.from({ length: 20 }, () => agent('GET', 'roles/', token)));
    assert.equal(answers.filter((r) => r.statusCode === 200).length, 5);
    for (const refused of answers.filter((r) => r.statusCode !== 200)) {
      assert.equal(refused.statusCode, 403);
      assert.deepEqual([refused.json().code, refused.json().reason], ['AGENT_TOKEN_SUSPENDED', 'RATE_LIMIT']);
    }
    const row = await tokenRow(id);
    assert.deepEqual([row.status, row.suspended_reason, row.request_count], ['SUSPENDED', 'RATE_LIMIT', 5]);
    const events = await suspendedEvents();
    assert.equal(events.length, 1);
    assert.deepEqual([events[0]!.severity, events[0]!.details.reason], ['warning', 'RATE_LIMIT']);
  });

  it('20 parallel requests against 4 a minute let exactly 4 through', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'], circuit_breaker: { max_requests_per_minute: 4 } });
    const answers = await Promise.all(Array.from({ length: 20 }, () => agent('GET', 'roles/', token)));
    assert.equal(answers.filter((r) => r.statusCode === 200).length, 4);
    assert.deepEqual([(await tokenRow(id)).status, (await tokenRow(id)).suspended_reason], ['SUSPENDED', 'RATE_LIMIT']);
  });

  it('counts per minute: the window moves on, and resume/ starts a new one', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'], circuit_breaker: { max_requests_per_minute: 3 } });
    for (let i = 0; i < 3; i++) expectStatus(await agent('GET', 'roles/', token), 200);
    t.clock.advance(60);
    for (let i = 0; i < 3; i++) expectStatus(await agent('GET', 'roles/', token), 200);
    const refused = expectError(await agent('GET', 'roles/', token), 403, 'AGENT_TOKEN_SUSPENDED');
    assert.equal(refused.reason, 'RATE_LIMIT');
    // Suspended stays suspended when the window moves on.
    t.clock.advance(120);
    expectError(await agent('GET', 'roles/', token), 403, 'AGENT_TOKEN_SUSPENDED');
    expectStatus(await userApi(t)('POST', `ai/tokens/${id}/resume/`, alice), 200);
    expectStatus(await agent('GET', 'roles/', token), 200);
  });

  it('suspends for ANOMALY at the threshold of consecutive denials; the request that trips it is refused', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'], circuit_breaker: { max_failed_requests: 3 } });
    for (let i = 0; i < 3; i++) expectError(await agent('GET', 'admin/users/', token), 403, 'AGENT_PERMISSION_DENIED');
    const refused = expectError(await agent('GET', 'roles/', token), 403, 'AGENT_TOKEN_SUSPENDED');
    assert.equal(refused.reason, 'ANOMALY');
    assert.deepEqual([(await tokenRow(id)).status, (await tokenRow(id)).failed_count], ['SUSPENDED', 3]);
  });

  it('counts only consecutive denials: an allowed request starts the count again', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'], circuit_breaker: { max_failed_requests: 3 } });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2; i++) expectError(await agent('GET', 'admin/users/', token), 403, 'AGENT_PERMISSION_DENIED');
      expectStatus(await agent('GET', 'me/', token), 200);
    }
    assert.deepEqual([(await tokenRow(id)).status, (await tokenRow(id)).failed_count], ['ACTIVE', 0]);
    // Closed routes count as denials too.
    for (let i = 0; i < 3; i++) expectError(await agent('PATCH', 'me/', token, { first_name: 'x' }), 403, 'AGENT_NOT_ALLOWED');
    expectError(await agent('GET', 'me/', token), 403, 'AGENT_TOKEN_SUSPENDED');
  });

  it('parallel denials suspend the token once, at the threshold', async () => {
    const { id, token } = await delegate(t, alice, { permissions: ['roles.view'], circuit_breaker: { max_failed_requests: 5 } });
    const answers = await Promise.all(Array.from({ length: 12 }, () => agent('GET', 'admin/users/', token)));
    const denied = answers.filter((r) => r.json().code === 'AGENT_PERMISSION_DENIED').length;
    const suspended = answers.filter((r) => r.json().code === 'AGENT_TOKEN_SUSPENDED').length;
    assert.equal(denied + suspended, 12);
    assert.ok(denied >= 5, `denied ${denied}`);
    assert.deepEqual([(await tokenRow(id)).status, (await tokenRow(id)).suspended_reason], ['SUSPENDED', 'ANOMALY']);
    assert.equal((await suspendedEvents()).length, 1);
  });

  it('a refused request runs nothing', async () => {
    const bob = await account(t, { email: 'bob@example.com' });
    await grantDirect(t, alice.id, ['users.manage']);
    const { token } = await delegate(t, alice, { permissions: ['roles.view', 'users.manage'], circuit_breaker: { max_requests_total: 1 } });
    expectStatus(await agent('GET', 'roles/', token), 200);
    expectError(await agent('POST', `admin/users/${bob.id}/lock/`, token, { duration_minutes: 10 }), 403, 'AGENT_TOKEN_SUSPENDED');
    const row = await t.container.db.selectFrom('users').select('locked_until').where('id', '=', bob.id).executeTakeFirstOrThrow();
    assert.equal(row.locked_until, null);
  });
});
