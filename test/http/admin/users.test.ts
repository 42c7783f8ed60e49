import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { RowUpdate } from '../../../src/db/database.js';
import { assignRole, createRole, grantDirect } from '../../factories/rbac.js';
import { createUser, DEFAULT_PASSWORD, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus, NOT_FOUND, permissionDenied, refusedBecause } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const TOKEN_BLACKLISTED = { error: 'Token has been revoked', code: 'TOKEN_BLACKLISTED' };

describe('admin/users/', () => {
  const t = useTestApp({ now: NOW, env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let root: Account;
  let admin: Account;
  beforeEach(async () => {
    root = await account(t, { email: 'root@example.com', is_superuser: true });
    admin = await account(t, { email: 'admin@example.com', roles: ['admin'] });
  });

  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const api = (method: Method, path: string, payload?: object, token = admin.token) => t.api({ method, path, token, payload });
  const emails = async (query: string) =>
    expectStatus(await api('GET', `admin/users/${query}`), 200).results.map((u: { email: string }) => u.email);
  const login = (user: { email: string | null }) =>
    t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: DEFAULT_PASSWORD } });
  const setRow = (id: number, values: RowUpdate<'users'>) =>
    t.container.db.updateTable('users').set(values).where('id', '=', id).execute();

  describe('GET admin/users/', () => {
    it('answers a page of accounts, newest first, each with its role codes and state flags', async () => {
      const ann = await createUser(t, { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee', roles: ['admin'] });
      await setRow(ann.id, { created_at: '2025-02-01T00:00:00Z' });
      await setRow(root.id, { created_at: '2025-01-01T00:00:00Z' });
      await setRow(admin.id, { created_at: '2025-01-02T00:00:00Z' });
      const body = expectStatus(await api('GET', 'admin/users/'), 200);
      assert.equal(body.count, 3);
      assert.deepEqual(body.results[0], {
        id: ann.id, email: 'ann@example.com', username: null, phone: null, first_name: 'Ann', last_name: 'Lee',
        is_active: true, is_staff: false, is_superuser: false, is_banned: false, is_locked: false, locked_until: null,
        is_deleted: false, is_email_verified: false, is_phone_verified: false, is_2fa_enabled: false, must_change_password: false,
        roles: ['admin', 'user'], created_at: '2025-02-01T00:00:00.000Z', last_login: null,
      });
      assert.deepEqual(body.results.map((u: { email: string }) => u.email), ['ann@example.com', 'admin@example.com', 'root@example.com']);
    });

    it('filters by search, is_active, is_locked, is_banned, is_deleted, is_staff, is_superuser and role', async () => {
      await createRole(t.container.db, 'support');
      const a = await createUser(t, { email: 'alice@example.com', first_name: 'Alice', is_staff: true });
      await createUser(t, { email: 'bob@example.com', last_name: 'Builder', is_active: false });
      await createUser(t, { email: 'carol@example.com', username: 'carol_c', is_banned: true });
      const d = await createUser(t, { email: 'dave@example.com', locked_until: new Date(NOW.getTime() + 60_000) });
      await createUser(t, { email: 'erin@example.com', locked_until: new Date(NOW.getTime() - 60_000), phone: '+14155552671' });
      await createUser(t, { email: 'gone@example.com', deleted_at: NOW });
      await assignRole(t.container.db, a.id, 'support');
      await assignRole(t.container.db, d.id, 'support');
      const sorted = async (q: string) => (await emails(`?ordering=email&${q}`));
      assert.deepEqual(await sorted('search=ALICE'), ['alice@example.com']);
      assert.deepEqual(await sorted('search=builder'), ['bob@example.com']);
      assert.deepEqual(await sorted('search=carol_c'), ['carol@example.com']);
      assert.deepEqual(await sorted('search=555267'), ['erin@example.com']);
      assert.deepEqual(await sorted('is_active=false'), ['bob@example.com']);
      assert.equal((await sorted('is_active=true')).length, 6);
      assert.deepEqual(await sorted('is_locked=true'), ['dave@example.com']);
      assert.equal((await sorted('is_locked=false')).includes('erin@example.com'), true);
      assert.equal((await sorted('is_locked=false')).includes('dave@example.com'), false);
      assert.deepEqual(await sorted('is_banned=true'), ['carol@example.com']);
      assert.deepEqual(await sorted('is_deleted=true'), ['gone@example.com']);
      assert.equal((await sorted('is_deleted=false')).includes('gone@example.com'), false);
      assert.equal((await sorted('')).includes('gone@example.com'), false);
      assert.deepEqual(await sorted('is_staff=true'), ['alice@example.com']);
      assert.deepEqual(await sorted('is_superuser=true'), ['root@example.com']);
      assert.deepEqual(await sorted('role=support'), ['alice@example.com', 'dave@example.com']);
      assert.deepEqual(await sorted('role=admin'), ['admin@example.com']);
      assert.deepEqual(await sorted('role=nobody'), []);
      assert.deepEqual(await sorted('is_banned=true&is_active=false'), []);
    });

    it('filters by date_from and date_to (UTC days, both inclusive)', async () => {
      const jan = await createUser(t, { email: 'jan@example.com' });
      const feb = await createUser(t, { email: 'feb@example.com' });
      await setRow(jan.id, { created_at: '2025-01-31T23:59:59Z' });
      await setRow(feb.id, { created_at: '2025-02-01T00:00:00Z' });
      await setRow(root.id, { created_at: '2024-12-01T00:00:00Z' });
      await setRow(admin.id, { created_at: '2024-12-01T00:00:00Z' });
      assert.deepEqual(await emails('?date_from=2025-02-01'), ['feb@example.com']);
      assert.deepEqual(await emails('?date_to=2025-01-31&date_from=2025-01-31'), ['jan@example.com']);
      assert.deepEqual(await emails('?date_from=2025-01-01&date_to=2025-02-01'), ['feb@example.com', 'jan@example.com']);
      assert.deepEqual(expectStatus(await api('GET', 'admin/users/?date_from=2025-02-02&date_to=2025-02-01'), 400).details,
        { date_to: ['Must not be before date_from.'] });
      assert.deepEqual(expectStatus(await api('GET', 'admin/users/?date_from=2025-02-30'), 400).details, { date_from: ['Must be a valid date.'] });
      assert.deepEqual(expectStatus(await api('GET', 'admin/users/?date_from=yesterday'), 400).details, { date_from: ['Must be a valid date.'] });
    });

    it('orders by every allowed value, ascending or descending with -', async () => {
      const x = await createUser(t, { email: 'x@example.com', first_name: 'Bea', last_name: 'Adams' });
      const y = await createUser(t, { email: 'y@example.com', first_name: 'Al', last_name: 'Cole' });
      const z = await createUser(t, { email: 'z@example.com', first_name: 'Cy', last_name: 'Bell' });
      await setRow(x.id, { created_at: '2025-01-03T00:00:00Z', last_login: '2025-02-01T00:00:00Z' });
      await setRow(y.id, { created_at: '2025-01-01T00:00:00Z', last_login: null });
      await setRow(z.id, { created_at: '2025-01-02T00:00:00Z', last_login: '2025-02-02T00:00:00Z' });
      const ours = async (ordering: string) => (await emails(`?ordering=${ordering}&search=@example.com`))
        .filter((e: string) => ['x@example.com', 'y@example.com', 'z@example.com'].includes(e));
      const expected: Record<string, string[]> = {
        created_at: ['y', 'z', 'x'], '-created_at': ['x', 'z', 'y'], email: ['x', 'y', 'z'], '-email': ['z', 'y', 'x'],
        first_name: ['y', 'x', 'z'], '-first_name': ['z', 'x', 'y'], last_name: ['x', 'z', 'y'], '-last_name': ['y', 'z', 'x'],
        last_login: ['x', 'z', 'y'], '-last_login': ['z', 'x', 'y'],
      };
      for (const [ordering, order] of Object.entries(expected)) {
        assert.deepEqual(await ours(ordering), order.map((c) => `${c}@example.com`), ordering);
      }
      assert.deepEqual(expectStatus(await api('GET', 'admin/users/?ordering=password_hash'), 400).details, {
        ordering: ['Must be one of: created_at, -created_at, email, -email, last_login, -last_login, first_name, -first_name, last_name, -last_name.'] });
    });

    it('refuses unknown parameters and non-boolean flags, and clamps page_size to 100', async () => {
      assert.deepEqual(expectStatus(await api('GET', 'admin/users/?is_admin=true'), 400).details, { is_admin: ['Unknown field.'] });
      assert.deepEqual(expectStatus(await api('GET', 'admin/users/?is_locked=1'), 400).details, { is_locked: ['Must be of type boolean.'] });
      assert.equal(expectStatus(await api('GET', 'admin/users/?page_size=101'), 200).page_size, 100);
    });
  });

  describe('GET admin/users/<id>/', () => {
    it('answers the account with its effective permissions, never a secret', async () => {
      const user = await createUser(t, { email: 'pat@example.com', roles: ['admin'], must_change_password: true });
      const body = expectStatus(await api('GET', `admin/users/${user.id}/`), 200);
      assert.deepEqual(Object.keys(body).sort(), ['ban_reason', 'banned_at', 'created_at', 'deleted_at', 'email', 'failed_login_count', 'first_name',
        'has_usable_password', 'id', 'is_2fa_enabled', 'is_active', 'is_banned', 'is_deleted', 'is_email_verified', 'is_locked', 'is_phone_verified',
        'is_staff', 'is_superuser', 'last_login', 'last_name', 'locked_until', 'max_devices', 'max_sessions', 'must_change_password',
        'permissions', 'phone', 'roles', 'updated_at', 'username']);
      assert.equal(body.id, user.id);
      assert.equal(body.must_change_password, true);
      assert.equal(body.has_usable_password, true);
      assert.deepEqual(body.roles, ['admin', 'user']);
      assert.equal(body.permissions.length, 15);
      assert.equal(JSON.stringify(body).includes('argon2'), false);
    });

    it('answers 404 NOT_FOUND for a missing or malformed id', async () => {
      assert.deepEqual(expectStatus(await api('GET', 'admin/users/999999/'), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('GET', 'admin/users/abc/'), 404), NOT_FOUND);
    });
  });

  describe('PATCH admin/users/<id>/', () => {
    let target: TestUser;
    beforeEach(async () => { target = await createUser(t, { email: 'target@example.com' }); });

    it('changes names, must_change_password and limits, and lists updated_fields', async () => {
      const body = expectStatus(await api('PATCH', `admin/users/${target.id}/`, {
        first_name: 'Tara', last_name: 'Get', must_change_password: true, max_sessions: 3, max_devices: null, is_active: true }), 200);
      assert.equal(body.message, 'User updated');
      assert.deepEqual(body.updated_fields, ['first_name', 'last_name', 'must_change_password', 'max_sessions']);
      assert.deepEqual([body.user.first_name, body.user.last_name, body.user.must_change_password, body.user.max_sessions, body.user.max_devices],
        ['Tara', 'Get', true, 3, null]);
      assert.equal((await login(target)).json().must_change_password, true);
      const [event] = await auditEvents(t, 'user_updated');
      assert.deepEqual([event?.user_id, event?.actor_id, event?.details.fields], [target.id, admin.id,
        ['first_name', 'last_name', 'must_change_password', 'max_sessions']]);
    });

    it('answers 400 validation for unknown fields and out-of-range limits', async () => {
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${target.id}/`, { email: 'x@example.com' }), 400).details, { email: ['Unknown field.'] });
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${target.id}/`, { max_sessions: -1 }), 400).details, { max_sessions: ['Must be at least 0.'] });
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${target.id}/`, { is_active: 'false' }), 400).details, { is_active: ['Must be of type boolean.'] });
    });

    it('deactivation ends every session of the account: its access token is refused and it cannot sign in', async () => {
      const { token } = { token: (await login(target)).json().access_token as string };
      assert.equal((await t.api({ method: 'GET', path: 'me/', token })).statusCode, 200);
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${target.id}/`, { is_active: false }), 200).updated_fields, ['is_active']);
      assert.deepEqual(expectStatus(await t.api({ method: 'GET', path: 'me/', token }), 401), TOKEN_BLACKLISTED);
      assert.equal((await login(target)).json().code, 'LOGIN_FAILED');
      const row = await userRow(t, target.id);
      assert.equal(row.is_active, false);
      assert.notEqual(row.tokens_valid_after, null);
      expectStatus(await api('PATCH', `admin/users/${target.id}/`, { is_active: true }), 200);
      assert.equal((await login(target)).statusCode, 200);
    });

    it('is_staff and is_superuser change only by a superuser', async () => {
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${target.id}/`, { is_staff: true }), 403), refusedBecause('superuser_required'));
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${target.id}/`, { is_superuser: true }), 403), refusedBecause('superuser_required'));
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${target.id}/`, { is_staff: false, first_name: 'Same' }), 200).updated_fields, ['first_name']);
      const body = expectStatus(await api('PATCH', `admin/users/${target.id}/`, { is_staff: true, is_superuser: true }, root.token), 200);
      assert.deepEqual([body.user.is_staff, body.user.is_superuser], [true, true]);
      const [, event] = await auditEvents(t, 'user_updated');
      assert.equal(event?.severity, 'warning');
    });

    it('a superuser account is changed only by a superuser', async () => {
      const other = await createUser(t, { is_superuser: true });
      for (const [method, path, payload] of [['PATCH', 'admin/users/:id/', { first_name: 'X' }], ['DELETE', 'admin/users/:id/'],
        ['POST', 'admin/users/:id/ban/', {}], ['POST', 'admin/users/:id/unban/'], ['POST', 'admin/users/:id/lock/', {}],
        ['POST', 'admin/users/:id/unlock/']] as const) {
        assert.deepEqual(expectStatus(await api(method, path.replace(':id', String(other.id)), payload), 403), refusedBecause('superuser_required'), `${method} ${path}`);
      }
      expectStatus(await api('PATCH', `admin/users/${other.id}/`, { first_name: 'X' }, root.token), 200);
    });

    it('nobody deactivates, demotes, bans, locks or deletes their own account', async () => {
      for (const actor of [admin, root]) {
        assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${actor.id}/`, { is_active: false }, actor.token), 403), refusedBecause('own_account'));
        for (const action of ['ban', 'lock']) {
          assert.deepEqual(expectStatus(await api('POST', `admin/users/${actor.id}/${action}/`, {}, actor.token), 403), refusedBecause('own_account'));
        }
        assert.deepEqual(expectStatus(await api('DELETE', `admin/users/${actor.id}/`, undefined, actor.token), 403), refusedBecause('own_account'));
      }
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${root.id}/`, { is_superuser: false }, root.token), 403), refusedBecause('own_account'));
      assert.deepEqual(expectStatus(await api('PATCH', `admin/users/${admin.id}/`, { first_name: 'Me' }), 200).updated_fields, ['first_name']);
    });

    it('answers 404 NOT_FOUND for every action on a missing account', async () => {
      for (const [method, path, payload] of [['PATCH', 'admin/users/999999/', {}], ['DELETE', 'admin/users/999999/'],
        ['POST', 'admin/users/999999/ban/', {}], ['POST', 'admin/users/999999/unban/'], ['POST', 'admin/users/999999/lock/', {}],
        ['POST', 'admin/users/999999/unlock/']] as const) {
        assert.deepEqual(expectStatus(await api(method, path, payload), 404), NOT_FOUND, `${method} ${path}`);
      }
    });
  });

  describe('ban, unban, lock, unlock, delete', () => {
    let target: TestUser;
    let token: string;
    beforeEach(async () => {
      target = await createUser(t, { email: 'target@example.com' });
      token = (await login(target)).json().access_token;
    });

    it('ban sets is_banned, banned_at and the reason, ends every session, and sign-in fails; unban restores it', async () => {
      const body = expectStatus(await api('POST', `admin/users/${target.id}/ban/`, { reason: 'fraud' }), 200);
      assert.equal(body.message, 'User banned');
      assert.equal(body.sessions_revoked, 1);
      assert.deepEqual([body.user.is_banned, body.user.banned_at, body.user.ban_reason], [true, NOW.toISOString(), 'fraud']);
      assert.deepEqual(expectStatus(await t.api({ method: 'GET', path: 'me/', token }), 401), TOKEN_BLACKLISTED);
      assert.equal((await login(target)).json().code, 'LOGIN_FAILED');
      const [event] = await auditEvents(t, 'user_banned');
      assert.deepEqual([event?.user_id, event?.actor_id, event?.severity, event?.details.reason], [target.id, admin.id, 'warning', 'fraud']);

      const unbanned = expectStatus(await api('POST', `admin/users/${target.id}/unban/`), 200);
      assert.deepEqual([unbanned.message, unbanned.user.is_banned, unbanned.user.banned_at, unbanned.user.ban_reason], ['User unbanned', false, null, null]);
      assert.equal((await login(target)).statusCode, 200);
      assert.equal(expectStatus(await api('POST', `admin/users/${target.id}/unban/`), 200).message, 'User was not banned');
      assert.deepEqual(expectStatus(await api('POST', `admin/users/${target.id}/unban/`, { reason: 'x' }), 400).details, { reason: ['Unknown field.'] });
      assert.deepEqual(expectStatus(await api('POST', `admin/users/${target.id}/ban/`, { reason: 'x', days: 3 }), 400).details, { days: ['Unknown field.'] });
    });

    it('ban of a banned account keeps the first banned_at', async () => {
      expectStatus(await api('POST', `admin/users/${target.id}/ban/`, {}), 200);
      t.clock.advance(600);
      const again = expectStatus(await api('POST', `admin/users/${target.id}/ban/`, { reason: 'still' }), 200);
      assert.deepEqual([again.user.banned_at, again.user.ban_reason, again.sessions_revoked], [NOW.toISOString(), 'still', 0]);
    });

    it('lock sets locked_until (30 minutes by default), ends every session, and sign-in answers 423 until it ends', async () => {
      const body = expectStatus(await api('POST', `admin/users/${target.id}/lock/`, { reason: 'investigation' }), 200);
      const until = new Date(NOW.getTime() + 30 * 60_000).toISOString();
      assert.deepEqual([body.message, body.sessions_revoked, body.user.is_locked, body.user.locked_until], ['User locked', 1, true, until]);
      assert.deepEqual(expectStatus(await t.api({ method: 'GET', path: 'me/', token }), 401), TOKEN_BLACKLISTED);
      const refused = expectStatus(await login(target), 423);
      assert.deepEqual(refused, { error: 'Account temporarily locked after too many failed attempts', code: 'ACCOUNT_LOCKED', retry_after: 1800 });
      assert.deepEqual(await emails('?is_locked=true'), ['target@example.com']);
      t.clock.advance(30 * 60 + 1);
      assert.equal((await login(target)).statusCode, 200);
    });

    it('lock takes duration_minutes (1 to 43200); unlock lifts it at once', async () => {
      const body = expectStatus(await api('POST', `admin/users/${target.id}/lock/`, { duration_minutes: 5 }), 200);
      assert.equal(body.user.locked_until, new Date(NOW.getTime() + 5 * 60_000).toISOString());
      assert.deepEqual(expectStatus(await api('POST', `admin/users/${target.id}/lock/`, { duration_minutes: 0 }), 400).details, { duration_minutes: ['Must be at least 1.'] });
      assert.deepEqual(expectStatus(await api('POST', `admin/users/${target.id}/lock/`, { duration_minutes: 43_201 }), 400).details, { duration_minutes: ['Must be at most 43200.'] });
      const unlocked = expectStatus(await api('POST', `admin/users/${target.id}/unlock/`), 200);
      assert.deepEqual([unlocked.message, unlocked.user.is_locked, unlocked.user.locked_until, unlocked.user.failed_login_count], ['User unlocked', false, null, 0]);
      assert.equal((await login(target)).statusCode, 200);
      assert.equal(expectStatus(await api('POST', `admin/users/${target.id}/unlock/`), 200).message, 'User was not locked');
    });

    it('unlock also lifts a lock set by failed sign-ins', async () => {
      for (let i = 0; i < 10; i++) await t.api({ method: 'POST', path: 'login/email/', payload: { email: target.email, password: 'wrong password' } });
      assert.equal((await login(target)).statusCode, 423);
      expectStatus(await api('POST', `admin/users/${target.id}/unlock/`), 200);
      assert.equal((await login(target)).statusCode, 200);
    });

    it('DELETE soft-deletes: the account stays readable, leaves the default listing, its tokens and sign-in fail', async () => {
      assert.deepEqual(expectStatus(await api('DELETE', `admin/users/${target.id}/`), 200), { message: 'User deleted' });
      assert.deepEqual(expectStatus(await t.api({ method: 'GET', path: 'me/', token }), 401), TOKEN_BLACKLISTED);
      assert.equal((await login(target)).json().code, 'LOGIN_FAILED');
      const body = expectStatus(await api('GET', `admin/users/${target.id}/`), 200);
      assert.deepEqual([body.is_deleted, body.deleted_at, body.is_active], [true, NOW.toISOString(), false]);
      assert.equal((await emails('')).includes('target@example.com'), false);
      assert.deepEqual(await emails('?is_deleted=true'), ['target@example.com']);
      assert.deepEqual(expectStatus(await api('DELETE', `admin/users/${target.id}/`), 200), { message: 'User deleted' });
      assert.equal((await auditEvents(t, 'user_deleted')).length, 1);
    });

    it('users.view reads but cannot change accounts', async () => {
      const viewer = await account(t);
      await grantDirect(t, viewer.id, ['users.view']);
      expectStatus(await api('GET', `admin/users/${target.id}/`, undefined, viewer.token), 200);
      assert.deepEqual(expectStatus(await api('POST', `admin/users/${target.id}/ban/`, {}, viewer.token), 403), permissionDenied('users.manage'));
      assert.equal((await userRow(t, target.id)).is_banned, false);
    });
  });
});
