import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { account } from '../../factories/accounts.js';
import { assignRole, createPermission, createRole } from '../../factories/rbac.js';
import { decodeJwt } from '../../factories/sessions.js';
import { expectStatus, permissionDenied } from '../../helpers/answers.js';
import { useTestApp } from '../../helpers/test-app.js';

/**
 * docs/architecture.md "The permission graph": the codes come from a copy of the graph held in memory, and each
 * statement reads the graph's version beside the user's role ids; a change made anywhere — another instance, or
 * straight in the database as here — applies to the very next request.
 */
describe('the permission graph held in memory', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  const db = () => t.container.db;
  const version = async () => (await db().selectFrom('permission_graph_version').select('version').executeTakeFirstOrThrow()).version;
  const roleId = async (code: string) => (await db().selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const permissionId = async (code: string) =>
    (await db().selectFrom('permissions').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;

  it('gets a new version with every write to roles, permissions and role_permissions, and none with a user\'s own grants', async () => {
    const alice = await account(t, { email: 'alice@example.com' });
    const changes: Array<[string, () => Promise<unknown>]> = [
      ['a permission created', () => createPermission(db(), 'reports.view')],
      ['a permission renamed', () => db().updateTable('permissions').set({ name: 'Reports' }).where('code', '=', 'reports.view').execute()],
      ['a role created', () => createRole(db(), 'auditor')],
      ['a role renamed', () => db().updateTable('roles').set({ name: 'Auditors' }).where('code', '=', 'auditor').execute()],
      ['a permission given to a role', async () => db().insertInto('role_permissions')
        .values({ role_id: await roleId('auditor'), permission_id: await permissionId('reports.view') }).execute()],
      ['a permission taken from a role', async () => db().deleteFrom('role_permissions').where('role_id', '=', await roleId('auditor')).execute()],
      ['a role deleted', () => db().deleteFrom('roles').where('code', '=', 'auditor').execute()],
      ['a permission deleted', () => db().deleteFrom('permissions').where('code', '=', 'reports.view').execute()],
    ];
    for (const [what, change] of changes) {
      const before = await version();
      await change();
      assert.notEqual(await version(), before, what);
    }
    const before = await version();
    await assignRole(db(), alice.id, 'admin');
    await db().insertInto('user_permissions').values({ user_id: alice.id, permission_id: await permissionId('roles.view') }).execute();
    assert.equal(await version(), before, 'a user\'s roles and direct permissions are read live, not versioned');
    // A change rolled back leaves the version as it was: no reader can see a version whose graph never existed.
    await db().transaction().execute(async (trx) => {
      await createPermission(trx, 'never.kept');
      throw new Error('rolled back');
    }).catch(() => undefined);
    assert.equal(await version(), before);
  });

  it('decides the next request after a permission is given to or taken from a role in the database', async () => {
    const alice = await account(t, { email: 'alice@example.com' });
    await createRole(db(), 'auditor');
    await assignRole(db(), alice.id, 'auditor');
    const roles = () => t.api({ method: 'GET', path: 'roles/', token: alice.token });
    assert.deepEqual((await roles()).json(), permissionDenied('roles.view'));
    await db().insertInto('role_permissions').values({ role_id: await roleId('auditor'), permission_id: await permissionId('roles.view') }).execute();
    expectStatus(await roles(), 200);
    await db().deleteFrom('role_permissions').where('role_id', '=', await roleId('auditor')).execute();
    assert.deepEqual((await roles()).json(), permissionDenied('roles.view'));
  });

  it('expands a held parent to its children as they are now, in sign-in and refresh answers', async () => {
    const alice = await account(t, { email: 'alice@example.com', password: 'Correct-Horse-9' });
    await createPermission(db(), 'reports.view');
    await createPermission(db(), 'reports.export', 'reports.view');
    await createRole(db(), 'auditor', ['reports.view']);
    await assignRole(db(), alice.id, 'auditor');
    const login = expectStatus(await t.api({ method: 'POST', path: 'login/email/', payload: { email: 'alice@example.com', password: 'Correct-Horse-9' } }), 200);
    const claims = (token: string) => decodeJwt(token).payload as { roles: string[]; permissions: string[] };
    assert.ok(claims(login.access_token).roles.includes('auditor'));
    assert.ok(claims(login.access_token).permissions.includes('reports.export'));
    // A new child under the held parent is held at once; the permissions are sorted by code point.
    await createPermission(db(), 'reports.archive', 'reports.view');
    const refreshed = expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: login.refresh_token } }), 200);
    const permissions = claims(refreshed.access_token).permissions;
    assert.ok(permissions.includes('reports.archive'));
    assert.deepEqual(permissions, [...permissions].sort());
    // Moved out from under the parent, it is no longer held.
    await db().updateTable('permissions').set({ parent_id: null }).where('code', '=', 'reports.archive').execute();
    const again = expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: refreshed.refresh_token } }), 200);
    assert.ok(!claims(again.access_token).permissions.includes('reports.archive'));
    assert.ok(claims(again.access_token).permissions.includes('reports.export'));
  });

  it('gives a superuser every permission, one created a moment ago included', async () => {
    const root = await account(t, { email: 'root@example.com', is_superuser: true });
    await createPermission(db(), 'brand.new');
    const { permissions } = expectStatus(await t.api({ method: 'GET', path: 'me/roles/', token: root.token }), 200);
    const all = (await db().selectFrom('permissions').select('code').execute()).map((p) => p.code).sort();
    assert.deepEqual(permissions, all);
  });

  it('checks an agent\'s person against the graph as it is now: a permission taken from the person\'s role denies the next call', async () => {
    const alice = await account(t, { email: 'alice@example.com' });
    await createRole(db(), 'auditor', ['roles.view']);
    await assignRole(db(), alice.id, 'auditor');
    const created = expectStatus(await t.api({ method: 'POST', path: 'ai/tokens/', token: alice.token,
      payload: { agent_id: 'reporter', permissions: ['roles.view'] } }), 201);
    const authorize = () => t.api({ method: 'POST', path: 'ai/authorize/', payload: { permission: 'roles.view' },
      headers: { authorization: `AgentBearer ${created.token}` } });
    assert.equal(expectStatus(await authorize(), 200).decision, 'allow');
    await sql`delete from role_permissions where role_id = ${await roleId('auditor')}`.execute(db());
    const denied = expectStatus(await authorize(), 403);
    assert.deepEqual([denied.decision, denied.code], ['deny', 'AGENT_PERMISSION_DENIED']);
  });
});
