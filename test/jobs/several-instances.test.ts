import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addSeconds } from '../../src/core/clock.js';
import { JOBS } from '../../src/jobs/registry.js';
import { sha256Hex } from '../../src/security/random.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { useTestApp } from '../helpers/test-app.js';

/** More than two claiming batches (50), so the instances' passes interleave batch by batch. */
const MESSAGES = 120;
const TOKENS = 40;

/**
 * docs/deployment.md "Several instances": every instance runs the jobs, so two running at once must share the work and never
 * do one piece twice. Two instances on one database (and one SMTP server), their passes started together.
 */
describe('jobs run by two instances at once', () => {
  let smtp: SmtpSink;
  before(async () => { smtp = await startSmtpSink(); });
  /** Both instances send through the one SMTP server; each test resets the database itself. */
  const options = () => ({
    env: { SVC_EMAIL_BACKEND: 'smtp', SVC_SMTP_HOST: '127.0.0.1', SVC_SMTP_PORT: String(smtp.port),
      SVC_EMAIL_FROM: 'auth@gatehouse.test', SVC_AUDIT_LOGGING_ENABLED: 'true' },
    reset: false,
  });
  const a = useTestApp(options);
  const b = useTestApp(options);
  after(async () => { await smtp?.stop(); });

  /**
   * Runs `job` on both instances at once, `rounds` times in a row on each (an instance's own overlapping calls share one
   * pass), and answers every run's summary.
   */
  const bothAtOnce = async (job: string, rounds = 2) => (await Promise.all([a, b].map(async (t) => {
    const summaries: string[] = [];
    for (let i = 0; i < rounds; i++) summaries.push((await JOBS[job]!.run(t.container, () => undefined)).summary);
    return summaries;
  }))).flat();

  it(`outbox: ${MESSAGES} messages are each sent once`, async () => {
    await a.reset();
    smtp.messages.length = 0;
    const now = a.clock.now();
    await a.container.db.transaction().execute(async (trx) => {
      for (let i = 0; i < MESSAGES; i++) {
        await a.container.services.outbox.enqueue(trx, { channel: 'email', to: `reader-${i}@example.com`, purpose: 'otp',
          language: 'en', vars: { code: String(100000 + i), minutes: 10 }, expiresAt: addSeconds(now, 600) });
      }
    });

    const summaries = await bothAtOnce('outbox');
    const sent = summaries.reduce((n, s) => n + Number(/^(\d+) sent/.exec(s)![1]), 0);
    assert.equal(sent, MESSAGES, summaries.join(' | '));
    await smtp.waitFor(MESSAGES);
    const recipients = smtp.messages.map((m) => (Array.isArray(m.to) ? m.to[0] : m.to)!.text);
    assert.equal(recipients.length, MESSAGES);
    assert.equal(new Set(recipients).size, MESSAGES, 'a recipient received two messages');
    const left = await a.container.db.selectFrom('outbox_messages').select('status').where('status', '!=', 'sent').execute();
    assert.deepEqual(left, []);
  });

  it(`agent heartbeats: ${TOKENS} silent tokens are each suspended once, with one audit row each`, async () => {
    await a.reset();
    const now = a.clock.now();
    const owner = await a.container.db.insertInto('users').values({ email: 'fleet-owner@example.com' }).returning('id')
      .executeTakeFirstOrThrow();
    await a.container.db.insertInto('agent_tokens').values(Array.from({ length: TOKENS }, (_, i) => ({
      user_id: owner.id, agent_id: `silent-${i}`, token_hash: sha256Hex(`silent-${i}`), granted_permissions: [],
      created_at: addSeconds(now, -600), updated_at: now, expires_at: addSeconds(now, 3000),
      max_requests_per_minute: 60, max_requests_total: 1000, max_failed_requests: 10, heartbeat_required_every: 60, spend_usd: '0',
    }))).execute();

    const summaries = await bothAtOnce('agent-heartbeats');
    const suspended = summaries.reduce((n, s) => n + Number(/^(\d+) suspended/.exec(s)![1]), 0);
    assert.equal(suspended, TOKENS, summaries.join(' | '));
    const rows = await a.container.db.selectFrom('agent_tokens').select(['status', 'suspended_reason']).execute();
    assert.ok(rows.every((r) => r.status === 'SUSPENDED' && r.suspended_reason === 'HEARTBEAT_MISSING'), JSON.stringify(rows));
    await Promise.all([a, b].map((t) => t.container.services.agentActivity.flush()));
    const audited = await a.container.db.selectFrom('audit_events').select('details').where('event_type', '=', 'agent_token_suspended').execute();
    assert.equal(audited.length, TOKENS);
  });
});
