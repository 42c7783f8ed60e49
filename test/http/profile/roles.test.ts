import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignRole, createPermission, createRole } from '../../factories/rbac.js';
import { signIn } from '../../factories/sessions.js';
import { signInAdmin } from '../../factories/twofactor.js';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';

describe('GET me/roles/', () => {
  const t = useTestApp();

  const rolesOf = async (token: string) => {
    const res = await t.api({ method: 'GET', path: 'me/roles/', token });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), ['permissions', 'roles']);
    return res.json() as { roles: string[]; permissions: string[] };
  };

  it('answers the default role and no permission for a new account', async () => {
    const user = await createUser(t);
    assert.deepEqual(await rolesOf((await signIn(t, user)).access_token), { roles: ['user'], permissions: [] });
  });

  it('answers the permissions of held roles, with every descendant of a held parent', async () => {
    const db = t.container.db;
    await createPermission(db, 'reports');
    await createPermission(db, 'reports.view', 'reports');
    await createPermission(db, 'reports.export', 'reports');
    await createPermission(db, 'reports.export.csv', 'reports.export');
    await createPermission(db, 'billing');
    await createPermission(db, 'billing.view', 'billing');
    await createRole(db, 'analyst', ['reports', 'users.view']);
    await createRole(db, 'accountant', ['billing.view']);
    const user = await createUser(t);
    await assignRole(db, user.id, 'analyst');
    const other = await createUser(t);
    await assignRole(db, other.id, 'accountant');

    assert.deepEqual(await rolesOf((await signIn(t, user)).access_token), {
      roles: ['analyst', 'user'],
      permissions: ['reports', 'reports.export', 'reports.export.csv', 'reports.view', 'users.view'],
    });
    assert.deepEqual(await rolesOf((await signIn(t, other)).access_token), { roles: ['accountant', 'user'], permissions: ['billing.view'] },
      'a held child does not grant its parent');
  });

  it('answers permissions granted to the user directly, with their children', async () => {
    const db = t.container.db;
    const parent = await createPermission(db, 'reports');
    await createPermission(db, 'reports.view', 'reports');
    const user = await createUser(t);
    await db.insertInto('user_permissions').values({ user_id: user.id, permission_id: parent.id }).execute();
    assert.deepEqual((await rolesOf((await signIn(t, user)).access_token)).permissions, ['reports', 'reports.view']);
  });

  it('answers every permission for a superuser', async () => {
    await createPermission(t.container.db, 'reports');
    const user = await createUser(t, { is_superuser: true });
    const all = (await t.container.db.selectFrom('permissions').select('code').orderBy('code').execute()).map((p) => p.code);
    assert.ok(all.includes('users.manage') && all.includes('reports'));
    assert.deepEqual(await rolesOf((await signInAdmin(t, user)).access_token), { roles: ['user'], permissions: all });
  });

  it('follows a role granted after the token was issued', async () => {
    const user = await createUser(t);
    const { access_token: token } = await signIn(t, user);
    await createRole(t.container.db, 'viewer', ['roles.view']);
    await assignRole(t.container.db, user.id, 'viewer');
    assert.deepEqual(await rolesOf(token), { roles: ['user', 'viewer'], permissions: ['roles.view'] });
  });

  it('answers 401 UNAUTHORIZED without a bearer token', async () => {
    assertError(await t.api({ method: 'GET', path: 'me/roles/' }), 401, 'UNAUTHORIZED');
  });
});
