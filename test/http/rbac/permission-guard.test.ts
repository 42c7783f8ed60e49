import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignRole, createPermission, createRole, grantDirect } from '../../factories/rbac.js';
import { createUser } from '../../factories/users.js';
import { signIn } from '../../factories/sessions.js';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { account } from '../../factories/accounts.js';
import { permissionDenied, UNAUTHORIZED } from '../../helpers/answers.js';

/** Every administrative route of this issue, with the permission docs/access-control.md gives it (`:id` is filled in per test). */
const ROUTES: Array<{ method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; permission: string }> = [
  { method: 'GET', path: 'permissions/', permission: 'permissions.view' },
  { method: 'POST', path: 'permissions/', permission: 'permissions.manage' },
  { method: 'GET', path: 'permissions/:id/', permission: 'permissions.view' },
  { method: 'PUT', path: 'permissions/:id/', permission: 'permissions.manage' },
  { method: 'DELETE', path: 'permissions/:id/', permission: 'permissions.manage' },
  { method: 'GET', path: 'roles/', permission: 'roles.view' },
  { method: 'POST', path: 'roles/', permission: 'roles.manage' },
  { method: 'GET', path: 'roles/:id/', permission: 'roles.view' },
  { method: 'PUT', path: 'roles/:id/', permission: 'roles.manage' },
  { method: 'DELETE', path: 'roles/:id/', permission: 'roles.manage' },
  { method: 'GET', path: 'roles/:id/permissions/', permission: 'roles.view' },
  { method: 'POST', path: 'roles/:id/permissions/', permission: 'roles.manage' },
  { method: 'DELETE', path: 'roles/:id/permissions/', permission: 'roles.manage' },
  { method: 'GET', path: 'users/:id/roles/', permission: 'users.manage' },
  { method: 'POST', path: 'users/:id/roles/', permission: 'users.manage' },
  { method: 'DELETE', path: 'users/:id/roles/?role_code=user', permission: 'users.manage' },
  { method: 'GET', path: 'users/:id/permissions/', permission: 'users.manage' },
  { method: 'POST', path: 'users/:id/permissions/', permission: 'users.manage' },
  { method: 'DELETE', path: 'users/:id/permissions/', permission: 'users.manage' },
  { method: 'GET', path: 'applications/', permission: 'applications.view' },
  { method: 'POST', path: 'applications/', permission: 'applications.manage' },
  { method: 'GET', path: 'applications/:id/', permission: 'applications.view' },
  { method: 'PUT', path: 'applications/:id/', permission: 'applications.manage' },
  { method: 'PATCH', path: 'applications/:id/', permission: 'applications.manage' },
  { method: 'DELETE', path: 'applications/:id/', permission: 'applications.manage' },
  { method: 'POST', path: 'applications/:id/regenerate/', permission: 'applications.manage' },
  { method: 'GET', path: 'admin/users/', permission: 'users.view' },
  { method: 'GET', path: 'admin/users/:id/', permission: 'users.view' },
  { method: 'PATCH', path: 'admin/users/:id/', permission: 'users.manage' },
  { method: 'DELETE', path: 'admin/users/:id/', permission: 'users.manage' },
  { method: 'POST', path: 'admin/users/:id/ban/', permission: 'users.manage' },
  { method: 'POST', path: 'admin/users/:id/unban/', permission: 'users.manage' },
  { method: 'POST', path: 'admin/users/:id/lock/', permission: 'users.manage' },
  { method: 'POST', path: 'admin/users/:id/unlock/', permission: 'users.manage' },
  { method: 'GET', path: 'admin/blacklisted-tokens/', permission: 'audit.view' },
  { method: 'POST', path: 'admin/blacklisted-tokens/cleanup/', permission: 'security.view' },
  { method: 'GET', path: 'admin/refresh-tokens/', permission: 'audit.view' },
  { method: 'POST', path: 'admin/refresh-tokens/:id/revoke/', permission: 'security.view' },
  { method: 'GET', path: 'admin/login-attempts/', permission: 'audit.view' },
  { method: 'GET', path: 'admin/audit-logs/', permission: 'audit.view' },
  { method: 'GET', path: 'admin/audit-logs/:id/', permission: 'audit.view' },
];

/** A path with `:id` replaced: an existing row's id, or one that names nothing (past the guard, that answers 404). */
const at = (path: string, id: number | string) => path.replace(':id', String(id));
const MISSING = 999_999;
/** What a route answers once the guard let the caller through an empty or absent body and a missing id. */
const PAST_THE_GUARD = [200, 400, 404];

