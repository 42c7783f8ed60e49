import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('agent tokens', () => {
  let t: TestApp;
  let alice: Account;
  let bob: Account;
  before(async () => { t = await createTestApp({ now: NOW, env: AGENT_ENV }); });
  after(async () => { await t.close(); });
  beforeEach(async () => {
    await t.reset();
    t.clock.set(NOW);
    alice = await account(t, { email: 'alice@example.com' });
    bob = await account(t, { email: 'bob@example.com' });
    await grantDirect(t, alice.id, ['roles.view', 'users.view']);
  });

  it('smoke: create, call roles/ as the agent, list', async () => {
    const created = await delegate(t, alice, { permissions: ['roles.view'] });
    assert.match(created.token, /^gha_[A-Za-z0-9_-]{43}$/);
    expectStatus(await agentApi(t)('GET', 'roles/', created.token), 200);
    expectError(await agentApi(t)('GET', 'admin/users/', created.token), 403, 'AGENT_PERMISSION_DENIED');
    expectError(await agentApi(t)('PATCH', 'me/', created.token, { first_name: 'x' }), 403, 'AGENT_NOT_ALLOWED');
    expectStatus(await agentApi(t)('GET', 'me/', created.token), 200);
    const list = expectStatus(await userApi(t)('GET', 'ai/tokens/', alice), 200);
    assert.equal(list.results[0].request_count, 4);
    assert.equal(list.results[0].failed_count, 0);
    expectError(await userApi(t)('GET', `ai/tokens/${created.id}/`, bob), 404, 'NOT_FOUND');
  });
});
