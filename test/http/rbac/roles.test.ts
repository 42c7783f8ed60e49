import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createPermission, createRole, grantDirect } from '../../factories/rbac.js';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus, NOT_FOUND, permissionDenied } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('roles/', () => {
  const t = useTestApp({ now: NOW, env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let root: Account;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
    for (const code of ['reports.view', 'reports.export', 'billing.view']) await createPermission(t.container.db, code);
  });

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, token = root.token) =>
    t.api({ method, path, token, payload });
  const codes = (body: { results: { code: string }[] }) => body.results.map((r) => r.code);
  const permissionCodes = (body: { permissions: { code: string }[] }) => body.permissions.map((p) => p.code);
  const roleId = async (code: string) =>
    String((await t.container.db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);

  describe('GET roles/', () => {
    it('answers a page of {id, code, name, is_default}, ordered by name by default', async () => {
      const body = expectStatus(await api('GET', 'roles/'), 200);
      assert.equal(body.count, 2);
      assert.deepEqual(body.results, [
        { id: await roleId('admin'), code: 'admin', name: 'Administrator', is_default: false },
        { id: await roleId('user'), code: 'user', name: 'User', is_default: true },
      ]);
    });

    it('filters by search (code or name) and is_default', async () => {
      await createRole(t.container.db, 'support', []);
      assert.deepEqual(codes(expectStatus(await api('GET', 'roles/?search=ADMINISTRATOR'), 200)), ['admin']);
      assert.deepEqual(codes(expectStatus(await api('GET', 'roles/?search=supp'), 200)), ['support']);
      assert.deepEqual(codes(expectStatus(await api('GET', 'roles/?is_default=true'), 200)), ['user']);
      assert.deepEqual(codes(expectStatus(await api('GET', 'roles/?is_default=false&ordering=code'), 200)), ['admin', 'support']);
    });

    it('orders by every allowed value, ascending or descending with -', async () => {
      for (const [code, name] of [['zz-b', 'Charlie'], ['zz-c', 'Alpha'], ['zz-a', 'Bravo']]) {
        expectStatus(await api('POST', 'roles/', { code, name }), 201);
        t.clock.advance(60);
      }
      const expected: Record<string, string[]> = {
        code: ['zz-a', 'zz-b', 'zz-c'], '-code': ['zz-c', 'zz-b', 'zz-a'], name: ['zz-c', 'zz-a', 'zz-b'],
        '-name': ['zz-b', 'zz-a', 'zz-c'], created_at: ['zz-b', 'zz-c', 'zz-a'], '-created_at': ['zz-a', 'zz-c', 'zz-b'],
      };
      for (const [ordering, order] of Object.entries(expected)) {
        assert.deepEqual(codes(expectStatus(await api('GET', `roles/?search=zz-&ordering=${ordering}`), 200)), order, ordering);
      }
    });

    it('refuses values outside the allow-lists with 400 validation', async () => {
      assert.deepEqual(expectStatus(await api('GET', 'roles/?ordering=is_system'), 400).details,
        { ordering: ['Must be one of: code, -code, name, -name, created_at, -created_at.'] });
      assert.deepEqual(expectStatus(await api('GET', 'roles/?is_default=maybe'), 400).details, { is_default: ['Must be of type boolean.'] });
      assert.equal(expectStatus(await api('GET', 'roles/?page_size=1000'), 200).page_size, 100);
    });
  });

  describe('POST roles/ and roles/<id>/', () => {
    it('creates a role with its permissions and answers 201 with the Role', async () => {
      const body = expectStatus(await api('POST', 'roles/', { code: 'analyst', name: 'Analyst', description: 'Reads reports',
        permission_codes: ['reports.view', 'reports.export', 'reports.view'], is_default: false }), 201);
      const ids = await t.container.db.selectFrom('permissions').select(['id', 'code']).where('code', 'like', 'reports.%').orderBy('code').execute();
      assert.deepEqual(body, {
        id: body.id, code: 'analyst', name: 'Analyst', description: 'Reads reports',
        permissions: ids.map((p) => ({ id: String(p.id), code: p.code, name: p.code, description: '' })),
        is_default: false, created_at: NOW.toISOString(), updated_at: NOW.toISOString(),
      });
      assert.deepEqual(expectStatus(await api('GET', `roles/${body.id}/`), 200), body);
    });

    it('answers 400 for a duplicate code and 400 PERMISSIONS_NOT_FOUND listing unknown codes', async () => {
      assert.deepEqual(expectStatus(await api('POST', 'roles/', { code: 'admin', name: 'Again' }), 400), {
        error: 'Validation error', code: 'VALIDATION_ERROR', details: { code: ['A role with this code already exists.'] } });
      assert.deepEqual(expectStatus(await api('POST', 'roles/', { code: 'x', name: 'X', permission_codes: ['reports.view', 'zeta', 'alpha'] }), 400), {
        error: 'Some permissions were not found', code: 'PERMISSIONS_NOT_FOUND', not_found: ['alpha', 'zeta'] });
      assert.equal(expectStatus(await api('GET', 'roles/?search=x'), 200).count, 0);
    });

    it('a default role is given to every account created afterwards', async () => {
      expectStatus(await api('POST', 'roles/', { code: 'reader', name: 'Reader', permission_codes: ['reports.view'], is_default: true }), 201);
      const user = await createUser(t);
      assert.deepEqual(expectStatus(await api('GET', `users/${user.id}/roles/`), 200).roles.map((r: { code: string }) => r.code), ['reader', 'user']);
    });

    it('PUT changes the fields sent, and permission_codes replaces the whole set', async () => {
      const role = expectStatus(await api('POST', 'roles/', { code: 'analyst', name: 'Analyst', permission_codes: ['reports.view'] }), 201);
      t.clock.advance(120);
      const updated = expectStatus(await api('PUT', `roles/${role.id}/`, { name: 'Senior analyst', permission_codes: ['reports.export', 'billing.view'], is_default: true }), 200);
      assert.equal(updated.name, 'Senior analyst');
      assert.equal(updated.description, '');
      assert.equal(updated.is_default, true);
      assert.deepEqual(permissionCodes(updated), ['billing.view', 'reports.export']);
      assert.equal(updated.updated_at, new Date(NOW.getTime() + 120_000).toISOString());
      assert.equal(updated.created_at, NOW.toISOString());
      assert.deepEqual(permissionCodes(expectStatus(await api('PUT', `roles/${role.id}/`, { description: 'd' }), 200)), ['billing.view', 'reports.export']);
      assert.deepEqual(expectStatus(await api('PUT', `roles/${role.id}/`, { permission_codes: ['nope'] }), 400).not_found, ['nope']);
      assert.deepEqual(expectStatus(await api('PUT', `roles/${role.id}/`, { code: 'other' }), 400).details, { code: ['Unknown field.'] });
    });

    it('DELETE removes the role from its holders; the seeded roles cannot be deleted', async () => {
      await createRole(t.container.db, 'temp', ['reports.view']);
      const user = await createUser(t, { roles: ['temp'] });
      const id = await roleId('temp');
      assert.deepEqual(expectStatus(await api('DELETE', `roles/${id}/`), 200), { message: 'Role deleted' });
      assert.deepEqual(expectStatus(await api('GET', `roles/${id}/`), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('GET', `users/${user.id}/roles/`), 200).roles.map((r: { code: string }) => r.code), ['user']);
      assert.deepEqual(expectStatus(await api('DELETE', `roles/${await roleId('admin')}/`), 400).details,
        { non_field_errors: ['System roles cannot be deleted.'] });
    });

    it('answers 404 NOT_FOUND for a missing or malformed role id on every role route', async () => {
      for (const id of ['999999', 'abc']) {
        for (const [method, path, payload] of [['GET', 'roles/:id/'], ['PUT', 'roles/:id/', {}], ['DELETE', 'roles/:id/'],
          ['GET', 'roles/:id/permissions/'], ['POST', 'roles/:id/permissions/', { permission_codes: ['reports.view'] }],
          ['DELETE', 'roles/:id/permissions/', { permission_codes: ['reports.view'] }]] as const) {
          assert.deepEqual(expectStatus(await api(method, path.replace(':id', id), payload), 404), NOT_FOUND, `${method} ${path} ${id}`);
        }
      }
    });
  });

  describe('roles/<id>/permissions/', () => {
    let id: string;
    beforeEach(async () => {
      id = expectStatus(await api('POST', 'roles/', { code: 'analyst', name: 'Analyst', permission_codes: ['reports.view'] }), 201).id;
    });

    it('GET answers {role_id, role_code, permissions}', async () => {
      const body = expectStatus(await api('GET', `roles/${id}/permissions/`), 200);
      assert.deepEqual(Object.keys(body), ['role_id', 'role_code', 'permissions']);
      assert.equal(body.role_id, id);
      assert.equal(body.role_code, 'analyst');
      assert.deepEqual(permissionCodes(body), ['reports.view']);
    });

    it('POST adds the codes and answers added, role_code and permissions, without already_assigned when none was', async () => {
      const body = expectStatus(await api('POST', `roles/${id}/permissions/`, { permission_codes: ['reports.export'] }), 200);
      assert.deepEqual(Object.keys(body).sort(), ['added', 'message', 'permissions', 'role_code']);
      assert.equal(body.message, '1 permission(s) added');
      assert.deepEqual(body.added, ['reports.export']);
      assert.equal(body.role_code, 'analyst');
      assert.deepEqual(permissionCodes(body), ['reports.export', 'reports.view']);
    });

    it('POST lists already_assigned when some codes were held already', async () => {
      const body = expectStatus(await api('POST', `roles/${id}/permissions/`, { permission_codes: ['reports.view', 'billing.view'] }), 200);
      assert.equal(body.message, '1 permission(s) added');
      assert.deepEqual(body.added, ['billing.view']);
      assert.deepEqual(body.already_assigned, ['reports.view']);
      const again = expectStatus(await api('POST', `roles/${id}/permissions/`, { permission_codes: ['reports.view'] }), 200);
      assert.deepEqual([again.message, again.added, again.already_assigned], ['0 permission(s) added', [], ['reports.view']]);
    });

    it('POST answers 400 PERMISSIONS_NOT_FOUND with not_found, and 400 validation without permission_codes', async () => {
      assert.deepEqual(expectStatus(await api('POST', `roles/${id}/permissions/`, { permission_codes: ['reports.export', 'ghost'] }), 400), {
        error: 'Some permissions were not found', code: 'PERMISSIONS_NOT_FOUND', not_found: ['ghost'] });
      assert.deepEqual(permissionCodes(expectStatus(await api('GET', `roles/${id}/permissions/`), 200)), ['reports.view']);
      assert.deepEqual(expectStatus(await api('POST', `roles/${id}/permissions/`, {}), 400).details, { permission_codes: ['This field is required.'] });
      assert.deepEqual(expectStatus(await api('POST', `roles/${id}/permissions/`, { permission_codes: [] }), 400).details,
        { permission_codes: ['Must have at least 1 items.'] });
      assert.deepEqual(expectStatus(await api('POST', `roles/${id}/permissions/`, { permission_codes: 'reports.view' }), 400).details,
        { permission_codes: ['Must be of type array.'] });
    });

    it('DELETE removes the codes and lists not_assigned ones', async () => {
      const body = expectStatus(await api('DELETE', `roles/${id}/permissions/`, { permission_codes: ['reports.view', 'billing.view'] }), 200);
      assert.deepEqual(body, { message: '1 permission(s) removed', removed: ['reports.view'], not_assigned: ['billing.view'], role_code: 'analyst', permissions: [] });
      assert.deepEqual(expectStatus(await api('DELETE', `roles/${id}/permissions/`, { permission_codes: ['ghost'] }), 400).not_found, ['ghost']);
    });

    it('records each change with the actor', async () => {
      expectStatus(await api('POST', `roles/${id}/permissions/`, { permission_codes: ['reports.export'] }), 200);
      expectStatus(await api('DELETE', `roles/${id}/permissions/`, { permission_codes: ['reports.view'] }), 200);
      const [added] = await auditEvents(t, 'role_permissions_added');
      const [removed] = await auditEvents(t, 'role_permissions_removed');
      assert.deepEqual([added?.actor_id, added?.severity, added?.details.added], [root.id, 'warning', ['reports.export']]);
      assert.deepEqual([removed?.actor_id, removed?.details.removed], [root.id, ['reports.view']]);
    });
  });

  describe('no escalation', () => {
    let manager: Account;
    beforeEach(async () => {
      manager = await account(t);
      await grantDirect(t, manager.id, ['roles.view', 'roles.manage', 'reports.view', 'reports.export']);
      await createRole(t.container.db, 'finance', ['billing.view']);
      await createRole(t.container.db, 'analyst', ['reports.view']);
    });
    const as = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object) => api(method, path, payload, manager.token);

    it('creates a role with permissions it holds, and refuses one with a permission it does not hold', async () => {
      expectStatus(await as('POST', 'roles/', { code: 'mine', name: 'Mine', permission_codes: ['reports.view', 'reports.export'] }), 201);
      assert.deepEqual(expectStatus(await as('POST', 'roles/', { code: 'theirs', name: 'T', permission_codes: ['reports.view', 'billing.view'] }), 403), permissionDenied('billing.view'));
      assert.deepEqual(expectStatus(await as('POST', 'roles/', { code: 'mgr', name: 'M', permission_codes: ['roles.manage', 'users.manage'] }), 403), permissionDenied('users.manage'));
      assert.equal(expectStatus(await api('GET', 'roles/?search=theirs'), 200).count, 0);
    });

    it('refuses to add, or remove, a permission it does not hold through PUT or roles/<id>/permissions/', async () => {
      const analyst = await roleId('analyst');
      const finance = await roleId('finance');
      assert.deepEqual(expectStatus(await as('PUT', `roles/${analyst}/`, { permission_codes: ['reports.view', 'billing.view'] }), 403), permissionDenied('billing.view'));
      assert.deepEqual(expectStatus(await as('PUT', `roles/${finance}/`, { permission_codes: [] }), 403), permissionDenied('billing.view'));
      assert.deepEqual(expectStatus(await as('POST', `roles/${analyst}/permissions/`, { permission_codes: ['billing.view'] }), 403), permissionDenied('billing.view'));
      assert.deepEqual(expectStatus(await as('DELETE', `roles/${finance}/permissions/`, { permission_codes: ['billing.view'] }), 403), permissionDenied('billing.view'));
      assert.deepEqual(permissionCodes(expectStatus(await api('GET', `roles/${analyst}/permissions/`), 200)), ['reports.view']);
      assert.deepEqual(permissionCodes(expectStatus(await api('GET', `roles/${finance}/permissions/`), 200)), ['billing.view']);
    });

    it('refuses to make a role default, or delete it, unless it holds every permission of the role', async () => {
      const finance = await roleId('finance');
      assert.deepEqual(expectStatus(await as('PUT', `roles/${finance}/`, { is_default: true }), 403), permissionDenied('billing.view'));
      assert.deepEqual(expectStatus(await as('DELETE', `roles/${finance}/`), 403), permissionDenied('billing.view'));
      const admin = expectStatus(await as('PUT', `roles/${await roleId('admin')}/`, { is_default: true }), 403);
      assert.equal(admin.code, 'PERMISSION_DENIED');
      assert.ok(admin.details.missing_permissions.includes('users.manage'), 'names what the role holds beyond the manager');
      assert.ok(!admin.details.missing_permissions.includes('roles.manage'), 'and only that');
      assert.equal(expectStatus(await as('PUT', `roles/${await roleId('analyst')}/`, { is_default: true }), 200).is_default, true);
      assert.deepEqual(expectStatus(await as('DELETE', `roles/${await roleId('analyst')}/`), 200), { message: 'Role deleted' });
    });

    it('edits what it holds within a role and renames any role (a name grants nothing)', async () => {
      const analyst = await roleId('analyst');
      assert.deepEqual(permissionCodes(expectStatus(await as('POST', `roles/${analyst}/permissions/`, { permission_codes: ['reports.export'] }), 200)),
        ['reports.export', 'reports.view']);
      assert.equal(expectStatus(await as('PUT', `roles/${await roleId('finance')}/`, { name: 'Finance team' }), 200).name, 'Finance team');
    });

    it('assigning a role it can edit does not let it past a missing users.manage', async () => {
      const user = await createUser(t);
      assert.deepEqual(expectStatus(await as('POST', `users/${user.id}/roles/`, { role_code: 'analyst' }), 403), permissionDenied('users.manage'));
      assert.deepEqual(expectStatus(await api('GET', `users/${user.id}/roles/`), 200).roles.map((r: { code: string }) => r.code), ['user']);
    });
  });
});
