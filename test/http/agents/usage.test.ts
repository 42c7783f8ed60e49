import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { auditEvents } from '../../helpers/audit.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('agent heartbeat/ and report-usage/', () => {
  const t = useTestApp({ now: NOW, env: AGENT_ENV });
  let alice: Account;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['roles.view']);
  });
  // Agent requests leave audit rows written after the answer: let them land before the next test empties the tables.
  afterEach(async () => { await t.container.services.agentActivity.flush(); });

  const tokenRow = (id: number) => t.container.db.selectFrom('agent_tokens')
    .select(['status', 'suspended_reason', 'spend_usd', 'prompt_tokens', 'completion_tokens', 'request_count', 'failed_count', 'last_heartbeat_at'])
    .where('id', '=', id).executeTakeFirstOrThrow();
  const report = (id: number, token: string, body: unknown) => agentApi(t)('POST', `ai/tokens/${id}/report-usage/`, token, body);
  const heartbeat = (id: number, token: string) => agentApi(t)('POST', `ai/tokens/${id}/heartbeat/`, token);

  describe('authentication', () => {
    it('heartbeat/ answers {status: "ok", last_heartbeat_at} and is not counted as a request', async () => {
      const agent = await delegate(t, alice);
      t.clock.advance(5);
      assert.deepEqual(expectStatus(await heartbeat(agent.id, agent.token), 200),
        { status: 'ok', last_heartbeat_at: '2025-03-01T10:00:05.000Z' });
      const row = await tokenRow(agent.id);
      assert.equal(row.request_count, 0);
      assert.equal(row.last_heartbeat_at?.toISOString(), '2025-03-01T10:00:05.000Z');
      const record = expectStatus(await userApi(t)('GET', `ai/tokens/${agent.id}/`, alice), 200);
      assert.equal(record.last_heartbeat_at, '2025-03-01T10:00:05.000Z');
    });

    it('refuses another token (403 AGENT_TOKEN_MISMATCH), a user bearer and no credentials (401)', async () => {
      const mine = await delegate(t, alice);
      const other = await delegate(t, alice, { agent_id: 'other' });
      expectError(await heartbeat(other.id, mine.token), 403, 'AGENT_TOKEN_MISMATCH');
      expectError(await report(other.id, mine.token, { cost_usd: 1 }), 403, 'AGENT_TOKEN_MISMATCH');
      expectError(await heartbeat(999_999, mine.token), 403, 'AGENT_TOKEN_MISMATCH');
      assert.equal((await tokenRow(other.id)).spend_usd, '0.00000000');
      expectError(await userApi(t)('POST', `ai/tokens/${mine.id}/heartbeat/`, alice), 401, 'AGENT_TOKEN_INVALID');
      expectError(await userApi(t)('POST', `ai/tokens/${mine.id}/report-usage/`, alice, { cost_usd: 1 }), 401, 'AGENT_TOKEN_INVALID');
      expectError(await t.api({ method: 'POST', path: `ai/tokens/${mine.id}/heartbeat/` }), 401, 'UNAUTHORIZED');
      expectError(await heartbeat(mine.id, `gha_${'x'.repeat(43)}`), 401, 'AGENT_TOKEN_INVALID');
    });

    it('refuses a revoked token (401 AGENT_TOKEN_REVOKED) and an expired one (401 AGENT_TOKEN_EXPIRED, marked EXPIRED)', async () => {
      const revoked = await delegate(t, alice);
      expectStatus(await userApi(t)('POST', `ai/tokens/${revoked.id}/revoke/`, alice), 200);
      expectError(await heartbeat(revoked.id, revoked.token), 401, 'AGENT_TOKEN_REVOKED');
      expectError(await report(revoked.id, revoked.token, { cost_usd: 1 }), 401, 'AGENT_TOKEN_REVOKED');
      assert.equal((await tokenRow(revoked.id)).spend_usd, '0.00000000');

      const expiring = await delegate(t, alice, { expires_in: 60 });
      t.clock.advance(60);
      expectError(await report(expiring.id, expiring.token, { cost_usd: 1 }), 401, 'AGENT_TOKEN_EXPIRED');
      const row = await tokenRow(expiring.id);
      assert.equal(row.status, 'EXPIRED');
      assert.equal(row.spend_usd, '0.00000000');
      expectError(await heartbeat(expiring.id, expiring.token), 401, 'AGENT_TOKEN_EXPIRED');
    });

    it('a suspended token may report usage (recorded) but not beat (403 AGENT_TOKEN_SUSPENDED with reason)', async () => {
      const agent = await delegate(t, alice);
      expectStatus(await userApi(t)('POST', `ai/tokens/${agent.id}/suspend/`, alice), 200);
      const beat = expectError(await heartbeat(agent.id, agent.token), 403, 'AGENT_TOKEN_SUSPENDED');
      assert.equal(beat.reason, 'MANUAL');
      assert.deepEqual(expectStatus(await report(agent.id, agent.token, { cost_usd: 0.25 }), 200),
        { status: 'ok', spend_usd: 0.25, budget_limit_usd: null, remaining_usd: null });
      assert.equal((await tokenRow(agent.id)).status, 'SUSPENDED');
    });

    it('neither counts the calls nor holds them to the breakers, and leaves a run of denials as it was', async () => {
      const agent = await delegate(t, alice, { circuit_breaker: { max_requests_total: 2 } });
      expectStatus(await agentApi(t)('GET', 'me/', agent.token), 200);
      expectError(await agentApi(t)('GET', 'admin/users/', agent.token), 403, 'AGENT_PERMISSION_DENIED');
      for (let i = 0; i < 5; i++) {
        expectStatus(await heartbeat(agent.id, agent.token), 200);
        expectStatus(await report(agent.id, agent.token, { cost_usd: 0.01 }), 200);
      }
      const row = await tokenRow(agent.id);
      assert.equal(row.request_count, 2);
      assert.equal(row.failed_count, 1);
      assert.equal(row.status, 'ACTIVE');
    });
  });

  describe('report-usage/', () => {
    it('refuses a negative, non-numeric, infinite or missing cost and fractional or negative token counts (400)', async () => {
      const agent = await delegate(t, alice);
      const bodies: unknown[] = [
        { cost_usd: -0.01 }, { cost_usd: '0.5' }, { cost_usd: 'NaN' }, { cost_usd: null }, {}, { cost_usd: 1, prompt_tokens: 1.5 },
        { cost_usd: 1, completion_tokens: -1 }, { cost_usd: 1, prompt_tokens: '10' }, { cost_usd: 1, extra: true },
      ];
      for (const body of bodies) expectError(await report(agent.id, agent.token, body), 400, 'VALIDATION_ERROR');
      // JSON has no NaN or Infinity, but 1e400 reads as Infinity.
      for (const raw of ['{"cost_usd": 1e400}', '{"cost_usd": NaN}', '{"cost_usd": 1, "prompt_tokens": 1e400}']) {
        const res = await t.api({ method: 'POST', path: `ai/tokens/${agent.id}/report-usage/`, payload: raw,
          headers: { authorization: `AgentBearer ${agent.token}`, 'content-type': 'application/json' } });
        expectError(res, 400, 'VALIDATION_ERROR');
      }
      assert.equal((await tokenRow(agent.id)).spend_usd, '0.00000000');
    });

    it('adds in exact decimals: ten reports of 0.01 make 0.1, and the token counts add up', async () => {
      const agent = await delegate(t, alice, { budget_limit_usd: 1 });
      let last;
      for (let i = 0; i < 10; i++) last = expectStatus(await report(agent.id, agent.token, { cost_usd: 0.01, prompt_tokens: 100, completion_tokens: 7 }), 200);
      assert.deepEqual(last, { status: 'ok', spend_usd: 0.1, budget_limit_usd: 1, remaining_usd: 0.9 });
      const row = await tokenRow(agent.id);
      assert.equal(row.spend_usd, '0.10000000');
      assert.equal(row.prompt_tokens, 1000);
      assert.equal(row.completion_tokens, 70);
      assert.equal(expectStatus(await userApi(t)('GET', `ai/tokens/${agent.id}/`, alice), 200).spend_usd, 0.1);
    });

    it('loses nothing under concurrency: 20 parallel reports of 0.01 make exactly 0.2', async () => {
      const agent = await delegate(t, alice);
      const answers = await Promise.all(Array.from({ length: 20 }, () => report(agent.id, agent.token, { cost_usd: 0.01 })));
      for (const res of answers) expectStatus(res, 200);
      assert.equal((await tokenRow(agent.id)).spend_usd, '0.20000000');
    });

    it('suspends the token for BUDGET_EXCEEDED when a report reaches the budget, and keeps recording and refusing', async () => {
      const agent = await delegate(t, alice, { budget_limit_usd: 1 });
      assert.deepEqual(expectStatus(await report(agent.id, agent.token, { cost_usd: 0.6 }), 200),
        { status: 'ok', spend_usd: 0.6, budget_limit_usd: 1, remaining_usd: 0.4 });
      const reached = expectError(await report(agent.id, agent.token, { cost_usd: 0.4 }), 403, 'BUDGET_EXCEEDED');
      assert.deepEqual(reached, { error: reached.error, code: 'BUDGET_EXCEEDED', status: 'suspended', spend_usd: 1, budget_limit_usd: 1 });
      let row = await tokenRow(agent.id);
      assert.equal(row.status, 'SUSPENDED');
      assert.equal(row.suspended_reason, 'BUDGET_EXCEEDED');
      const events = await auditEvents(t, 'agent_token_suspended');
      assert.equal(events.length, 1);
      assert.deepEqual(events[0]!.details, { token_id: agent.id, agent_id: 'assistant', reason: 'BUDGET_EXCEEDED' });

      // Still recorded (the cost was incurred), still refused while over the budget.
      const again = expectError(await report(agent.id, agent.token, { cost_usd: 0.05 }), 403, 'BUDGET_EXCEEDED');
      assert.equal(again.spend_usd, 1.05);
      row = await tokenRow(agent.id);
      assert.equal(row.spend_usd, '1.05000000');
      assert.equal((await auditEvents(t, 'agent_token_suspended')).length, 1);

      // The breaker stops every other request.
      const refused = expectError(await agentApi(t)('GET', 'me/', agent.token), 403, 'AGENT_TOKEN_SUSPENDED');
      assert.equal(refused.reason, 'BUDGET_EXCEEDED');
    });

    it('answers 200 for a suspended token once its budget is raised above the spend', async () => {
      const agent = await delegate(t, alice, { budget_limit_usd: 0.5 });
      expectError(await report(agent.id, agent.token, { cost_usd: 0.5 }), 403, 'BUDGET_EXCEEDED');
      expectStatus(await userApi(t)('PUT', `ai/tokens/${agent.id}/`, alice, { budget_limit_usd: 2 }), 200);
      assert.deepEqual(expectStatus(await report(agent.id, agent.token, { cost_usd: 0.25 }), 200),
        { status: 'ok', spend_usd: 0.75, budget_limit_usd: 2, remaining_usd: 1.25 });
      assert.equal((await tokenRow(agent.id)).status, 'SUSPENDED');
    });
  });

  describe('the dead man\'s switch', () => {
    it('suspends the token for HEARTBEAT_MISSING when no heartbeat came within the interval', async () => {
      const agent = await delegate(t, alice, { dead_mans_switch: { heartbeat_required_every: 60 } });
      t.clock.advance(61);
      const refused = expectError(await agentApi(t)('GET', 'me/', agent.token), 403, 'AGENT_TOKEN_SUSPENDED');
      assert.equal(refused.reason, 'HEARTBEAT_MISSING');
      assert.equal((await tokenRow(agent.id)).suspended_reason, 'HEARTBEAT_MISSING');
    });

    it('stays active with a heartbeat every 50 s', async () => {
      const agent = await delegate(t, alice, { dead_mans_switch: { heartbeat_required_every: 60 } });
      for (let i = 0; i < 4; i++) {
        t.clock.advance(50);
        expectStatus(await heartbeat(agent.id, agent.token), 200);
        expectStatus(await agentApi(t)('GET', 'me/', agent.token), 200);
      }
      assert.equal((await tokenRow(agent.id)).status, 'ACTIVE');
    });

    it('a heartbeat after the deadline revives nothing: it suspends the token and answers 403', async () => {
      const agent = await delegate(t, alice, { dead_mans_switch: { heartbeat_required_every: 60 } });
      t.clock.advance(60);
      const late = expectError(await heartbeat(agent.id, agent.token), 403, 'AGENT_TOKEN_SUSPENDED');
      assert.equal(late.reason, 'HEARTBEAT_MISSING');
      const row = await tokenRow(agent.id);
      assert.equal(row.status, 'SUSPENDED');
      assert.equal(row.last_heartbeat_at, null);
      assert.equal((await auditEvents(t, 'agent_token_suspended')).length, 1);
    });
  });
});
