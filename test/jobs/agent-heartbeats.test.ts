import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { addSeconds } from '../../src/core/clock.js';
import type { Db } from '../../src/db/database.js';
import { agentHeartbeatsJob } from '../../src/jobs/agent-heartbeats.job.js';
import { JOBS } from '../../src/jobs/registry.js';
import { sha256Hex } from '../../src/security/random.js';
import { auditEvents } from '../helpers/audit.js';
import { lines, runCli } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';
import { useTestApp } from '../helpers/test-app.js';
import { account, agentApi, delegate, expectStatus, userApi } from '../http/agents/helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('the agent-heartbeats job', () => {
  // The test that needs an empty database resets it itself.
  const t = useTestApp({ now: NOW, env: { SVC_AUDIT_LOGGING_ENABLED: 'true' }, reset: false });
  afterEach(async () => { await t.container.services.agentActivity.flush(); });

  const statuses = async () => Object.fromEntries((await t.container.db.selectFrom('agent_tokens')
    .select(['agent_id', 'status', 'suspended_reason']).execute()).map((r) => [r.agent_id, [r.status, r.suspended_reason]]));

  it('runs every minute', () => {
    assert.equal(JOBS['agent-heartbeats']?.everySeconds(t.container.config), 60);
  });

  it('suspends active tokens whose heartbeat is overdue and expires tokens past their time; a second run changes nothing', async () => {
    await t.reset();
    t.clock.set(NOW);
    const alice = await account(t, { email: 'alice@example.com' });
    const beating = await delegate(t, alice, { agent_id: 'beating', dead_mans_switch: { heartbeat_required_every: 60 } });
    await delegate(t, alice, { agent_id: 'silent', dead_mans_switch: { heartbeat_required_every: 60 } });
    await delegate(t, alice, { agent_id: 'no-switch' });
    await delegate(t, alice, { agent_id: 'short', expires_in: 60, dead_mans_switch: { heartbeat_required_every: 30 } });
    const held = await delegate(t, alice, { agent_id: 'held', expires_in: 60 });
    expectStatus(await userApi(t)('POST', `ai/tokens/${held.id}/suspend/`, alice), 200);
    t.clock.advance(40);
    expectStatus(await agentApi(t)('POST', `ai/tokens/${beating.id}/heartbeat/`, beating.token), 200);
    t.clock.advance(50);

    const log: string[] = [];
    const result = await agentHeartbeatsJob(t.container, (line) => log.push(line));
    assert.equal(result.summary, '1 suspended (heartbeat missing), 2 expired');
    assert.deepEqual(log, ['1 agent tokens suspended for a missing heartbeat', '2 agent tokens expired']);
    assert.deepEqual(await statuses(), {
      beating: ['ACTIVE', null], silent: ['SUSPENDED', 'HEARTBEAT_MISSING'], 'no-switch': ['ACTIVE', null],
      short: ['EXPIRED', null], held: ['EXPIRED', 'MANUAL'],
    });
    const events = (await auditEvents(t, 'agent_token_suspended')).filter((e) => (e.details as { reason: string }).reason === 'HEARTBEAT_MISSING');
    assert.equal(events.length, 1);
    assert.equal((events[0]!.details as { agent_id: string }).agent_id, 'silent');

    assert.equal((await agentHeartbeatsJob(t.container, () => undefined)).summary, '0 suspended (heartbeat missing), 0 expired');
  });
});

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse jobs run agent-heartbeats (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    before(async () => { database = await createScratchDatabase(kind, { prepared: true }); });
    after(async () => { await database?.drop(); });

    /** Tokens timed against the real clock, which the command runs on. */
    async function insertTokens(db: Db) {
      const now = new Date();
      const user = await db.insertInto('users').values({ email: 'cli-agent-owner@example.com' }).returning('id').executeTakeFirstOrThrow();
      const token = (agentId: string, createdAgo: number, expiresIn: number, heartbeatEvery: number | null) => ({
        user_id: user.id, agent_id: agentId, token_hash: sha256Hex(agentId), granted_permissions: [],
        created_at: addSeconds(now, -createdAgo), updated_at: now, expires_at: addSeconds(now, expiresIn),
        max_requests_per_minute: 60, max_requests_total: 1000, max_failed_requests: 10, heartbeat_required_every: heartbeatEvery,
        spend_usd: '0',
      });
      await db.insertInto('agent_tokens').values([
        token('stale', 600, 3000, 60), token('fresh', 10, 3000, 60), token('gone', 7200, -3600, null),
      ]).execute();
    }

    it('suspends and expires as the job does, and prints the summary', async () => {
      await database.inspect(insertTokens);
      const result = await runCli(['jobs', 'run', 'agent-heartbeats'], { env: database.env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(lines(result.stdout).at(-1) ?? '', /^agent-heartbeats: 1 suspended \(heartbeat missing\), 1 expired \(\d+ ms\)$/);
      const rows = await database.inspect((db) => db.selectFrom('agent_tokens').select(['agent_id', 'status', 'suspended_reason'])
        .orderBy('agent_id').execute());
      assert.deepEqual(rows, [
        { agent_id: 'fresh', status: 'ACTIVE', suspended_reason: null },
        { agent_id: 'gone', status: 'EXPIRED', suspended_reason: null },
        { agent_id: 'stale', status: 'SUSPENDED', suspended_reason: 'HEARTBEAT_MISSING' },
      ]);
    });
  });
}