describe('permission guard', () => {
  const t = useTestApp();

  it('answers 401 UNAUTHORIZED on every administrative route without a bearer token', async () => {
    for (const route of ROUTES) {
      const res = await t.api({ method: route.method, path: at(route.path, 1), payload: route.method === 'GET' ? undefined : {} });
      assert.equal(res.statusCode, 401, `${route.method} ${route.path}`);
      assert.deepEqual(res.json(), UNAUTHORIZED, `${route.method} ${route.path}`);
    }
  });

  it('answers 403 PERMISSION_DENIED naming the permission the route needs to a regular user on every administrative route, before reading the body', async () => {
    const regular = await account(t);
    for (const route of ROUTES) {
      const res = await t.api({ method: route.method, path: at(route.path, 1), token: regular.token,
        payload: route.method === 'GET' ? undefined : { unknown_field: true } });
      assert.equal(res.statusCode, 403, `${route.method} ${route.path}`);
      assert.deepEqual(res.json(), permissionDenied(route.permission), `${route.method} ${route.path}`);
    }
  });

  it('lets through, on each route, a user holding exactly the permission the route requires (and no other)', async () => {
    for (const route of ROUTES) {
      const user = await createUser(t);
      await grantDirect(t, user.id, [route.permission]);
      const { access_token } = await signIn(t, user);
      const res = await t.api({ method: route.method, path: at(route.path, MISSING), token: access_token,
        payload: route.method === 'GET' ? undefined : {} });
      assert.ok(PAST_THE_GUARD.includes(res.statusCode), `${route.method} ${route.path}: ${res.statusCode} ${res.body}`);
      const other = ROUTES.find((r) => r.permission !== route.permission)!;
      const refused = await t.api({ method: other.method, path: at(other.path, MISSING), token: access_token,
        payload: other.method === 'GET' ? undefined : {} });
      assert.deepEqual(refused.json(), permissionDenied(other.permission), `${route.permission} does not open ${other.method} ${other.path}`);
    }
  });

  it('lets a superuser through without any role or permission', async () => {
    const root = await account(t, { is_superuser: true });
    for (const route of ROUTES) {
      const res = await t.api({ method: route.method, path: at(route.path, MISSING), token: root.token,
        payload: route.method === 'GET' ? undefined : {} });
      assert.ok(PAST_THE_GUARD.includes(res.statusCode), `${route.method} ${route.path}: ${res.statusCode} ${res.body}`);
    }
  });

  it('grants a permission held through a role', async () => {
    await createRole(t.container.db, 'auditor', ['audit.view']);
    const user = await account(t, { roles: ['auditor'] });
    assert.equal((await t.api({ method: 'GET', path: 'admin/audit-logs/', token: user.token })).statusCode, 200);
    assert.deepEqual((await t.api({ method: 'GET', path: 'admin/users/', token: user.token })).json(), permissionDenied('users.view'));
  });

  it('grants every descendant of a held parent permission (a holder of the parent passes the child\'s check)', async () => {
    await createPermission(t.container.db, 'admin.all');
    await t.container.db.updateTable('permissions').set({ parent_id: (await t.container.db.selectFrom('permissions')
      .select('id').where('code', '=', 'admin.all').executeTakeFirstOrThrow()).id }).where('code', '=', 'audit.view').execute();
    await createPermission(t.container.db, 'reports', 'admin.all');
    await t.container.db.updateTable('permissions').set({ parent_id: (await t.container.db.selectFrom('permissions')
      .select('id').where('code', '=', 'reports').executeTakeFirstOrThrow()).id }).where('code', '=', 'users.view').execute();
    const user = await account(t);
    await grantDirect(t, user.id, ['admin.all']);
    // audit.view is a child of admin.all; users.view a grandchild (admin.all > reports > users.view).
    assert.equal((await t.api({ method: 'GET', path: 'admin/audit-logs/', token: user.token })).statusCode, 200);
    assert.equal((await t.api({ method: 'GET', path: 'admin/users/', token: user.token })).statusCode, 200);
    assert.deepEqual((await t.api({ method: 'GET', path: 'roles/', token: user.token })).json(), permissionDenied('roles.view'));
  });

  it('does not grant a parent to the holder of a child', async () => {
    await createPermission(t.container.db, 'admin.all');
    const parentId = (await t.container.db.selectFrom('permissions').select('id').where('code', '=', 'admin.all').executeTakeFirstOrThrow()).id;
    await t.container.db.updateTable('permissions').set({ parent_id: parentId }).where('code', '=', 'audit.view').execute();
    await t.container.db.updateTable('permissions').set({ parent_id: parentId }).where('code', '=', 'users.view').execute();
    await createRole(t.container.db, 'auditor', ['audit.view']);
    const user = await account(t, { roles: ['auditor'] });
    assert.equal((await t.api({ method: 'GET', path: 'admin/audit-logs/', token: user.token })).statusCode, 200);
    assert.deepEqual((await t.api({ method: 'GET', path: 'admin/users/', token: user.token })).json(), permissionDenied('users.view'));
  });

  it('applies a change of grants to the very next request (permissions are resolved per request)', async () => {
    const user = await account(t);
    assert.deepEqual((await t.api({ method: 'GET', path: 'roles/', token: user.token })).json(), permissionDenied('roles.view'));
    await assignRole(t.container.db, user.id, 'admin');
    assert.equal((await t.api({ method: 'GET', path: 'roles/', token: user.token })).statusCode, 200);
    await t.container.db.deleteFrom('user_roles').where('user_id', '=', user.id).execute();
    assert.deepEqual((await t.api({ method: 'GET', path: 'roles/', token: user.token })).json(), permissionDenied('roles.view'));
  });

  it('refuses a restricted-scope token with 403 INSUFFICIENT_SCOPE even when the user holds the permission', async () => {
    const t2 = await createTestApp({ env: { SVC_FORCE_PASSWORD_CHANGE_ON_FIRST_LOGIN_ENABLED: 'true' } });
    try {
      const user = await createUser(t2, { roles: ['admin'], must_change_password: true });
      const { access_token, token_scope } = await signIn(t2, user);
      assert.equal(token_scope, 'password_change_only');
      const res = await t2.api({ method: 'GET', path: 'roles/', token: access_token });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'INSUFFICIENT_SCOPE');
    } finally {
      await t2.close();
    }
  });
});
