import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { openSession } from '../../factories/sessions.js';
import { createApplication } from '../../factories/applications.js';
import type { TestUser } from '../../factories/users.js';
import { sql } from 'kysely';
import { JOBS } from '../../../src/jobs/registry.js';
import { useTestApp } from '../../helpers/test-app.js';
import { clearInbox } from '../passwordless/helpers.js';
import { join } from '../organizations/helpers.js';
import {
  accountAt, at, auditAt, createViewer, DASHBOARD_ENV, emailLogin, expectStatus, getAs, magicLinkLogin, otpLogin, permissionDenied,
  phoneLogin,
} from './helpers.js';

/** A Wednesday, noon UTC: the 7-day period starts on Thursday 12 March at midnight; the one before it ran 5–11 March noon. */
const NOW = '2026-03-18T12:00:00.000Z';
const WEEK = ['2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15', '2026-03-16', '2026-03-17', '2026-03-18'];
const chartOf = (counts: number[], days = WEEK) => days.map((date, i) => ({ date, count: counts[i] }));

/** docs/dashboard.md: GET dashboard/stats/ (dashboard.view). */
describe('GET dashboard/stats/', () => {
  const t = useTestApp({ now: new Date(NOW), env: { ...DASHBOARD_ENV, SVC_JWT_REFRESH_TOKEN_LIFETIME: String(7 * 86_400) } });
  let viewer: TestUser;
  beforeEach(async () => {
    clearInbox(t);
    viewer = await createViewer(t);
  });

  const stats = async (query = '', headers: Record<string, string> = {}) => {
    at(t, NOW);
    return expectStatus(await getAs(t, viewer, `dashboard/stats/${query}`, headers), 200);
  };

  /**
   * Sign-ins through the real endpoints around the 7-day period: bob's just before its first midnight, alice's at it,
   * a failed password, dave's password-with-phone and code sign-ins (the code one through a second application), a
   * magic link today (a day still open), an unknown address today; erin created and deleted within the period.
   */
  async function week() {
    const other = await createApplication(t, { name: 'Mobile' });
    const bob = await accountAt(t, '2026-03-11T23:59:59.999Z', { email: 'bob@example.com' });
    assert.equal(await emailLogin(t, '2026-03-11T23:59:59.999Z', bob.email!, bob.password!), 200);
    // Verified addresses: their code and link sign-ins below keep their passwords and sessions (docs/authentication.md).
    const alice = await accountAt(t, '2026-03-12T00:00:00.000Z', { email: 'alice@example.com', verified: true });
    assert.equal(await emailLogin(t, '2026-03-12T00:00:00.000Z', alice.email!, alice.password!), 200);
    const erin = await accountAt(t, '2026-03-13T08:00:00.000Z', { email: 'erin@example.com' });
    const dave = await accountAt(t, '2026-03-14T09:00:00.000Z', { email: 'dave@example.com', phone: '+33612345678', verified: true });
    assert.equal(await emailLogin(t, '2026-03-15T10:00:00.000Z', alice.email!, 'not the password'), 401);
    assert.equal(await phoneLogin(t, '2026-03-16T08:00:00.000Z', dave.phone!, dave.password!), 200);
    at(t, '2026-03-17T09:00:00.000Z');
    const code = await t.api({ method: 'POST', path: 'login/otp/request/', headers: other.headers,
      payload: { phone_country_code: '+33', phone_number: '612345678' } });
    assert.equal(code.statusCode, 200, code.body);
    await t.container.services.outbox.flush();
    const sms = t.container.inbox.sms.at(-1)!;
    const verify = await t.api({ method: 'POST', path: 'login/otp/verify/', headers: other.headers,
      payload: { phone_country_code: '+33', phone_number: '612345678', otp_code: /\d{6}/.exec(sms.body)![0] } });
    assert.equal(verify.statusCode, 200, verify.body);
    at(t, '2026-03-17T10:00:00.000Z');
    await t.container.db.updateTable('users').set({ deleted_at: new Date('2026-03-17T10:00:00.000Z'), is_active: false })
      .where('id', '=', erin.id).execute();
    await magicLinkLogin(t, '2026-03-18T11:00:00.000Z', alice);
    assert.equal(await emailLogin(t, '2026-03-18T11:30:00.000Z', 'nobody@example.com', 'whatever it is'), 401);
    return { alice, bob, dave, erin };
  }

  /** Security incidents (no HTTP path produces them here): in, at the period's edges, and two that are not incidents. */
  async function incidents(alice: TestUser) {
    await auditAt(t, '2026-03-11T23:59:59.999Z', { event_type: 'account_locked', severity: 'warning', user_id: alice.id });
    await auditAt(t, '2026-03-13T10:00:00.000Z', { event_type: 'account_locked', severity: 'warning', user_id: alice.id });
    await auditAt(t, '2026-03-14T10:00:00.000Z', { event_type: 'agent_token_suspended', severity: 'warning', user_id: alice.id,
      details: { token_id: 1, reason: 'failed_requests' } });
    await auditAt(t, '2026-03-14T11:00:00.000Z', { event_type: 'agent_token_suspended', severity: 'warning', user_id: alice.id,
      details: { token_id: 2, from: 'ACTIVE', reason: 'MANUAL' } });
    await auditAt(t, '2026-03-14T12:00:00.000Z', { event_type: 'user_banned', severity: 'warning', user_id: alice.id });
    await auditAt(t, '2026-03-18T09:00:00.000Z', { event_type: 'refresh_token_reuse', severity: 'critical', user_id: alice.id });
  }

  it('counts the 7 UTC days ending now: an event at the first midnight is in, one a millisecond earlier is out', async () => {
    const { bob, dave } = await week();
    await incidents((await t.container.db.selectFrom('users').select('id').where('email', '=', 'alice@example.com')
      .executeTakeFirstOrThrow()) as TestUser);
    const deletion = (userId: number, status: 'pending' | 'confirmed' | 'completed', n: number) =>
      t.container.db.insertInto('account_deletion_requests').values({ user_id: userId, status, cancellation_token: `ref-${n}`,
        grace_period_ends_at: new Date('2026-04-17T00:00:00.000Z') }).execute();
    await deletion(dave.id, 'pending', 1);
    await deletion(bob.id, 'completed', 2);

    assert.deepEqual(await stats(), {
      period: { name: '7d', start: '2026-03-12T00:00:00.000Z', end: NOW },
      summary: {
        // viewer, bob, alice, dave (erin is deleted)
        total_users: 4,
        // alice (12 and 18 March) and dave; bob signed in a millisecond before the period
        active_users: 2,
        total_organizations: 0,
        total_applications: 2,
        // bob's, alice's two, dave's two and the viewer's; none expired (7 days) or revoked
        active_sessions: 6,
        pending_deletions: 1,
      },
      trends: {
        user_growth: 3, // alice, erin, dave
        login_success_rate: 66.67, // 4 of 6: alice ×2, dave ×2; alice's wrong password, the unknown address
        login_second_steps: 0,
        application_usage: 2, // the test application and Mobile
        security_incidents: 3, // locked on the 13th, breaker suspension on the 14th, refresh reuse today
      },
      organization_context: null,
      charts: {
        daily_logins: chartOf([1, 0, 0, 0, 1, 1, 1]),
        user_registrations: chartOf([1, 1, 1, 0, 0, 0, 0]),
        security_events: chartOf([0, 1, 1, 0, 0, 0, 1]),
      },
    });
  });

  it('answers the same figures on the next call, and the day after moves the period by one day', async () => {
    const { alice } = await week();
    const first = await stats();
    const again = await stats();
    // Each call opens one more session for the viewer; nothing else moves.
    assert.deepEqual(again, { ...first, summary: { ...first.summary, active_sessions: first.summary.active_sessions + 1 } });

    // Thursday noon: the 12th leaves the period, the 18th is closed, alice signs in again today.
    assert.equal(await emailLogin(t, '2026-03-19T10:00:00.000Z', alice.email!, alice.password!), 200);
    at(t, '2026-03-19T12:00:00.000Z');
    const next = expectStatus(await getAs(t, viewer, 'dashboard/stats/'), 200);
    assert.equal(next.period.start, '2026-03-13T00:00:00.000Z');
    assert.equal(next.summary.active_users, 2); // alice (18th and 19th), dave (16th and 17th)
    assert.equal(next.summary.total_users, 4);
    assert.equal(next.trends.user_growth, 2); // erin and dave
    assert.equal(next.trends.login_success_rate, 66.67); // 4 of 6: the 12th's success left, today's came
    assert.deepEqual(next.charts.daily_logins, chartOf([0, 0, 0, 1, 1, 1, 1], [...WEEK.slice(1), '2026-03-19']));
    // Over 30 days alice counts once, though she signed in on three days, two of them closed since.
    const month = expectStatus(await getAs(t, viewer, 'dashboard/stats/?period=30d'), 200);
    assert.equal(month.summary.active_users, 3); // bob, alice, dave
  });

  it('stays exact as the hours close: a long backlog is counted live until the dashboard-counts job counts it, the last hours inline', async () => {
    // An hour is closed (counted once into dashboard_counts) 15 minutes after it ends; until then it is counted live.
    const alice = await accountAt(t, '2026-03-01T00:00:00.000Z', { email: 'alice@example.com' });
    const bob = await accountAt(t, '2026-03-01T00:00:00.000Z', { email: 'bob@example.com' });
    assert.equal(await emailLogin(t, '2026-03-18T09:10:00.000Z', alice.email!, alice.password!), 200);
    assert.equal(await emailLogin(t, '2026-03-18T10:05:00.000Z', bob.email!, bob.password!), 200);
    const read = async (iso: string) => {
      at(t, iso);
      const body = expectStatus(await getAs(t, viewer, 'dashboard/stats/'), 200);
      return { active: body.summary.active_users, today: body.charts.daily_logins.at(-1).count, users: body.summary.total_users };
    };
    const lastClosed = async () => (await sql<{ h: Date | null }>`select max(starts_at) as h from dashboard_counts where hours = 1`
      .execute(t.container.db)).rows[0]!.h?.toISOString() ?? null;
    // Months of history not counted yet: a request never counts it itself, it reads the source tables.
    assert.deepEqual(await read('2026-03-18T10:20:00.000Z'), { active: 2, today: 2, users: 3 });
    assert.equal(await lastClosed(), null);
    const job = await JOBS['dashboard-counts']!.run(t.container, () => undefined);
    assert.equal(job.summary, 'hours counted up to 2026-03-18T09:00:00.000Z');
    assert.deepEqual(await read('2026-03-18T10:20:00.000Z'), { active: 2, today: 2, users: 3 }); // 09:00 closed, 10:00 open
    assert.equal(await emailLogin(t, '2026-03-18T10:40:00.000Z', alice.email!, alice.password!), 200);
    assert.deepEqual(await read('2026-03-18T11:20:00.000Z'), { active: 2, today: 3, users: 3 }); // 10:00 closed: alice moved on
    assert.equal(await lastClosed(), '2026-03-18T10:00:00.000Z', 'a request closes the last hours itself');
    await accountAt(t, '2026-03-18T12:00:00.000Z', { email: 'carol@example.com' });
    assert.deepEqual(await read('2026-03-18T12:20:00.000Z'), { active: 2, today: 3, users: 4 }); // 11:00 closed, carol live
    assert.equal(await lastClosed(), '2026-03-18T11:00:00.000Z');
  });

  it('compare=true answers each trend for the period and the one before, cut at the same time of day', async () => {
    // The previous period: 5 March 00:00 to 11 March 12:00, both ends included.
    const early = await accountAt(t, '2026-03-04T23:59:59.999Z', { email: 'early@example.com' });
    const carol = await accountAt(t, '2026-03-05T00:00:00.000Z', { email: 'carol@example.com' });
    assert.equal(await emailLogin(t, '2026-03-06T10:00:00.000Z', carol.email!, carol.password!), 200);
    assert.equal(await emailLogin(t, '2026-03-06T10:05:00.000Z', carol.email!, 'not the password'), 401);
    await accountAt(t, '2026-03-11T12:00:00.000Z', { email: 'greg@example.com' });
    await accountAt(t, '2026-03-11T12:00:00.001Z', { email: 'hank@example.com' }); // between the periods: in neither
    assert.equal(await emailLogin(t, '2026-03-11T13:00:00.000Z', early.email!, 'not the password'), 401); // neither
    // The current period.
    const alice = await accountAt(t, '2026-03-12T00:00:00.000Z', { email: 'alice@example.com' });
    assert.equal(await emailLogin(t, '2026-03-13T00:00:00.000Z', alice.email!, alice.password!), 200);
    assert.equal(await emailLogin(t, '2026-03-18T12:00:00.000Z', alice.email!, alice.password!), 200);
    await auditAt(t, '2026-03-16T00:00:00.000Z', { event_type: 'account_locked', severity: 'warning', user_id: alice.id });
    await auditAt(t, '2026-03-17T00:00:00.000Z', { event_type: 'refresh_token_reuse', severity: 'critical', user_id: alice.id });

    const body = await stats('?compare=true');
    assert.deepEqual(body.period, {
      name: '7d', start: '2026-03-12T00:00:00.000Z', end: NOW,
      previous_start: '2026-03-05T00:00:00.000Z', previous_end: '2026-03-11T12:00:00.000Z',
    });
    assert.deepEqual(body.trends, {
      user_growth: { current: 1, previous: 2, change_percent: -50 }, // alice; carol and greg
      login_success_rate: { current: 100, previous: 50, change_percent: 100 },
      login_second_steps: { current: 0, previous: 0, change_percent: 0 },
      application_usage: { current: 1, previous: 1, change_percent: 0 },
      security_incidents: { current: 2, previous: 0, change_percent: null }, // from nothing: no percentage
    });
    // The charts and the summary are those of the current period only.
    assert.deepEqual(body.charts.daily_logins, chartOf([0, 1, 0, 0, 0, 0, 1]));
    assert.equal(body.summary.active_users, 1);
  });

  it('compare=true on a quiet database: every trend 0 against 0, a change of 0', async () => {
    const zero = { current: 0, previous: 0, change_percent: 0 };
    assert.deepEqual((await stats('?compare=true&period=30d')).trends,
      { user_growth: zero, login_success_rate: zero, login_second_steps: zero, application_usage: zero, security_incidents: zero });
  });

  it('period=30d and 90d: one chart entry per UTC day, zero days included, oldest first', async () => {
    const alice = await accountAt(t, '2025-12-19T00:00:00.000Z', { email: 'alice@example.com' }); // first day of 90d
    assert.equal(await emailLogin(t, '2025-12-19T00:00:00.000Z', alice.email!, alice.password!), 200);
    assert.equal(await emailLogin(t, '2026-02-17T00:00:00.000Z', alice.email!, alice.password!), 200); // first day of 30d
    assert.equal(await emailLogin(t, '2026-02-16T23:59:59.999Z', alice.email!, 'not the password'), 401);

    const month = await stats('?period=30d');
    assert.equal(month.period.start, '2026-02-17T00:00:00.000Z');
    assert.equal(month.charts.daily_logins.length, 30);
    assert.deepEqual(month.charts.daily_logins[0], { date: '2026-02-17', count: 1 });
    assert.deepEqual(month.charts.daily_logins.at(-1), { date: '2026-03-18', count: 0 });
    assert.deepEqual(month.trends, { user_growth: 0, login_success_rate: 100, login_second_steps: 0, application_usage: 1, security_incidents: 0 });
    assert.equal(month.summary.active_users, 1);

    const quarter = await stats('?period=90d');
    assert.equal(quarter.period.start, '2025-12-19T00:00:00.000Z');
    assert.equal(quarter.charts.user_registrations.length, 90);
    assert.deepEqual(quarter.charts.user_registrations[0], { date: '2025-12-19', count: 1 });
    assert.equal(quarter.charts.daily_logins.filter((d: { count: number }) => d.count > 0).length, 2);
    assert.deepEqual(quarter.trends, { user_growth: 1, login_success_rate: 66.67, login_second_steps: 0, application_usage: 1, security_incidents: 0 });
  });

  describe('with X-Org-Slug', () => {
    /** acme (with a sub-organization) and another organization, created by the viewer long ago. */
    async function organizations() {
      at(t, '2025-12-01T00:00:00.000Z');
      const { access_token } = await openSession(t, viewer.id);
      const create = async (payload: object) => expectStatus(await t.api({ method: 'POST', path: 'organizations/', token: access_token, payload }), 201);
      const acme = await create({ name: 'ACME', slug: 'acme' });
      await create({ name: 'ACME EU', slug: 'acme-eu', parent_id: acme.id });
      await create({ name: 'Other', slug: 'other' });
      return acme as { id: number };
    }

    it('counts the organization\'s active members only and names it in organization_context', async () => {
      const acme = await organizations();
      const { alice, bob, dave, erin } = await week();
      const member = (who: TestUser) => ({ id: who.id, token: '' });
      await join(t, 'acme', member(alice) as never, 'member');
      await join(t, 'acme', member(erin) as never, 'member');
      await join(t, 'acme', member(dave) as never, 'admin');
      await join(t, 'other', member(bob) as never, 'member');
      await t.container.db.updateTable('organization_members').set({ status: 'inactive' }).where('user_id', '=', dave.id).execute();
      await auditAt(t, '2026-03-13T10:00:00.000Z', { event_type: 'account_locked', severity: 'warning', user_id: alice.id });
      await auditAt(t, '2026-03-13T11:00:00.000Z', { event_type: 'account_locked', severity: 'warning', user_id: bob.id });

      const body = await stats('?compare=true', { 'x-org-slug': 'acme' });
      assert.deepEqual(body.organization_context, { id: acme.id, name: 'ACME', slug: 'acme' });
      assert.deepEqual(body.summary, {
        total_users: 2, // the viewer (owner) and alice; erin is deleted, dave's membership inactive
        active_users: 1, // alice
        total_organizations: 2, // acme and acme-eu
        total_applications: 2,
        active_sessions: 3, // alice's two and the viewer's
        pending_deletions: 0,
      });
      assert.deepEqual(body.trends, {
        user_growth: { current: 2, previous: 0, change_percent: null }, // alice and erin
        login_success_rate: { current: 66.67, previous: 0, change_percent: null }, // alice: 2 of 3
        login_second_steps: { current: 0, previous: 0, change_percent: 0 },
        application_usage: { current: 1, previous: 0, change_percent: null },
        security_incidents: { current: 1, previous: 0, change_percent: null },
      });
      assert.deepEqual(body.charts.daily_logins, chartOf([1, 0, 0, 0, 0, 0, 1]));
      assert.deepEqual(body.charts.user_registrations, chartOf([1, 1, 0, 0, 0, 0, 0]));
      assert.deepEqual(body.charts.security_events, chartOf([0, 1, 0, 0, 0, 0, 0]));
    });

    it('answers 404 ORG_NOT_FOUND for an unknown slug and 403 NOT_MEMBER where the caller holds no role', async () => {
      await organizations();
      at(t, NOW);
      const unknown = await getAs(t, viewer, 'dashboard/stats/', { 'x-org-slug': 'nowhere' });
      assert.equal(expectStatus(unknown, 404).code, 'ORG_NOT_FOUND');
      await t.container.db.deleteFrom('organization_members').where('user_id', '=', viewer.id)
        .where('organization_id', 'in', t.container.db.selectFrom('organizations').select('id').where('slug', '=', 'other')).execute();
      const foreign = await getAs(t, viewer, 'dashboard/stats/', { 'x-org-slug': 'other' });
      assert.equal(expectStatus(foreign, 403).code, 'NOT_MEMBER');
    });

    it('answers 403 PERMISSION_DENIED to an organization owner without dashboard.view', async () => {
      const owner = await accountAt(t, NOW, { email: 'owner@example.com' });
      await organizations();
      await join(t, 'acme', { id: owner.id } as never, 'owner');
      at(t, NOW);
      assert.deepEqual(expectStatus(await getAs(t, owner, 'dashboard/stats/', { 'x-org-slug': 'acme' }), 403), permissionDenied('dashboard.view'));
    });
  });

  it('answers 403 PERMISSION_DENIED without dashboard.view', async () => {
    const someone = await accountAt(t, NOW, { email: 'someone@example.com' });
    assert.deepEqual(expectStatus(await getAs(t, someone, 'dashboard/stats/'), 403), permissionDenied('dashboard.view'));
  });

  it('answers 400 VALIDATION_ERROR for a period other than 7d, 30d or 90d, or a compare that is not a boolean', async () => {
    at(t, NOW);
    for (const query of ['?period=1y', '?period=7', '?period=', '?compare=maybe']) {
      const body = expectStatus(await getAs(t, viewer, `dashboard/stats/${query}`), 400);
      assert.equal(body.code, 'VALIDATION_ERROR', query);
    }
  });
});
