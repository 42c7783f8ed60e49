import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { addSeconds } from '../../../src/core/clock.js';
import { createUser, userRow } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { agentApi, delegate } from '../agents/helpers.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus, NOT_FOUND, permissionDenied, UNAUTHORIZED } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';
import { columnsContaining, deletionRequest, ERIN, personWithData } from './admin-fixtures.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const DAY = 86_400;
const at = (iso: string) => new Date(iso);
const PHRASE = { confirmation: 'PERMANENTLY DELETE' };
const CONFIRMATION_REQUIRED = { error: 'Send {"confirmation": "PERMANENTLY DELETE"} to process this request', code: 'CONFIRMATION_REQUIRED' };
const NOT_CONFIRMED = { error: 'The deletion request has not been confirmed', code: 'REQUEST_NOT_CONFIRMED' };

/** One app for the enclosing suite; before each test, an administrator holding the three gdpr permissions. */
function fixture(env: Record<string, string> = {}) {
  const f = { t: useTestApp({ now: NOW, env }) } as { t: TestApp; admin: Account };
  beforeEach(async () => {
    f.t.container.inbox.emails.length = 0;
    f.t.container.inbox.sms.length = 0;
    f.admin = await account(f.t, { email: 'gdpr-admin@example.com' });
    await grantDirect(f.t, f.admin.id, ['gdpr.view', 'gdpr.admin', 'gdpr.process']);
  });
  return f;
}

/** The stored request, the account and how many audit rows and messages exist: what a refused call must leave alone. */
const snapshot = async (t: TestApp, requestId: number, userId: number) => ({
  request: await t.container.db.selectFrom('account_deletion_requests').selectAll().where('id', '=', requestId).executeTakeFirst(),
  user: await userRow(t, userId),
  audit: (await t.container.db.selectFrom('audit_events').select('id').execute()).length,
  outbox: (await t.container.db.selectFrom('outbox_messages').select('id').execute()).length,
});

