import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { DeletionStatus } from '../../../src/db/database.js';
import { openSession } from '../../factories/sessions.js';
import type { TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { accountAt, at, auditAt, createViewer, DASHBOARD_ENV, expectStatus, getAs, permissionDenied } from './helpers.js';

/** Wednesday 18 March, noon UTC: today started at midnight, the month on the 1st. */
const NOW = '2026-03-18T12:00:00.000Z';

/** docs/dashboard.md: GET dashboard/gdpr/ (dashboard.view). */
describe('GET dashboard/gdpr/', () => {
  const t = useTestApp({ now: new Date(NOW), env: DASHBOARD_ENV });
  let viewer: TestUser;
  beforeEach(async () => {
    viewer = await createViewer(t);
  });

  let sequence = 0;
  /** A deletion request written as the deletion module writes it (one open request per account). */
  async function request(status: DeletionStatus, graceEndsAt: string) {
    const who = await accountAt(t, '2026-01-01T00:00:00.000Z', { email: `requester-${++sequence}@example.com` });
    await t.container.db.insertInto('account_deletion_requests').values({
      user_id: who.id, status, cancellation_token: `reference-${sequence}`, requested_at: new Date('2026-03-01T00:00:00.000Z'),
      grace_period_ends_at: new Date(graceEndsAt),
    }).execute();
  }

  it('counts deletion requests by status, confirmed ones whose grace period ends within 7 days, and exports', async () => {
    await request('pending', '2026-03-19T00:00:00.000Z'); // not confirmed: its grace period has not started
    await request('pending', '2026-04-01T00:00:00.000Z');
    await request('confirmation_sent', '2026-04-01T00:00:00.000Z');
    await request('confirmed', '2026-03-21T12:00:00.000Z'); // in 3 days
    await request('confirmed', '2026-03-25T12:00:00.000Z'); // in exactly 7 days
    await request('confirmed', '2026-03-25T12:00:00.001Z'); // a millisecond later
    await request('confirmed', '2026-03-18T11:59:59.999Z'); // ended a millisecond ago (the job has not run yet)
    await request('completed', '2026-03-10T00:00:00.000Z');
    await request('cancelled', '2026-04-01T00:00:00.000Z');

    // One export through the API this morning; the others written as its audit rows, around the day's and month's starts.
    const exporter = await accountAt(t, '2026-01-01T00:00:00.000Z', { email: 'exporter@example.com' });
    at(t, '2026-03-18T09:00:00.000Z');
    const { access_token } = await openSession(t, exporter.id);
    expectStatus(await t.api({ method: 'POST', path: 'export-user-data/', token: access_token, payload: { password: exporter.password } }), 200);
    for (const iso of ['2026-03-18T00:00:00.000Z', '2026-03-17T23:59:59.999Z', '2026-03-01T00:00:00.000Z', '2026-02-28T23:59:59.999Z']) {
      await auditAt(t, iso, { event_type: 'data_exported', user_id: exporter.id });
    }

    at(t, NOW);
    assert.deepEqual(expectStatus(await getAs(t, viewer, 'dashboard/gdpr/'), 200), {
      deletion_requests: {
        total: 9,
        by_status: { pending: 2, confirmation_sent: 1, confirmed: 4, completed: 1, cancelled: 1 },
        grace_period_expiring_7d: 2,
      },
      data_exports: { total_today: 2, total_this_month: 4 },
    });
  });

  it('names every status, with zeros, on a quiet database', async () => {
    at(t, NOW);
    assert.deepEqual(expectStatus(await getAs(t, viewer, 'dashboard/gdpr/'), 200), {
      deletion_requests: {
        total: 0, by_status: { pending: 0, confirmation_sent: 0, confirmed: 0, completed: 0, cancelled: 0 }, grace_period_expiring_7d: 0,
      },
      data_exports: { total_today: 0, total_this_month: 0 },
    });
  });

  it('answers 403 PERMISSION_DENIED without dashboard.view, even with gdpr.view', async () => {
    const someone = await accountAt(t, NOW, { email: 'someone@example.com' });
    const rows = await t.container.db.selectFrom('permissions').select('id').where('code', '=', 'gdpr.view').execute();
    await t.container.db.insertInto('user_permissions').values(rows.map((r) => ({ user_id: someone.id, permission_id: r.id }))).execute();
    assert.deepEqual(expectStatus(await getAs(t, someone, 'dashboard/gdpr/'), 403), permissionDenied('dashboard.view'));
  });
});
