import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createPermission, createRole, grantDirect } from '../../factories/rbac.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus, NOT_FOUND, permissionDenied, refusedBecause } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

describe('users/<id>/roles/ and users/<id>/permissions/', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let root: Account;
  let target: TestUser;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
    for (const code of ['reports', 'billing.view']) await createPermission(t.container.db, code);
    await createPermission(t.container.db, 'reports.view', 'reports');
    await createRole(t.container.db, 'analyst', ['reports.view']);
    await createRole(t.container.db, 'finance', ['billing.view']);
    target = await createUser(t);
  });

  const api = (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object, token = root.token) => t.api({ method, path, token, payload });
  const roleId = async (code: string) =>
    String((await t.container.db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);

  describe('roles', () => {
    it('GET answers {user_id (integer), roles[{id, code, name, is_default}]}', async () => {
      assert.deepEqual(expectStatus(await api('GET', `users/${target.id}/roles/`), 200),
        { user_id: target.id, roles: [{ id: await roleId('user'), code: 'user', name: 'User', is_default: true }] });
    });

    it('POST assigns the role named by role_code and answers {message, roles (codes)}', async () => {
      assert.deepEqual(expectStatus(await api('POST', `users/${target.id}/roles/`, { role_code: 'analyst' }), 200),
        { message: 'Role assigned', roles: ['analyst', 'user'] });
      assert.deepEqual(expectStatus(await api('POST', `users/${target.id}/roles/`, { role_code: 'analyst' }), 200),
        { message: 'Role already assigned', roles: ['analyst', 'user'] });
      const [event] = await auditEvents(t, 'user_role_assigned');
      assert.deepEqual([event?.user_id, event?.actor_id, event?.severity, event?.details.role], [target.id, root.id, 'warning', 'analyst']);
    });

    it('POST answers 404 ROLE_NOT_FOUND for an unknown role, 404 NOT_FOUND for an unknown user, 400 without role_code', async () => {
      assert.deepEqual(expectStatus(await api('POST', `users/${target.id}/roles/`, { role_code: 'ghost' }), 404), { error: 'Role not found', code: 'ROLE_NOT_FOUND' });
      assert.deepEqual(expectStatus(await api('POST', 'users/999999/roles/', { role_code: 'analyst' }), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('POST', `users/${target.id}/roles/`, {}), 400).details, { role_code: ['This field is required.'] });
    });

    it('DELETE ?role_code= removes the role; 400 MISSING_PARAM without it; 404 for an unknown user or role', async () => {
      expectStatus(await api('POST', `users/${target.id}/roles/`, { role_code: 'analyst' }), 200);
      assert.deepEqual(expectStatus(await api('DELETE', `users/${target.id}/roles/?role_code=analyst`), 200), { message: 'Role removed', roles: ['user'] });
      assert.deepEqual(expectStatus(await api('DELETE', `users/${target.id}/roles/?role_code=analyst`), 200), { message: 'Role not assigned', roles: ['user'] });
      assert.deepEqual(expectStatus(await api('DELETE', `users/${target.id}/roles/`), 400),
        { error: 'role_code query parameter is required', code: 'MISSING_PARAM' });
      assert.deepEqual(expectStatus(await api('DELETE', `users/${target.id}/roles/?role_code=`), 400).code, 'MISSING_PARAM');
      assert.deepEqual(expectStatus(await api('DELETE', 'users/999999/roles/?role_code=analyst'), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('DELETE', `users/${target.id}/roles/?role_code=ghost`), 404).code, 'ROLE_NOT_FOUND');
    });

    it('GET answers 404 NOT_FOUND for an unknown or malformed user id', async () => {
      assert.deepEqual(expectStatus(await api('GET', 'users/999999/roles/'), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('GET', 'users/me/roles/'), 404), NOT_FOUND);
    });
  });

  describe('direct permissions', () => {
    it('GET answers {user_id, email, direct_permissions, all_permissions} with the hierarchy expanded', async () => {
      await grantDirect(t, target.id, ['reports']);
      expectStatus(await api('POST', `users/${target.id}/roles/`, { role_code: 'finance' }), 200);
      const body = expectStatus(await api('GET', `users/${target.id}/permissions/`), 200);
      const reports = await t.container.db.selectFrom('permissions').select('id').where('code', '=', 'reports').executeTakeFirstOrThrow();
      assert.deepEqual(body, {
        user_id: target.id, email: target.email,
        direct_permissions: [{ id: String(reports.id), code: 'reports', name: 'reports', description: '' }],
        all_permissions: ['billing.view', 'reports', 'reports.view'],
      });
    });

    it('GET lists every permission for a superuser', async () => {
      const other = await createUser(t, { is_superuser: true });
      const body = expectStatus(await api('GET', `users/${other.id}/permissions/`), 200);
      assert.equal(body.all_permissions.length, 18);
      assert.deepEqual(body.direct_permissions, []);
    });

    it('POST adds codes and answers added, already_assigned (only when some), user_id and direct_permissions', async () => {
      const first = expectStatus(await api('POST', `users/${target.id}/permissions/`, { permission_codes: ['billing.view'] }), 200);
      assert.deepEqual(Object.keys(first).sort(), ['added', 'direct_permissions', 'message', 'user_id']);
      assert.deepEqual([first.message, first.added, first.user_id], ['1 permission(s) added', ['billing.view'], target.id]);
      const second = expectStatus(await api('POST', `users/${target.id}/permissions/`, { permission_codes: ['billing.view', 'reports'] }), 200);
      assert.deepEqual([second.added, second.already_assigned], [['reports'], ['billing.view']]);
      assert.deepEqual(second.direct_permissions.map((p: { code: string }) => p.code), ['billing.view', 'reports']);
      assert.deepEqual((await auditEvents(t, 'user_permissions_added')).map((e) => e.details.added), [['billing.view'], ['reports']]);
    });

    it('DELETE removes codes and lists not_assigned ones', async () => {
      await grantDirect(t, target.id, ['reports']);
      assert.deepEqual(expectStatus(await api('DELETE', `users/${target.id}/permissions/`, { permission_codes: ['reports', 'billing.view'] }), 200),
        { message: '1 permission(s) removed', removed: ['reports'], not_assigned: ['billing.view'], user_id: target.id, direct_permissions: [] });
    });

    it('answers 400 PERMISSIONS_NOT_FOUND for unknown codes, 400 validation without codes, 404 for an unknown user', async () => {
      assert.deepEqual(expectStatus(await api('POST', `users/${target.id}/permissions/`, { permission_codes: ['reports', 'nope'] }), 400),
        { error: 'Some permissions were not found', code: 'PERMISSIONS_NOT_FOUND', not_found: ['nope'] });
      assert.deepEqual(expectStatus(await api('DELETE', `users/${target.id}/permissions/`, { permission_codes: ['nope'] }), 400).not_found, ['nope']);
      assert.deepEqual(expectStatus(await api('POST', `users/${target.id}/permissions/`, {}), 400).details, { permission_codes: ['This field is required.'] });
      assert.deepEqual(expectStatus(await api('GET', 'users/999999/permissions/'), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('POST', 'users/999999/permissions/', { permission_codes: ['reports'] }), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('GET', `users/${target.id}/permissions/`), 200).direct_permissions, []);
    });
  });

  describe('no escalation', () => {
    let manager: Account;
    beforeEach(async () => {
      manager = await account(t);
      await grantDirect(t, manager.id, ['users.manage', 'reports']);
    });
    const as = (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object) => api(method, path, payload, manager.token);

    it('assigns a role whose permissions it holds (through a held parent), and refuses one it does not', async () => {
      expectStatus(await as('POST', `users/${target.id}/roles/`, { role_code: 'analyst' }), 200);
      assert.deepEqual(expectStatus(await as('POST', `users/${target.id}/roles/`, { role_code: 'finance' }), 403), permissionDenied('billing.view'));
      const admin = expectStatus(await as('POST', `users/${target.id}/roles/`, { role_code: 'admin' }), 403);
      assert.equal(admin.code, 'PERMISSION_DENIED');
      assert.ok(admin.details.missing_permissions.includes('roles.manage') && !admin.details.missing_permissions.includes('users.manage'));
      assert.deepEqual(expectStatus(await api('GET', `users/${target.id}/roles/`), 200).roles.map((r: { code: string }) => r.code), ['analyst', 'user']);
    });

    it('refuses to remove a role granting permissions it does not hold', async () => {
      expectStatus(await api('POST', `users/${target.id}/roles/`, { role_code: 'finance' }), 200);
      assert.deepEqual(expectStatus(await as('DELETE', `users/${target.id}/roles/?role_code=finance`), 403), permissionDenied('billing.view'));
    });

    it('grants and removes direct permissions it holds, and refuses others', async () => {
      expectStatus(await as('POST', `users/${target.id}/permissions/`, { permission_codes: ['reports.view'] }), 200);
      assert.deepEqual(expectStatus(await as('POST', `users/${target.id}/permissions/`, { permission_codes: ['reports', 'billing.view'] }), 403), permissionDenied('billing.view'));
      assert.deepEqual(expectStatus(await as('POST', `users/${target.id}/permissions/`, { permission_codes: ['users.manage', 'roles.manage'] }), 403), permissionDenied('roles.manage'));
      await grantDirect(t, target.id, ['billing.view']);
      assert.deepEqual(expectStatus(await as('DELETE', `users/${target.id}/permissions/`, { permission_codes: ['billing.view'] }), 403), permissionDenied('billing.view'));
      expectStatus(await as('DELETE', `users/${target.id}/permissions/`, { permission_codes: ['reports.view'] }), 200);
      assert.deepEqual(expectStatus(await api('GET', `users/${target.id}/permissions/`), 200).direct_permissions.map((p: { code: string }) => p.code), ['billing.view']);
    });

    it('refuses every change to its own roles and direct permissions, even for a superuser', async () => {
      for (const actor of [manager, root]) {
        assert.deepEqual(expectStatus(await api('POST', `users/${actor.id}/roles/`, { role_code: 'user' }, actor.token), 403), refusedBecause('own_account'));
        assert.deepEqual(expectStatus(await api('DELETE', `users/${actor.id}/roles/?role_code=user`, undefined, actor.token), 403), refusedBecause('own_account'));
        assert.deepEqual(expectStatus(await api('POST', `users/${actor.id}/permissions/`, { permission_codes: ['reports'] }, actor.token), 403), refusedBecause('own_account'));
        assert.deepEqual(expectStatus(await api('DELETE', `users/${actor.id}/permissions/`, { permission_codes: ['reports'] }, actor.token), 403), refusedBecause('own_account'));
      }
      assert.deepEqual(expectStatus(await as('GET', `users/${manager.id}/roles/`), 200).roles.map((r: { code: string }) => r.code), ['user']);
    });

    it('refuses any change to a superuser\'s grants unless the actor is a superuser', async () => {
      const other = await createUser(t, { is_superuser: true });
      assert.deepEqual(expectStatus(await as('POST', `users/${other.id}/roles/`, { role_code: 'analyst' }), 403), refusedBecause('superuser_required'));
      assert.deepEqual(expectStatus(await as('POST', `users/${other.id}/permissions/`, { permission_codes: ['reports'] }), 403), refusedBecause('superuser_required'));
      expectStatus(await api('POST', `users/${other.id}/roles/`, { role_code: 'analyst' }), 200);
    });
  });
});
