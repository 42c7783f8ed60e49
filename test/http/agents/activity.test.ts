import assert from 'node:assert/strict';
import { afterEach, before, beforeEach, describe, it } from 'node:test';
import { createTrailWriter, type ActivityEntry } from '../../../src/modules/agents/trail-writer.js';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { account, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

// Routine audit events are off here: agent_action rows are the agent's trail and are written all the same.
describe('agent activity (agent_action audit rows)', () => {
  const t = useTestApp({ now: NOW, env: { SVC_AUDIT_LOGGING_ENABLED: 'false' } });
  let alice: Account;
  let bob: Account;
  let prefix: string;
  before(() => { prefix = t.container.config.API_PREFIX; });
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    bob = await account(t, { email: 'bob@example.com' });
    await grantDirect(t, alice.id, ['roles.view', 'users.view']);
  });
  afterEach(async () => { await t.container.services.agentActivity.flush(); });

  const activity = async (who: Account, id: number, query = '') =>
    expectStatus(await userApi(t)('GET', `ai/tokens/${id}/activity/${query}`, who), 200);

  it('records every request, allowed or refused, with the route\'s permission, the decision and the status', async () => {
    const agent = await delegate(t, alice, { permissions: ['roles.view'] });
    const trace = { 'x-prompt-trace-id': 'run-1:step.2' };
    expectStatus(await agentApi(t)('GET', 'roles/?page=1', agent.token, undefined, trace), 200);
    t.clock.advance(1);
    expectError(await agentApi(t)('GET', 'admin/users/', agent.token), 403, 'AGENT_PERMISSION_DENIED');
    t.clock.advance(1);
    expectError(await agentApi(t)('PATCH', 'me/', agent.token, { first_name: 'x' }, { 'x-prompt-trace-id': 'not a valid id!' }), 403, 'AGENT_NOT_ALLOWED');
    t.clock.advance(1);
    expectStatus(await agentApi(t)('POST', `ai/tokens/${agent.id}/heartbeat/`, agent.token, undefined, trace), 200);

    const body = await activity(alice, agent.id);
    assert.equal(body.count, 4);
    const rows = body.results.map(({ id: _id, seq: _s, prev_hash: _p, hash: _h, ...rest }: Record<string, unknown>) => rest);
    // Each row has its place in the token's trail, after the token's creation (seq 1): test/http/agents/trail.test.ts.
    assert.deepEqual(body.results.map((r: { seq: number }) => r.seq), [5, 4, 3, 2]);
    for (const [i, r] of body.results.slice(0, -1).entries()) assert.equal(r.prev_hash, body.results[i + 1].hash);
    // see: #30 — each row names the token and its agent (docs/agents.md "Trace and activity").
    const by = { token_id: agent.id, agent_id: 'assistant' };
    assert.deepEqual(rows, [
      { ...by, method: 'POST', path: `${prefix}ai/tokens/${agent.id}/heartbeat/`, permission: null, decision: 'allow', status: 200,
        prompt_trace_id: 'run-1:step.2', created_at: '2025-03-01T10:00:03.000Z' },
      { ...by, method: 'PATCH', path: `${prefix}me/`, permission: null, decision: 'deny', status: 403, prompt_trace_id: null,
        created_at: '2025-03-01T10:00:02.000Z' },
      { ...by, method: 'GET', path: `${prefix}admin/users/`, permission: 'users.view', decision: 'deny', status: 403, prompt_trace_id: null,
        created_at: '2025-03-01T10:00:01.000Z' },
      { ...by, method: 'GET', path: `${prefix}roles/`, permission: 'roles.view', decision: 'allow', status: 200, prompt_trace_id: 'run-1:step.2',
        created_at: '2025-03-01T10:00:00.000Z' },
    ]);

    const stored = await t.container.db.selectFrom('audit_events')
      .select(['event_type', 'severity', 'user_id', 'agent_token_id', 'trace_id', 'details', 'application_id'])
      .where('event_type', '=', 'agent_action').orderBy('id').executeTakeFirstOrThrow();
    assert.deepEqual(stored, {
      event_type: 'agent_action', severity: 'info', user_id: alice.id, agent_token_id: agent.id, trace_id: 'run-1:step.2',
      application_id: t.credentials.id,
      details: { token_id: agent.id, agent_id: 'assistant', method: 'GET', path: `${prefix}roles/`, permission: 'roles.view',
        decision: 'allow', status: 200, prompt_trace_id: 'run-1:step.2' },
    });
  });

  it('records the requests refused at authentication when the token is known: suspended, revoked, expired', async () => {
    const agent = await delegate(t, alice, { expires_in: 600 });
    expectStatus(await userApi(t)('POST', `ai/tokens/${agent.id}/suspend/`, alice), 200);
    expectError(await agentApi(t)('GET', 'me/', agent.token, undefined, { 'x-prompt-trace-id': 't-1' }), 403, 'AGENT_TOKEN_SUSPENDED');
    expectStatus(await userApi(t)('POST', `ai/tokens/${agent.id}/revoke/`, alice), 200);
    expectError(await agentApi(t)('GET', 'me/', agent.token), 401, 'AGENT_TOKEN_REVOKED');
    expectError(await agentApi(t)('POST', `ai/tokens/${agent.id}/heartbeat/`, agent.token), 401, 'AGENT_TOKEN_REVOKED');
    const expiring = await delegate(t, alice, { expires_in: 60 });
    t.clock.advance(60);
    expectError(await agentApi(t)('GET', 'me/', expiring.token), 401, 'AGENT_TOKEN_EXPIRED');
    // An unknown token names nobody: nothing to record.
    expectError(await agentApi(t)('GET', 'me/', `gha_${'x'.repeat(43)}`), 401, 'AGENT_TOKEN_INVALID');

    const refused = (await activity(alice, agent.id)).results.map((r: Record<string, unknown>) => [r.path, r.decision, r.status, r.prompt_trace_id]);
    assert.deepEqual(refused, [
      [`${prefix}ai/tokens/${agent.id}/heartbeat/`, 'deny', 401, null],
      [`${prefix}me/`, 'deny', 401, null],
      [`${prefix}me/`, 'deny', 403, 't-1'],
    ]);
    assert.deepEqual((await activity(alice, expiring.id)).results.map((r: Record<string, unknown>) => [r.decision, r.status]), [['deny', 401]]);
    const total = await t.container.db.selectFrom('audit_events').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('event_type', '=', 'agent_action').executeTakeFirstOrThrow();
    assert.equal(Number(total.n), 4);
  });

  it('lists the owner\'s token only (another user\'s: 404), is closed to agents, pages and filters by prompt_trace_id', async () => {
    const agent = await delegate(t, alice, { permissions: ['roles.view'] });
    for (const trace of ['a', 'b', 'a', 'c', 'a']) {
      expectStatus(await agentApi(t)('GET', 'me/', agent.token, undefined, { 'x-prompt-trace-id': trace }), 200);
      t.clock.advance(1);
    }
    expectError(await userApi(t)('GET', `ai/tokens/${agent.id}/activity/`, bob), 404, 'NOT_FOUND');
    expectError(await userApi(t)('GET', 'ai/tokens/999999/activity/', alice), 404, 'NOT_FOUND');
    expectError(await agentApi(t)('GET', `ai/tokens/${agent.id}/activity/`, agent.token), 403, 'AGENT_NOT_ALLOWED');

    const filtered = await activity(alice, agent.id, '?prompt_trace_id=a&page_size=2');
    assert.equal(filtered.count, 3);
    assert.equal(filtered.total_pages, 2);
    assert.ok(filtered.results.every((r: { prompt_trace_id: string }) => r.prompt_trace_id === 'a'));
    assert.match(filtered.next, /prompt_trace_id=a/);
    const page2 = expectStatus(await userApi(t)('GET', filtered.next.slice(prefix.length), alice), 200);
    assert.equal(page2.results.length, 1);
    assert.equal(page2.results[0].created_at, '2025-03-01T10:00:00.000Z');
    // The agent's own call to the activity route (refused) is part of its trail too.
    assert.equal((await activity(alice, agent.id)).count, 6);
    const bad = expectError(await userApi(t)('GET', `ai/tokens/${agent.id}/activity/?prompt_trace_id=${encodeURIComponent('a b')}`, alice), 400, 'VALIDATION_ERROR');
    assert.ok(bad.details.prompt_trace_id);
  });

  it('names on each row the agent_id the token had when it made the request', async () => {
    const agent = await delegate(t, alice, { agent_id: 'planner' });
    expectStatus(await agentApi(t)('GET', 'me/', agent.token), 200);
    t.clock.advance(1);
    expectStatus(await userApi(t)('PUT', `ai/tokens/${agent.id}/`, alice, { agent_id: 'planner-v2' }), 200);
    expectStatus(await agentApi(t)('GET', 'me/', agent.token), 200);
    const rows = (await activity(alice, agent.id)).results.map((r: Record<string, unknown>) => [r.token_id, r.agent_id]);
    assert.deepEqual(rows, [[agent.id, 'planner-v2'], [agent.id, 'planner']]);
  });

  it('admin/audit-logs/ filters by prompt_trace_id and shows it on the row', async () => {
    const auditor = await account(t, { email: 'auditor@example.com' });
    await grantDirect(t, auditor.id, ['audit.view']);
    const agent = await delegate(t, alice);
    expectStatus(await agentApi(t)('GET', 'me/', agent.token, undefined, { 'x-prompt-trace-id': 'trace-42' }), 200);
    expectStatus(await agentApi(t)('GET', 'me/', agent.token, undefined, { 'x-prompt-trace-id': 'trace-43' }), 200);
    const body = expectStatus(await userApi(t)('GET', 'admin/audit-logs/?prompt_trace_id=trace-42', auditor), 200);
    assert.equal(body.count, 1);
    const [row] = body.results;
    assert.equal(row.event_type, 'agent_action');
    assert.equal(row.prompt_trace_id, 'trace-42');
    assert.equal(row.user, alice.id);
    assert.equal(row.details.prompt_trace_id, 'trace-42');
    expectError(await userApi(t)('GET', 'admin/audit-logs/?prompt_trace_id=%3Cx%3E', auditor), 400, 'VALIDATION_ERROR');
  });
});