describe('admin deletion requests', () => {
  let t: TestApp;
  let admin: Account;
  const f = fixture();
  beforeEach(() => ({ t, admin } = f));

  const call = (method: 'GET' | 'POST', path: string, who: Account | null = admin, payload?: object) =>
    t.api({ method, path, ...(who ? { token: who.token } : {}), ...(payload ? { payload } : {}) });
  const list = async (query = '', status = 200) => expectStatus(await call('GET', `admin/deletion-requests/${query}`), status);
  const ids = (body: { results: { id: number }[] }) => body.results.map((r) => r.id);

  describe('GET admin/deletion-requests/ and <id>/', () => {
    it('lists the deletion requests, paged, and reads one by id', async () => {
      const ann = await createUser(t, { email: 'ann@example.com' });
      const id = await deletionRequest(t, ann, { status: 'confirmed', requestedAt: at('2025-02-20T08:00:00Z'), graceEndsAt: addSeconds(NOW, 60) });
      const body = await list();
      const resource = {
        id, user: ann.id, user_email: 'ann@example.com', status: 'confirmed', requested_at: '2025-02-20T08:00:00.000Z',
        confirmed_at: '2025-02-20T08:01:00.000Z', grace_period_ends_at: '2025-03-01T10:01:00.000Z', completed_at: null,
        ip_address: '198.51.100.4', reason: 'No longer needed', admin_notes: null, processed_by: null, processed_by_email: null,
        is_grace_period_expired: false,
      };
      assert.deepEqual(body, { count: 1, next: null, previous: null, page: 1, page_size: 20, total_pages: 1, results: [resource] });
      assert.deepEqual(expectStatus(await call('GET', `admin/deletion-requests/${id}/`), 200), resource);
      assert.deepEqual(expectStatus(await call('GET', `admin/deletion-requests/${id + 1}/`), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await call('GET', 'admin/deletion-requests/abc/'), 404), NOT_FOUND);
      t.clock.advance(60);
      assert.equal(expectStatus(await call('GET', `admin/deletion-requests/${id}/`), 200).is_grace_period_expired, true);
    });

    it('filters by user_id, status, date_from, date_to (inclusive) and grace_period_expiring, and orders by each column', async () => {
      const make = async (name: string, status: Parameters<typeof deletionRequest>[2]['status'], requested: string, ends: Date) =>
        deletionRequest(t, await createUser(t, { email: `${name}@example.com` }), { status, requestedAt: at(requested), graceEndsAt: ends });
      const a = await make('a', 'pending', '2025-02-27T12:00:00Z', at('2025-03-29T12:00:00Z'));
      const b = await make('b', 'confirmed', '2025-01-30T09:00:00Z', addSeconds(NOW, 3 * DAY));
      const c = await make('c', 'confirmed', '2025-02-01T00:00:00Z', addSeconds(NOW, 20 * DAY));
      const d = await make('d', 'confirmed', '2025-01-29T00:00:00Z', addSeconds(NOW, -DAY));
      const e = await make('e', 'cancelled', '2025-02-28T23:59:59Z', at('2025-03-30T23:59:59Z'));
      const g = await make('g', 'completed', '2025-01-01T00:00:00Z', at('2025-01-31T00:00:00Z'));
      const bUser = (await list(`?status=confirmed&ordering=requested_at`)).results.find((r: { id: number }) => r.id === b).user;

      assert.deepEqual(ids(await list()), [e, a, c, b, d, g]);
      assert.deepEqual(ids(await list('?status=pending')), [a]);
      assert.deepEqual(ids(await list('?status=confirmed')), [c, b, d]);
      assert.deepEqual(ids(await list('?status=cancelled')), [e]);
      assert.deepEqual(ids(await list('?status=completed')), [g]);
      assert.deepEqual(ids(await list('?status=confirmation_sent')), []);
      assert.deepEqual(ids(await list(`?user_id=${bUser}`)), [b]);
      assert.deepEqual(ids(await list('?date_from=2025-02-01')), [e, a, c]);
      assert.deepEqual(ids(await list('?date_to=2025-02-01')), [c, b, d, g]);
      assert.deepEqual(ids(await list('?date_from=2025-02-01&date_to=2025-02-01')), [c]);
      assert.deepEqual(ids(await list('?date_from=2025-02-28&date_to=2025-02-28')), [e]);
      assert.deepEqual(ids(await list('?grace_period_expiring=true')), [b, d]);
      assert.deepEqual(ids(await list('?grace_period_expiring=false')), [e, a, c, g]);
      assert.deepEqual(ids(await list('?status=confirmed&grace_period_expiring=false')), [c]);
      const orders: Record<string, number[]> = {
        requested_at: [g, d, b, c, a, e], '-requested_at': [e, a, c, b, d, g],
        grace_period_ends_at: [g, d, b, c, a, e], '-grace_period_ends_at': [e, a, c, b, d, g],
        status: [e, g, b, c, d, a], '-status': [a, d, c, b, g, e],
      };
      for (const [ordering, order] of Object.entries(orders)) assert.deepEqual(ids(await list(`?ordering=${ordering}`)), order, ordering);
      assert.deepEqual((await list('?status=confirmed')).results.map((r: { is_grace_period_expired: boolean }) => r.is_grace_period_expired),
        [false, false, true]);
    });

    it('answers 400 VALIDATION_ERROR to a malformed filter, date or ordering', async () => {
      const invalid: Record<string, object> = {
        '?date_from=2026-13-40': { date_from: ['Must be a valid date.'] },
        '?date_to=2025-02-30': { date_to: ['Must be a valid date.'] },
        '?date_from=01/02/2025': { date_from: ['Must be a valid date.'] },
        '?date_from=2025-02-02&date_to=2025-02-01': { date_to: ['Must not be before date_from.'] },
        '?status=deleted': { status: ['Must be one of: pending, confirmation_sent, confirmed, completed, cancelled.'] },
        '?ordering=user': { ordering: ['Must be one of: requested_at, -requested_at, grace_period_ends_at, -grace_period_ends_at, status, -status.'] },
        '?grace_period_expiring=soon': { grace_period_expiring: ['Must be of type boolean.'] },
        '?user_id=abc': { user_id: ['Must be of type integer.'] },
      };
      for (const [query, details] of Object.entries(invalid)) {
        const body = await list(query, 400);
        assert.deepEqual([body.code, body.details], ['VALIDATION_ERROR', details], query);
      }
      assert.equal((await list('?email=x', 400)).code, 'VALIDATION_ERROR');
    });

    it('pages with page and page_size (at most 100)', async () => {
      const created: number[] = [];
      for (let i = 0; i < 5; i++) {
        created.push(await deletionRequest(t, await createUser(t), { status: 'cancelled', requestedAt: addSeconds(NOW, -i * 60) }));
      }
      const first = await list('?page_size=2');
      assert.deepEqual([first.count, first.total_pages, ids(first), first.next, first.previous],
        [5, 3, created.slice(0, 2), `${t.container.config.API_PREFIX}admin/deletion-requests/?page_size=2&page=2`, null]);
      const last = await list('?page_size=2&page=3');
      assert.deepEqual([ids(last), last.next], [created.slice(4), null]);
      assert.ok(last.previous);
      assert.deepEqual(ids(await list('?page_size=2&page=4')), []);
      assert.equal((await list('?page_size=500')).page_size, 100);
      assert.equal((await list('?page=0', 400)).code, 'VALIDATION_ERROR');
    });
  });

  describe('permissions', () => {
    it('needs a bearer; gdpr.view lists, gdpr.admin reads one, gdpr.process processes; anything else answers 403', async () => {
      const ann = await createUser(t, { email: 'ann@example.com' });
      const id = await deletionRequest(t, ann, { status: 'confirmed' });
      const plain = await account(t, { email: 'plain@example.com' });
      const holder = async (code: string) => {
        const who = await account(t, { email: `${code}@example.com` });
        await grantDirect(t, who.id, [code]);
        return who;
      };
      const viewer = await holder('gdpr.view');
      const reader = await holder('gdpr.admin');
      const processor = await holder('gdpr.process');
      const routes = [
        ['GET', 'admin/deletion-requests/', undefined],
        ['GET', `admin/deletion-requests/${id}/`, undefined],
        ['POST', `admin/deletion-requests/${id}/process/`, PHRASE],
        ['POST', 'admin/deletion-requests/process-expired/', undefined],
      ] as const;
      const statuses = async (who: Account | null) => {
        const out: number[] = [];
        for (const [method, path, payload] of routes) {
          if (path.endsWith('process/') && who === processor) continue;
          const res = await call(method, path, who, payload);
          if (res.statusCode === 403) assert.deepEqual(res.json(), permissionDenied(...res.json().details.missing_permissions));
          if (res.statusCode === 401) assert.deepEqual(res.json(), UNAUTHORIZED);
          out.push(res.statusCode);
        }
        return out;
      };
      const untouched = await snapshot(t, id, ann.id);
      assert.deepEqual(await statuses(null), [401, 401, 401, 401]);
      assert.deepEqual(await statuses(plain), [403, 403, 403, 403]);
      assert.deepEqual(await statuses(viewer), [200, 403, 403, 403]);
      assert.deepEqual(await statuses(reader), [403, 200, 403, 403]);
      assert.deepEqual(await snapshot(t, id, ann.id), untouched, 'nothing was processed');
      assert.deepEqual(await statuses(processor), [403, 403, 200]);
      assert.equal(expectStatus(await call('POST', `admin/deletion-requests/${id}/process/`, processor, PHRASE), 200).request.status, 'completed');
    });

    it('lets an agent list, but holds both processing routes for the delegating user\'s approval (202)', async () => {
      const ann = await createUser(t, { email: 'ann@example.com' });
      const id = await deletionRequest(t, ann, { status: 'confirmed', graceEndsAt: addSeconds(NOW, -60) });
      const { token } = await delegate(t, admin, { permissions: ['gdpr.view', 'gdpr.process'] });
      const agent = agentApi(t);
      assert.equal(expectStatus(await agent('GET', 'admin/deletion-requests/', token), 200).count, 1);
      assert.equal(expectStatus(await agent('POST', `admin/deletion-requests/${id}/process/`, token, PHRASE), 202).status, 'pending_confirmation');
      assert.equal(expectStatus(await agent('POST', 'admin/deletion-requests/process-expired/', token), 202).status, 'pending_confirmation');
      assert.equal(expectStatus(await call('GET', `admin/deletion-requests/${id}/`), 200).status, 'confirmed');
    });
  });

  describe('POST admin/deletion-requests/<id>/process/', () => {
    it('answers 400 CONFIRMATION_REQUIRED without the exact phrase (checked before the request), and changes nothing', async () => {
      const ann = await createUser(t, { email: 'ann@example.com' });
      const id = await deletionRequest(t, ann, { status: 'confirmed' });
      const untouched = await snapshot(t, id, ann.id);
      for (const payload of [undefined, {}, { confirmation: 'permanently delete' }, { confirmation: 'PERMANENTLY DELETE ' }, { confirmation: 'DELETE' }]) {
        assert.deepEqual(expectStatus(await call('POST', `admin/deletion-requests/${id}/process/`, admin, payload), 400), CONFIRMATION_REQUIRED);
      }
      assert.deepEqual(expectStatus(await call('POST', `admin/deletion-requests/${id + 1}/process/`, admin, {}), 400), CONFIRMATION_REQUIRED);
      assert.deepEqual(expectStatus(await call('POST', `admin/deletion-requests/${id + 1}/process/`, admin, PHRASE), 404), NOT_FOUND);
      assert.equal(expectStatus(await call('POST', `admin/deletion-requests/${id}/process/`, admin, { ...PHRASE, force: true }), 400).code,
        'VALIDATION_ERROR');
      assert.deepEqual(await snapshot(t, id, ann.id), untouched);
    });

    it('answers 400 REQUEST_NOT_CONFIRMED for a pending, confirmation_sent, cancelled or completed request, and changes nothing', async () => {
      for (const status of ['pending', 'confirmation_sent', 'cancelled', 'completed'] as const) {
        const user = await createUser(t);
        const id = await deletionRequest(t, user, { status, graceEndsAt: addSeconds(NOW, -DAY) });
        const untouched = await snapshot(t, id, user.id);
        assert.deepEqual(expectStatus(await call('POST', `admin/deletion-requests/${id}/process/`, admin, PHRASE), 400), NOT_CONFIRMED, status);
        assert.deepEqual(await snapshot(t, id, user.id), untouched, status);
      }
      assert.deepEqual(await auditEvents(t, 'account_deleted'), []);
    });

    it('completes a request once: a second process, even a parallel one, answers 400 REQUEST_NOT_CONFIRMED', async () => {
      const ann = await createUser(t, { email: 'ann@example.com' });
      const id = await deletionRequest(t, ann, { status: 'confirmed' });
      const path = `admin/deletion-requests/${id}/process/`;
      const answers = await Promise.all([call('POST', path, admin, PHRASE), call('POST', path, admin, PHRASE)]);
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 400]);
      assert.deepEqual(answers.find((r) => r.statusCode === 400)!.json(), NOT_CONFIRMED);
      await t.container.services.outbox.flush(); // the completion's notice leaves in the background: let it go before counting
      const after = await snapshot(t, id, ann.id);
      assert.deepEqual(expectStatus(await call('POST', path, admin, PHRASE), 400), NOT_CONFIRMED);
      assert.deepEqual(await snapshot(t, id, ann.id), after);
      assert.equal((await auditEvents(t, 'account_deleted')).length, 1);
      await t.container.services.outbox.flush();
      assert.equal(t.container.inbox.emails.filter((m) => m.purpose === 'deletion_completed').length, 1);
    });

    it('anonymizes the account column by column and removes or rewrites its data in every other table', async () => {
      const erin = await personWithData(t);
      const anonymized = `deleted-${erin.user.id}@invalid`;
      const body = expectStatus(await call('POST', `admin/deletion-requests/${erin.request}/process/`, admin,
        { ...PHRASE, admin_notes: '  Grace period over; ticket 118  ' }), 200);
      const [deleted] = await t.container.db.selectFrom('audit_events').select(['id', 'severity', 'user_id', 'actor_id', 'ip_address', 'details'])
        .where('event_type', '=', 'account_deleted').execute();
      assert.deepEqual(deleted, { id: deleted!.id, severity: 'warning', user_id: erin.user.id, actor_id: admin.id, ip_address: '127.0.0.1',
        details: { deletion_request_id: erin.request, by: 'administrator', user_notified: true } });
      assert.deepEqual(body, {
        message: 'Account deleted: its personal data is anonymized', deletion_completed: true, processed_at: NOW.toISOString(),
        data_anonymized: true, audit_log_id: deleted!.id, user_notified: true,
        request: {
          id: erin.request, user: erin.user.id, user_email: null, status: 'completed', requested_at: addSeconds(NOW, -31 * DAY).toISOString(),
          confirmed_at: addSeconds(NOW, -31 * DAY + 60).toISOString(), grace_period_ends_at: addSeconds(NOW, -DAY).toISOString(),
          completed_at: NOW.toISOString(), ip_address: null, reason: 'Moving on', admin_notes: 'Grace period over; ticket 118',
          processed_by: admin.id, processed_by_email: 'gdpr-admin@example.com', is_grace_period_expired: true,
        },
      });

      const db = t.container.db;
      const user = await userRow(t, erin.user.id);
      assert.deepEqual({ ...user, created_at: null }, {
        ...user, created_at: null, email: anonymized, username: null, phone: null, first_name: 'Deleted', last_name: 'User', avatar: null,
        bio: null, timezone: null, language: null, custom_fields: null, password_hash: null, password_hash_unnormalized: false,
        has_usable_password: false, is_2fa_enabled: false, is_email_verified: false, is_phone_verified: false, is_active: false,
        is_staff: false, is_superuser: false, ban_reason: null, locked_until: null, failed_login_count: 0, lockout_count: 0,
        must_change_password: false, tokens_valid_after: NOW, deleted_at: NOW, deletion_scheduled_at: null, updated_at: NOW,
      });
      const countOf = async (table: 'sessions' | 'refresh_tokens' | 'totp_credentials' | 'backup_codes' | 'password_history' | 'otp_codes'
        | 'magic_links' | 'agent_tokens' | 'agent_pending_actions' | 'organization_members' | 'user_roles' | 'user_permissions'
        | 'social_accounts' | 'social_mfa_tokens' | 'webauthn_credentials' | 'webauthn_challenges') =>
        (await db.selectFrom(table).select('user_id').where('user_id', '=', erin.user.id).execute()).length;
      for (const table of ['sessions', 'refresh_tokens', 'totp_credentials', 'backup_codes', 'password_history', 'otp_codes', 'magic_links',
        'agent_tokens', 'agent_pending_actions', 'organization_members', 'user_roles', 'user_permissions', 'social_accounts',
        'social_mfa_tokens', 'webauthn_credentials', 'webauthn_challenges'] as const) {
        assert.equal(await countOf(table), 0, table);
      }
      const invitations = await db.selectFrom('organization_invitations').select(['id', 'status']).orderBy('id').execute();
      assert.deepEqual(invitations, [{ id: erin.invitations.fromErinPending, status: 'revoked' }, { id: erin.invitations.fromErinAccepted, status: 'accepted' }]);
      assert.deepEqual(await db.selectFrom('organization_members').select('user_id').execute(), [{ user_id: erin.other.id }]);
      assert.deepEqual(await db.selectFrom('login_attempts').select(['identifier', 'user_id', 'ip_address'])
        .where('identifier', '<>', 'gdpr-admin@example.com').orderBy('id').execute(), [
        { identifier: anonymized, user_id: erin.user.id, ip_address: null }, { identifier: anonymized, user_id: erin.user.id, ip_address: null },
        { identifier: anonymized, user_id: null, ip_address: null },
        { identifier: anonymized, user_id: null, ip_address: null }, { identifier: 'olaf@example.com', user_id: erin.other.id, ip_address: '192.0.2.50' },
      ]);
      assert.deepEqual(await db.selectFrom('identifier_lockouts').select('identifier').execute(), [{ identifier: 'nobody@example.com' }]);
      const events = await db.selectFrom('audit_events').select(['event_type', 'user_id', 'actor_id', 'ip_address', 'user_agent', 'details'])
        .where('event_type', 'in', ['login', 'role_created', 'organization_invitation_created']).orderBy('id').execute();
      assert.deepEqual(events, [
        { event_type: 'login', user_id: erin.user.id, actor_id: null, ip_address: ERIN.ip, user_agent: ERIN.userAgent, details: { method: 'email' } },
        { event_type: 'role_created', user_id: null, actor_id: erin.user.id, ip_address: ERIN.ip, user_agent: ERIN.userAgent, details: { code: 'x' } },
        { event_type: 'organization_invitation_created', user_id: null, actor_id: erin.other.id, ip_address: '192.0.2.50', user_agent: 'OlafBrowser',
          details: { invitation_id: erin.invitations.toErinPending, email: anonymized, note: `invited ${anonymized} by phone [deleted]` } },
        { event_type: 'login', user_id: erin.other.id, actor_id: null, ip_address: '192.0.2.50', user_agent: 'OlafBrowser', details: { method: 'email' } },
      ]);
      const requests = await db.selectFrom('account_deletion_requests').select(['id', 'user_email', 'ip_address', 'status']).orderBy('id').execute();
      assert.deepEqual(requests, [{ id: erin.cancelled, user_email: null, ip_address: null, status: 'cancelled' },
        { id: erin.request, user_email: null, ip_address: null, status: 'completed' }]);

      await t.container.services.outbox.flush();
      const [mail, ...more] = t.container.inbox.emails.filter((m) => m.purpose === 'deletion_completed');
      assert.deepEqual([mail?.to, mail?.subject, more.length], [ERIN.email, 'Votre compte a été supprimé', 0]);
      assert.match(mail!.text, /2025-03-01/);
      assert.deepEqual(await db.selectFrom('outbox_messages').select(['recipient', 'purpose']).where('recipient', '<>', 'gdpr-admin@example.com')
        .execute(), [{ recipient: 'olaf@example.com', purpose: 'otp' }], 'the last message is removed once sent');

      for (const needle of [ERIN.email, ERIN.phone, ERIN.lastName, ERIN.firstName, 'Aarhus', 'erin-phone', 'Erin phone']) {
        assert.deepEqual(await columnsContaining(t, needle), [], needle);
      }
      assert.deepEqual(await columnsContaining(t, ERIN.ip), ['audit_events.ip_address'], 'SVC_PURGE_IP_ON_DELETION is off');
      assert.deepEqual(await columnsContaining(t, ERIN.userAgent), ['audit_events.user_agent']);
    });

    it('the outbox removes the row of a last message it gives up on, as it does once one is sent', async () => {
      const outbox = t.container.services.outbox;
      await t.container.db.transaction().execute((trx) => outbox.enqueue(trx, { channel: 'email', to: 'gone@example.com',
        purpose: 'deletion_completed', vars: { date: '2025-03-01' }, expiresAt: addSeconds(NOW, -1) }));
      assert.deepEqual(await outbox.flush(), { sent: 0, retried: 0, failed: 0, expired: 1, dropped: 0 });
      assert.deepEqual(await columnsContaining(t, 'gone@example.com'), []);
      assert.deepEqual(t.container.inbox.emails, []);
    });

    it('notifies an account without an email address by SMS, and removes that message once sent', async () => {
      const phone = '+33612345678';
      const user = await createUser(t, { email: null, phone, password: null });
      const id = await deletionRequest(t, { id: user.id, email: null }, { status: 'confirmed' });
      assert.equal(expectStatus(await call('POST', `admin/deletion-requests/${id}/process/`, admin, PHRASE), 200).user_notified, true);
      await t.container.services.outbox.flush();
      assert.deepEqual(t.container.inbox.sms.map((m) => m.to), [phone]);
      assert.deepEqual(await columnsContaining(t, phone), []);
      assert.equal((await userRow(t, user.id)).email, `deleted-${user.id}@invalid`);
    });
  });
});

