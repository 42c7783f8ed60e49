import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createPermission, createRole } from '../../factories/rbac.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus, NOT_FOUND } from '../../helpers/answers.js';
import { sdk } from './sdk-request.js';

/** SDK compatibility (docs/migrating-from-tenxyte.md): `GET roles/<id>/permissions/` keeps Gatehouse's `{role_id, role_code, permissions}`. */
describe('SDK compatibility: role permissions', () => {
  const t = useTestApp();
  let root: Account;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
  });

  it('getRolePermissions reads {role_id, role_code, permissions[{id, code, name, description}]}', async () => {
    const view = await createPermission(t.container.db, 'reports.view');
    const exp = await createPermission(t.container.db, 'reports.export');
    const role = await createRole(t.container.db, 'analyst', ['reports.view', 'reports.export']);
    const body = expectStatus(await sdk(t, 'GET', `roles/${role.id}/permissions/`, { token: root.token }), 200);
    assert.deepEqual(body, {
      role_id: String(role.id), role_code: 'analyst',
      permissions: [
        { id: String(exp.id), code: 'reports.export', name: 'reports.export', description: '' },
        { id: String(view.id), code: 'reports.view', name: 'reports.view', description: '' },
      ],
    });
  });

  it('answers an empty list for a role without permissions, and 404 for an unknown role', async () => {
    const role = await createRole(t.container.db, 'empty');
    assert.deepEqual(expectStatus(await sdk(t, 'GET', `roles/${role.id}/permissions/`, { token: root.token }), 200),
      { role_id: String(role.id), role_code: 'empty', permissions: [] });
    assert.deepEqual(expectStatus(await sdk(t, 'GET', 'roles/999999/permissions/', { token: root.token }), 404), NOT_FOUND);
  });
});
