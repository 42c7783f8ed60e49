import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { addSeconds } from '../../../src/core/clock.js';
import type { Db } from '../../../src/db/database.js';
import { expiredDeletionsJob } from '../../../src/jobs/expired-deletions.job.js';
import { JOBS } from '../../../src/jobs/registry.js';
import { createUser, userRow } from '../../factories/users.js';
import { lines, runCli } from '../../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../../helpers/scratch-db.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';
import { columnsContaining, confirmedRequest, deletionRequest, ERIN, personWithData } from './admin-fixtures.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const HOUR = 3600;

describe('POST admin/deletion-requests/process-expired/ and the expired-deletions job', () => {
  const t = useTestApp({ now: NOW });
  let admin: Account;
  beforeEach(async () => {
    t.container.inbox.emails.length = 0;
    admin = await account(t, { email: 'gdpr-admin@example.com' });
    await grantDirect(t, admin.id, ['gdpr.process']);
  });

  const processExpired = async () =>
    expectStatus(await t.api({ method: 'POST', path: 'admin/deletion-requests/process-expired/', token: admin.token }), 200);
  const statusOf = async (id: number) =>
    (await t.container.db.selectFrom('account_deletion_requests').select(['status', 'attempts', 'last_error', 'processed_by'])
      .where('id', '=', id).executeTakeFirstOrThrow());

  it('completes the confirmed requests whose grace period has ended, and those only; a later run takes the next ones', async () => {
    const due = await confirmedRequest(t, 'due@example.com', -HOUR);
    const later = await confirmedRequest(t, 'later@example.com', HOUR / 2);
    const pendingUser = await createUser(t, { email: 'pending@example.com' });
    const pending = await deletionRequest(t, pendingUser, { status: 'pending', graceEndsAt: addSeconds(NOW, -HOUR) });

    assert.deepEqual(await processExpired(), {
      message: '1 expired deletion request completed, 0 failed, 0 skipped', processed: 1, failed: 0,
      processed_count: 1, failed_count: 0, skipped_count: 0, processing_time: 0,
      details: [{ request_id: due.id, user_id: due.user.id, status: 'completed' }],
    });
    assert.deepEqual(await statusOf(due.id), { status: 'completed', attempts: 0, last_error: null, processed_by: admin.id });
    assert.equal((await statusOf(later.id)).status, 'confirmed');
    assert.equal((await statusOf(pending)).status, 'pending');
    assert.equal((await userRow(t, later.user.id)).email, 'later@example.com');
    const [event] = await auditEvents(t, 'account_deleted');
    assert.deepEqual([event?.user_id, event?.actor_id, event?.details], [due.user.id, admin.id,
      { deletion_request_id: due.id, by: 'administrator', user_notified: true }]);

    t.clock.advance(HOUR / 2 - 1);
    assert.equal((await processExpired()).processed, 0);
    t.clock.advance(1);
    assert.deepEqual((await processExpired()).details, [{ request_id: later.id, user_id: later.user.id, status: 'completed' }]);
    assert.deepEqual(await processExpired(), {
      message: '0 expired deletion requests completed, 0 failed, 0 skipped', processed: 0, failed: 0,
      processed_count: 0, failed_count: 0, skipped_count: 0, processing_time: 0, details: [],
    });
    await t.container.services.outbox.flush();
    assert.deepEqual(t.container.inbox.emails.filter((m) => m.purpose === 'deletion_completed').map((m) => m.to).sort(),
      ['due@example.com', 'later@example.com']);
  });

  it('completes each request once when runs overlap (the route and the job at the same time)', async () => {
    const requests = [];
    for (let i = 0; i < 6; i++) requests.push(await confirmedRequest(t, `due${i}@example.com`, -HOUR - i));
    const completion = t.container.services.deletionCompletion;
    const runs = await Promise.all([processExpired(), completion.processExpired(), completion.processExpired(), processExpired()]);
    assert.equal(runs.reduce((n, r) => n + r.processed_count, 0), 6);
    assert.equal(runs.reduce((n, r) => n + r.failed_count, 0), 0);
    for (const r of runs) assert.deepEqual([r.processed, r.failed, r.processed_count], [r.details.length, 0, r.details.length]);
    const completed = runs.flatMap((r) => r.details.map((d: { request_id: number }) => d.request_id)).sort((a, b) => a - b);
    assert.deepEqual(completed, requests.map((r) => r.id).sort((a, b) => a - b));
    assert.equal((await auditEvents(t, 'account_deleted')).length, 6);
    await t.container.services.outbox.flush();
    assert.equal(t.container.inbox.emails.filter((m) => m.purpose === 'deletion_completed').length, 6);
  });

  describe('a request whose completion fails', () => {
    const trigger = async (db: Db, userId: number) => {
      await sql`create or replace function deletion_test_refuse() returns trigger language plpgsql as $$
        begin raise exception 'refused update of %', old.email; end $$`.execute(db);
      await sql`create trigger deletion_test_refuse before update on users for each row
        when (old.id = ${sql.lit(userId)}) execute function deletion_test_refuse()`.execute(db);
    };
    const dropTrigger = async (db: Db) => {
      await sql`drop trigger if exists deletion_test_refuse on users`.execute(db);
      await sql`drop function if exists deletion_test_refuse()`.execute(db);
    };
    after(async () => { await dropTrigger(t.container.db); });

    it('is counted in failed, left entirely as it was, recorded without personal data, and completed by the next run', async () => {
      const db = t.container.db;
      const first = await confirmedRequest(t, 'first@example.com', -2 * HOUR);
      const erin = await personWithData(t);
      const last = await confirmedRequest(t, 'last@example.com', -HOUR / 2);
      const untouched = { user: await userRow(t, erin.user.id), tables: await columnsContaining(t, ERIN.email) };
      await trigger(db, erin.user.id);
      try {
        const log: string[] = [];
        const result = await expiredDeletionsJob(t.container, (line) => log.push(line));
        assert.equal(result.summary, '2 completed, 1 failed, 0 skipped');
        assert.deepEqual(log, [`deletion request ${erin.request} failed: P0001: refused update of [redacted]`]);
        const answer = await processExpired();
        assert.deepEqual(answer.details, [{ request_id: erin.request, user_id: erin.user.id, status: 'failed',
          error: 'P0001: refused update of [redacted]' }]);
        assert.deepEqual([answer.processed, answer.failed, answer.failed_count, answer.skipped_count], [0, 1, 1, 0]);
        assert.ok(!JSON.stringify(answer).includes(ERIN.email));
        assert.deepEqual(await statusOf(erin.request), { status: 'confirmed', attempts: 2, last_error: 'P0001: refused update of [redacted]',
          processed_by: null });
        assert.deepEqual(await userRow(t, erin.user.id), untouched.user);
        assert.deepEqual(await columnsContaining(t, ERIN.email), untouched.tables);
        assert.ok(untouched.tables.includes('users.email') && untouched.tables.includes('organization_invitations.email'));
        assert.deepEqual((await auditEvents(t, 'account_deleted')).map((e) => e.user_id).sort(), [first.user.id, last.user.id].sort());
        assert.deepEqual(await db.selectFrom('outbox_messages').select('id').where('purpose', '=', 'deletion_completed')
          .where('recipient', '=', ERIN.email).execute(), []);
      } finally {
        await dropTrigger(db);
      }
      const retried = await processExpired();
      assert.deepEqual([retried.processed, retried.failed, retried.details], [1, 0,
        [{ request_id: erin.request, user_id: erin.user.id, status: 'completed' }]]);
      assert.equal((await statusOf(erin.request)).status, 'completed');
      assert.equal((await userRow(t, erin.user.id)).email, `deleted-${erin.user.id}@invalid`);
    });
  });

  it('runs hourly as the expired-deletions job, which completes without an administrator', async () => {
    assert.equal(JOBS['expired-deletions']?.everySeconds(t.container.config), 3600);
    const due = await confirmedRequest(t, 'due@example.com', -HOUR);
    const log: string[] = [];
    assert.equal((await JOBS['expired-deletions']!.run(t.container, (line) => log.push(line))).summary, '1 completed, 0 failed, 0 skipped');
    assert.deepEqual(log, []);
    assert.deepEqual(await statusOf(due.id), { status: 'completed', attempts: 0, last_error: null, processed_by: null });
    const [event] = await t.container.db.selectFrom('audit_events').select(['user_id', 'actor_id', 'ip_address', 'details'])
      .where('event_type', '=', 'account_deleted').execute();
    assert.deepEqual(event, { user_id: due.user.id, actor_id: null, ip_address: null,
      details: { deletion_request_id: due.id, by: 'schedule', user_notified: true } });
  });
});

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse jobs run expired-deletions (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    before(async () => { database = await createScratchDatabase(kind, { prepared: true }); });
    after(async () => { await database?.drop(); });

    /** Two confirmed requests timed against the real clock, which the command runs on: one due, one not yet. */
    async function insertRequests(db: Db) {
      const now = new Date();
      const ids: number[] = [];
      for (const [email, endsIn] of [['cli-due@example.com', -HOUR], ['cli-later@example.com', HOUR]] as const) {
        const user = await db.insertInto('users').values({ email, is_active: false, deletion_scheduled_at: addSeconds(now, endsIn) })
          .returning('id').executeTakeFirstOrThrow();
        const row = await db.insertInto('account_deletion_requests').values({ user_id: user.id, user_email: email, status: 'confirmed',
          cancellation_token: `cli-${user.id}`, requested_at: addSeconds(now, -30 * 86_400), confirmed_at: addSeconds(now, -30 * 86_400),
          grace_period_ends_at: addSeconds(now, endsIn) }).returning('id').executeTakeFirstOrThrow();
        ids.push(row.id);
      }
      return ids;
    }

    it('completes the due request and prints the summary', async () => {
      const [due, later] = await database.inspect(insertRequests);
      const result = await runCli(['jobs', 'run', 'expired-deletions'], { env: { ...database.env, SVC_EMAIL_BACKEND: 'memory' } });
      assert.equal(result.code, 0, result.stderr);
      assert.match(lines(result.stdout).at(-1) ?? '', /^expired-deletions: 1 completed, 0 failed, 0 skipped \(\d+ ms\)$/);
      const rows = await database.inspect((db) => db.selectFrom('account_deletion_requests as r').innerJoin('users as u', 'u.id', 'r.user_id')
        .select(['r.id', 'r.status', 'r.user_email', 'u.email']).orderBy('r.id').execute());
      assert.deepEqual(rows.map((r) => [r.id, r.status, r.user_email, r.email?.replace(/\d+/, 'N')]), [
        [due, 'completed', null, 'deleted-N@invalid'], [later, 'confirmed', 'cli-later@example.com', 'cli-later@example.com'],
      ]);
    });
  });
}
