import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createPermission, createRole, grantDirect } from '../../factories/rbac.js';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertValidation } from '../auth/assertions.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';
import { sdk } from './sdk-request.js';

/** SDK compatibility (docs/migrating-from-tenxyte.md): `DELETE roles/<id>/permissions/` and `DELETE users/<id>/permissions/` take `{permission_codes}` as JSON. */
describe('SDK compatibility: DELETE with a JSON body', () => {
  const t = useTestApp();
  let root: Account;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
    for (const code of ['reports.view', 'reports.export']) await createPermission(t.container.db, code);
  });

  const codes = (list: { code: string }[]) => list.map((p) => p.code);

  it('removePermissionsFromRole takes the codes out of the role and leaves the others', async () => {
    const role = await createRole(t.container.db, 'analyst', ['reports.view', 'reports.export']);
    const body = expectStatus(await sdk(t, 'DELETE', `roles/${role.id}/permissions/`,
      { token: root.token, body: { permission_codes: ['reports.view'] } }), 200);
    assert.deepEqual(body.removed, ['reports.view']);
    const after = expectStatus(await sdk(t, 'GET', `roles/${role.id}/permissions/`, { token: root.token }), 200);
    assert.deepEqual(codes(after.permissions), ['reports.export']);
  });

  it('removePermissionsFromUser takes the codes out of the user\'s direct permissions', async () => {
    const user = await createUser(t);
    await grantDirect(t, user.id, ['reports.view', 'reports.export']);
    const body = expectStatus(await sdk(t, 'DELETE', `users/${user.id}/permissions/`,
      { token: root.token, body: { permission_codes: ['reports.export'] } }), 200);
    assert.deepEqual(body.removed, ['reports.export']);
    const after = expectStatus(await sdk(t, 'GET', `users/${user.id}/permissions/`, { token: root.token }), 200);
    assert.deepEqual(codes(after.direct_permissions), ['reports.view']);
  });

  it('refuses a DELETE without permission_codes (400 naming it) or with unknown ones (400 PERMISSIONS_NOT_FOUND)', async () => {
    const role = await createRole(t.container.db, 'analyst', ['reports.view']);
    const user = await createUser(t);
    await grantDirect(t, user.id, ['reports.view']);
    for (const path of [`roles/${role.id}/permissions/`, `users/${user.id}/permissions/`]) {
      assertValidation(await sdk(t, 'DELETE', path, { token: root.token }), 'permission_codes');
      assertValidation(await sdk(t, 'DELETE', path, { token: root.token, body: {} }), 'permission_codes');
      const unknown = expectStatus(await sdk(t, 'DELETE', path, { token: root.token, body: { permission_codes: ['nope'] } }), 400);
      assert.deepEqual([unknown.code, unknown.not_found], ['PERMISSIONS_NOT_FOUND', ['nope']]);
    }
    const roleAfter = expectStatus(await sdk(t, 'GET', `roles/${role.id}/permissions/`, { token: root.token }), 200);
    const userAfter = expectStatus(await sdk(t, 'GET', `users/${user.id}/permissions/`, { token: root.token }), 200);
    assert.deepEqual([codes(roleAfter.permissions), codes(userAfter.direct_permissions)], [['reports.view'], ['reports.view']]);
  });
});