describe('the agent action writer', () => {
  const t = useTestApp({ now: NOW });

  // Rows of tokens that do not exist: written as audit rows, in no trail (test/http/agents/trail.test.ts has the trail).
  const row = (n: number, createdAt = NOW): ActivityEntry => ({
    audit: { event_type: 'agent_action', severity: 'info', user_id: null, actor_id: null, application_id: null, ip_address: null,
      user_agent: null, request_id: null, trace_id: `t-${n}`, agent_token_id: n, details: JSON.stringify({ n }), created_at: createdAt },
    tokenId: n, root: null, data: { n },
  });
  const written = async () => (await t.container.db.selectFrom('audit_events').select(['agent_token_id', 'trace_id', 'details', 'severity'])
    .where('event_type', '=', 'agent_action').orderBy('agent_token_id').execute());

  it('writes every queued row, in batches, and flush() waits for all of it', async () => {
    const writer = createTrailWriter({ db: t.container.db, onError: (m) => assert.fail(m) });
    for (let i = 1; i <= 1201; i++) writer.enqueue(row(i));
    await writer.flush();
    const rows = await written();
    assert.equal(rows.length, 1201);
    assert.deepEqual(rows[1200], { agent_token_id: 1201, trace_id: 't-1201', details: { n: 1201 }, severity: 'info' });
    await writer.flush();
  });

  it('reports a batch the database refuses and carries on with the next', async () => {
    const errors: string[] = [];
    const writer = createTrailWriter({ db: t.container.db, onError: (m) => errors.push(m) });
    writer.enqueue(row(1, new Date('not a time')));
    await writer.flush();
    writer.enqueue(row(2));
    await writer.flush();
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /^agent activity: 1 audit rows not written \(/);
    assert.deepEqual((await written()).map((r) => r.agent_token_id), [2]);
  });

  it('is flushed when the server closes', async () => {
    const app = await createTestApp({ now: NOW });
    const service = app.container.services.agentActivity;
    const flush = service.flush;
    let flushedOnClose = false;
    service.flush = async () => { flushedOnClose = true; await flush(); };
    await app.close();
    assert.ok(flushedOnClose);
  });
});