describe('admin deletion requests with SVC_PURGE_IP_ON_DELETION', () => {
  const f = fixture({ SVC_PURGE_IP_ON_DELETION: 'true' });

  it('also blanks the IP address and user agent of every audit row by or about the person, and only those', async () => {
    const { t, admin } = f;
    const erin = await personWithData(t);
    expectStatus(await t.api({ method: 'POST', path: `admin/deletion-requests/${erin.request}/process/`, token: admin.token, payload: PHRASE }), 200);
    const rows = await t.container.db.selectFrom('audit_events').select(['event_type', 'user_id', 'actor_id', 'ip_address', 'user_agent'])
      .where('event_type', 'in', ['login', 'role_created', 'organization_invitation_created', 'account_deleted']).orderBy('id').execute();
    assert.deepEqual(rows, [
      { event_type: 'login', user_id: erin.user.id, actor_id: null, ip_address: null, user_agent: null },
      { event_type: 'role_created', user_id: null, actor_id: erin.user.id, ip_address: null, user_agent: null },
      { event_type: 'organization_invitation_created', user_id: null, actor_id: erin.other.id, ip_address: '192.0.2.50', user_agent: 'OlafBrowser' },
      { event_type: 'login', user_id: erin.other.id, actor_id: null, ip_address: '192.0.2.50', user_agent: 'OlafBrowser' },
      { event_type: 'account_deleted', user_id: erin.user.id, actor_id: admin.id, ip_address: '127.0.0.1', user_agent: 'lightMyRequest' },
    ]);
    for (const needle of [ERIN.ip, ERIN.userAgent, ERIN.email]) assert.deepEqual(await columnsContaining(t, needle), [], needle);
  });
});
