import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { useTestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account,
  type CreatedToken } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

interface Child extends CreatedToken { parent_id: number; depth: number; can_delegate: boolean; chain: { id: number; agent_id: string }[] }

// docs/agents.md "Delegation": a token with can_delegate hands narrower children to sub-agents; the chain holds on every
// request (grants intersected, counts on every ancestor, an ancestor's state reaching every descendant).
describe('delegation chains (docs/agents.md "Delegation")', () => {
  const t = useTestApp({ now: NOW, env: AGENT_ENV });
  // A second instance on the same database (docs/deployment.md "Several instances").
  const other = useTestApp({ now: NOW, env: AGENT_ENV, reset: false });
  let alice: Account;
  const agent = agentApi(t);
  const user = userApi(t);
  beforeEach(async () => {
    alice = await account(t, { email: `alice${Math.random().toString(36).slice(2, 8)}@example.com` });
    await grantDirect(t, alice.id, ['users.view', 'roles.view', 'roles.manage']);
  });

  /** POST ai/tokens/<id>/delegate/ with the parent's AgentBearer. */
  const delegateFrom = (parent: { id: number; token: string }, body: Record<string, unknown>, id = parent.id) =>
    agent('POST', `ai/tokens/${id}/delegate/`, parent.token, { agent_id: 'sub-agent', ...body });
  const child = async (parent: { id: number; token: string }, body: Record<string, unknown> = {}) =>
    expectStatus(await delegateFrom(parent, body), 201) as Child;
  const row = (id: number) => t.container.db.selectFrom('agent_tokens')
    .select(['status', 'suspended_reason', 'request_count', 'spend_usd', 'failed_count']).where('id', '=', id).executeTakeFirstOrThrow();
  const authorize = (token: string, permission: string) =>
    t.api({ method: 'POST', path: 'ai/authorize/', payload: { permission }, headers: { authorization: `AgentBearer ${token}` } }) as
      Promise<LightMyRequestResponse>;
  /** A planner (depth 1, can_delegate) with three permissions. */
  const planner = (body: Record<string, unknown> = {}) => delegate(t, alice, { agent_id: 'planner', can_delegate: true,
    permissions: ['users.view', 'roles.view', 'roles.manage'], expires_in: 7200, ...body });

  it('creates a narrower child: 201 with its token, parent, depth, chain; listed with the person\'s tokens', async () => {
    const root = await planner();
    const c = await child(root, { permissions: ['users.view'], agent_id: 'researcher' });
    assert.match(c.token, /^gha_/);
    assert.deepEqual([c.parent_id, c.depth, c.can_delegate, c.granted_permissions, c.organization], [root.id, 2, false, ['users.view'], null]);
    assert.deepEqual(c.chain, [{ id: root.id, agent_id: 'planner' }, { id: c.id, agent_id: 'researcher' }]);
    // Without expires_in: an hour, within the parent's two.
    assert.equal(new Date(c.expires_at).getTime() - NOW.getTime(), 3600_000);
    const list = expectStatus(await user('GET', 'ai/tokens/', alice), 200);
    const listed = list.results.find((r: { id: number }) => r.id === c.id);
    assert.deepEqual([listed.parent_id, listed.depth, listed.chain.length], [root.id, 2, 2]);
    const detail = expectStatus(await user('GET', `ai/tokens/${root.id}/`, alice), 200);
    assert.deepEqual([detail.parent_id, detail.depth, detail.can_delegate, detail.chain], [null, 1, true, [{ id: root.id, agent_id: 'planner' }]]);
    // The delegation was a request of the parent.
    assert.equal((await row(root.id)).request_count, 1);
    // The child works: the double check, and the chain in the answer.
    const allowed = expectStatus(await authorize(c.token, 'users.view'), 200);
    assert.deepEqual(allowed.chain, c.chain);
    assert.deepEqual(allowed.granted_permissions, ['users.view']);
  });

  it('refuses what would widen anything, creating nothing, and counts each refusal as the parent\'s denial', async () => {
    const root = await planner({ budget_limit_usd: 10 });
    const before = await t.container.db.selectFrom('agent_tokens').select('id').execute();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ permissions: ['users.manage'] }, 403, 'AGENT_PERMISSION_DENIED'], // not the parent's
      [{ permissions: ['users.view'], expires_in: 7201, budget_limit_usd: 1 }, 403, 'AGENT_PERMISSION_DENIED'], // outlives it
      [{ permissions: ['users.view'] }, 403, 'AGENT_PERMISSION_DENIED'], // no budget under a budgeted parent
      [{ permissions: ['users.view'], budget_limit_usd: 10.00000001 }, 403, 'AGENT_PERMISSION_DENIED'], // more than it has
      [{ permissions: ['users.view'], budget_limit_usd: 1, organization: 'acme' }, 403, 'AGENT_PERMISSION_DENIED'], // another organization
    ];
    for (const [body, status, code] of cases) expectError(await delegateFrom(root, body), status, code);
    assert.equal((await t.container.db.selectFrom('agent_tokens').select('id').execute()).length, before.length);
    assert.equal((await row(root.id)).failed_count, cases.length);
    // The person no longer holding a permission: the parent cannot give it either.
    await t.container.db.deleteFrom('user_permissions').where('user_id', '=', alice.id).execute();
    await grantDirect(t, alice.id, ['users.view']);
    expectError(await delegateFrom(root, { permissions: ['roles.view'], budget_limit_usd: 1 }), 403, 'AGENT_PERMISSION_DENIED');
    expectStatus(await delegateFrom(root, { permissions: ['users.view'], budget_limit_usd: 10 }), 201);
  });

  it('refuses a token without can_delegate, another token\'s path, a user bearer, and past the depth limit', async () => {
    const plain = await delegate(t, alice, { permissions: ['users.view'] });
    expectError(await delegateFrom(plain, {}), 403, 'AGENT_PERMISSION_DENIED');
    const root = await planner();
    expectError(await delegateFrom(root, {}, plain.id), 403, 'AGENT_TOKEN_MISMATCH');
    expectError(await user('POST', `ai/tokens/${root.id}/delegate/`, alice, { agent_id: 'x' }), 401, 'AGENT_TOKEN_INVALID');
    const second = await child(root, { can_delegate: true, permissions: ['users.view'] });
    const third = await child(second, { can_delegate: true, permissions: ['users.view'] });
    assert.deepEqual(third.chain.map((l) => l.id), [root.id, second.id, third.id]);
    const body = expectError(await delegateFrom(third, { permissions: ['users.view'] }), 403, 'DELEGATION_DEPTH_EXCEEDED');
    assert.deepEqual(body.details, { max_depth: 3 });
    // A child without can_delegate cannot delegate either.
    const leaf = await child(root, { permissions: ['users.view'] });
    expectError(await delegateFrom(leaf, {}), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('checks a child against every ancestor\'s grant now, and counts its requests on every ancestor', async () => {
    const root = await planner();
    const mid = await child(root, { can_delegate: true, permissions: ['users.view', 'roles.view'] });
    const leaf = await child(mid, { permissions: ['users.view', 'roles.view'] });
    expectStatus(await authorize(leaf.token, 'roles.view'), 200);
    // The root narrowed by its person: the grandchild loses it at once.
    expectStatus(await user('PUT', `ai/tokens/${root.id}/`, alice, { permissions: ['users.view'] }), 200);
    expectError(await authorize(leaf.token, 'roles.view'), 403, 'AGENT_PERMISSION_DENIED');
    expectStatus(await authorize(leaf.token, 'users.view'), 200);
    // root: its delegation + 3 of the leaf's (incl. the denial) + the middle's delegation; mid: its delegation + 3.
    assert.deepEqual([(await row(root.id)).request_count, (await row(mid.id)).request_count, (await row(leaf.id)).request_count], [5, 4, 3]);
  });

  it('stops every descendant when an ancestor is suspended, and resumes exactly those it stopped', async () => {
    const root = await planner();
    const mid = await child(root, { can_delegate: true, permissions: ['users.view'] });
    const leaf = await child(mid, { permissions: ['users.view'] });
    const own = await child(root, { permissions: ['users.view'] });
    expectStatus(await user('POST', `ai/tokens/${own.id}/suspend/`, alice, {}), 200);
    expectStatus(await user('POST', `ai/tokens/${root.id}/suspend/`, alice, {}), 200);
    for (const id of [mid.id, leaf.id]) assert.deepEqual(await row(id), { ...(await row(id)), status: 'SUSPENDED', suspended_reason: 'PARENT_SUSPENDED' });
    assert.equal((await row(own.id)).suspended_reason, 'MANUAL');
    const refused = expectError(await authorize(leaf.token, 'users.view'), 403, 'AGENT_TOKEN_SUSPENDED');
    assert.equal(refused.reason, 'PARENT_SUSPENDED');
    // A descendant cannot be resumed past its suspended ancestor.
    expectError(await user('POST', `ai/tokens/${leaf.id}/resume/`, alice, {}), 400, 'VALIDATION_ERROR');
    expectStatus(await user('POST', `ai/tokens/${root.id}/resume/`, alice, {}), 200);
    assert.deepEqual([(await row(mid.id)).status, (await row(leaf.id)).status, (await row(own.id)).status], ['ACTIVE', 'ACTIVE', 'SUSPENDED']);
    expectStatus(await authorize(leaf.token, 'users.view'), 200);
  });

  it('trips an ancestor\'s breaker with its descendants\' traffic, holding them with it', async () => {
    const root = await planner({ circuit_breaker: { max_requests_per_minute: 3 } });
    const leaf = await child(root, { permissions: ['users.view'] });
    expectStatus(await authorize(leaf.token, 'users.view'), 200);
    expectStatus(await authorize(leaf.token, 'users.view'), 200);
    // The root's minute now holds its delegation and two of the leaf's requests: the next one is over it.
    const refused = expectError(await authorize(leaf.token, 'users.view'), 403, 'AGENT_TOKEN_SUSPENDED');
    assert.equal(refused.reason, 'PARENT_SUSPENDED');
    assert.deepEqual([(await row(root.id)).status, (await row(root.id)).suspended_reason], ['SUSPENDED', 'RATE_LIMIT']);
  });

  it('revokes every descendant with an ancestor, and revoke-all includes the children', async () => {
    const root = await planner();
    const mid = await child(root, { can_delegate: true, permissions: ['users.view'] });
    const leaf = await child(mid, { permissions: ['users.view'] });
    expectStatus(await user('POST', `ai/tokens/${mid.id}/revoke/`, alice, {}), 200);
    assert.equal((await row(leaf.id)).status, 'REVOKED');
    expectError(await authorize(leaf.token, 'users.view'), 401, 'AGENT_TOKEN_REVOKED');
    expectError(await delegateFrom(mid, {}), 401, 'AGENT_TOKEN_REVOKED');
    const other = await child(root, { permissions: ['users.view'] });
    const all = expectStatus(await user('POST', 'ai/tokens/revoke-all/', alice, {}), 200);
    assert.equal(all.count, 2);
    assert.equal((await row(other.id)).status, 'REVOKED');
  });

  it('counts a child\'s spend on its ancestors and keeps what the parent reserved for its children', async () => {
    const root = await planner({ budget_limit_usd: 10 });
    const a = await child(root, { permissions: ['users.view'], budget_limit_usd: 6 });
    // 10 − 6 reserved by a: at most 4 for another child.
    expectError(await delegateFrom(root, { permissions: ['users.view'], budget_limit_usd: 4.5 }), 403, 'AGENT_PERMISSION_DENIED');
    expectStatus(await agent('POST', `ai/tokens/${a.id}/report-usage/`, a.token, { cost_usd: 2.5 }), 200);
    assert.deepEqual([(await row(root.id)).spend_usd, (await row(a.id)).spend_usd], ['2.50000000', '2.50000000']);
    // a's spend is within its reservation: still 4 left to give.
    const b = await child(root, { permissions: ['users.view'], budget_limit_usd: 4 });
    expectError(await delegateFrom(root, { permissions: ['users.view'], budget_limit_usd: 0.01 }), 403, 'AGENT_PERMISSION_DENIED');
    // b ends: its reservation is released.
    expectStatus(await user('POST', `ai/tokens/${b.id}/revoke/`, alice, {}), 200);
    expectStatus(await delegateFrom(root, { permissions: ['users.view'], budget_limit_usd: 4 }), 201);
    // A child raising its budget is refused; lowering it is fine.
    expectError(await user('PUT', `ai/tokens/${a.id}/`, alice, { budget_limit_usd: 7 }), 400, 'VALIDATION_ERROR');
    expectStatus(await user('PUT', `ai/tokens/${a.id}/`, alice, { budget_limit_usd: 5 }), 200);
  });

  it('never over-commits the parent\'s budget under parallel delegations', async () => {
    const root = await planner({ budget_limit_usd: 10, circuit_breaker: { max_requests_per_minute: 1000 } });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      delegateFrom(root, { agent_id: `worker-${i}`, permissions: ['users.view'], budget_limit_usd: 3 })));
    const created = answers.filter((r) => r.statusCode === 201);
    assert.equal(created.length, 3, answers.map((r) => r.statusCode).join(','));
    for (const r of answers.filter((x) => x.statusCode !== 201)) expectError(r, 403, 'AGENT_PERMISSION_DENIED');
    const reserved = await t.container.db.selectFrom('agent_tokens').select((eb) => eb.fn.sum<string>('budget_limit_usd').as('sum'))
      .where('parent_id', '=', root.id).executeTakeFirstOrThrow();
    assert.equal(Number(reserved.sum), 9);
  });

  it('lets the person clear can_delegate, never set it', async () => {
    const root = await planner();
    expectError(await user('PUT', `ai/tokens/${root.id}/`, alice, { can_delegate: true }), 400, 'VALIDATION_ERROR');
    expectStatus(await user('PUT', `ai/tokens/${root.id}/`, alice, { can_delegate: false }), 200);
    expectError(await delegateFrom(root, {}), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('stops a child on another instance the moment its parent is revoked or suspended', async () => {
    const root = await planner();
    const leaf = await child(root, { permissions: ['users.view'] });
    const onOther = (token: string) => other.api({ method: 'POST', path: 'ai/authorize/', payload: { permission: 'users.view' },
      headers: { authorization: `AgentBearer ${token}` } }) as Promise<LightMyRequestResponse>;
    other.clock.set(t.clock.now());
    expectStatus(await onOther(leaf.token), 200);
    expectStatus(await user('POST', `ai/tokens/${root.id}/suspend/`, alice, {}), 200);
    assert.equal(expectError(await onOther(leaf.token), 403, 'AGENT_TOKEN_SUSPENDED').reason, 'PARENT_SUSPENDED');
    expectStatus(await user('POST', `ai/tokens/${root.id}/revoke/`, alice, {}), 200);
    expectError(await onOther(leaf.token), 401, 'AGENT_TOKEN_REVOKED');
  });

  it('leaves no live child of a revoked parent, whichever of a delegation and the revocation comes first', async () => {
    for (let round = 0; round < 5; round++) {
      const root = await planner({ circuit_breaker: { max_requests_per_minute: 1000 } });
      await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => delegateFrom(root, { agent_id: `racer-${i}`, permissions: ['users.view'] })),
        user('POST', `ai/tokens/${root.id}/revoke/`, alice, {}),
      ]);
      const live = await t.container.db.selectFrom('agent_tokens').select('id').where('parent_id', '=', root.id)
        .where('status', 'in', ['ACTIVE', 'SUSPENDED']).execute();
      assert.deepEqual(live, [], `round ${round}`);
    }
  });

  it('never lets parallel requests of several children go past an ancestor\'s rate', async () => {
    const root = await planner({ circuit_breaker: { max_requests_per_minute: 6 } });
    const kids = [await child(root, { permissions: ['users.view'] }), await child(root, { permissions: ['users.view'] })];
    // The root's minute holds its two delegations: four requests are left in it, whichever child makes them.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => authorize(kids[i % 2]!.token, 'users.view')));
    assert.equal(answers.filter((r) => r.statusCode === 200).length, 4, answers.map((r) => r.statusCode).join(','));
    assert.equal((await row(root.id)).request_count, 6);
  });
});
