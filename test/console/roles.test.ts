import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createPermission, createRole } from '../factories/rbac.js';
import { openSession } from '../factories/sessions.js';
import { describeInBrowser } from '../helpers/browser.js';
import { PHONE, startConsole, type ConsoleServer } from './harness.js';

interface RoleBody { id: string; code: string; name: string; description: string; is_default: boolean; permissions: Array<{ code: string }> }

describeInBrowser('the console\'s Roles and permissions page in Chromium', () => {
  let c: ConsoleServer;
  /** An access token of the operator, to check through the API what the page did. */
  let token: string;
  const roleOf = async (id: string) => {
    const res = await c.t.api({ method: 'GET', path: `roles/${id}/`, token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as RoleBody;
  };
  const codesOf = (role: RoleBody) => role.permissions.map((p) => p.code).sort();

  before(async () => {
    c = await startConsole();
    const db = c.t.container.db;
    // A sub-permission: the operator holds it through its parent, so it may grant it.
    await createPermission(db, 'users.view.export', 'users.view');
    await db.updateTable('permissions').set({ name: 'Export users', description: 'Download the account list' })
      .where('code', '=', 'users.view.export').execute();
    for (const [code, name, perms] of [['support', 'Support agent', ['users.view', 'audit.view']], ['auditor', 'Auditor', ['audit.view']],
      ['billing', 'Billing clerk', ['applications.view']], ['temporary', 'Temporary access', []]] as const) {
      const role = await createRole(db, code, [...perms]);
      await db.updateTable('roles').set({ name, description: `${name} role` }).where('id', '=', role.id).execute();
    }
    ({ access_token: token } = await openSession(c.t, c.operator.id));
  });
  after(async () => { await c?.close(); });

  it('creates a role with two permissions picked in the tree, edits it, and deletes another after confirming', async () => {
    const { page, problems, refusals } = await c.signedIn({ hash: '#/roles' });
    await page.getByRole('heading', { level: 1, name: 'Roles and permissions' }).waitFor();
    await page.getByRole('table', { name: 'Roles' }).getByRole('link', { name: 'Support agent' }).waitFor();
    await c.screenshot(page, 'roles-list');

    await page.getByRole('link', { name: 'New role' }).click();
    await page.getByRole('heading', { level: 2, name: 'New role' }).waitFor();
    await page.getByLabel('Code').fill('helpdesk');
    await page.getByLabel('Name', { exact: true }).fill('Helpdesk');
    await page.getByLabel('Description').fill('First-line support: reads accounts and exports them');
    const tree = page.getByRole('list', { name: 'Permission tree' });
    await tree.getByRole('button', { name: 'Show sub-permissions of users.view', exact: true }).click();
    await tree.getByLabel('Export users (users.view.export)').check();
    await tree.getByLabel('View audit (audit.view)').check();
    await page.getByRole('list', { name: 'Chosen permissions' }).getByText('users.view.export').waitFor();
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('status').filter({ hasText: 'Role created.' }).waitFor();
    const id = /#\/roles\/(\d+)\?created=1$/.exec(page.url())?.[1];
    assert.ok(id, page.url());
    let role = await roleOf(id);
    assert.deepEqual([role.code, role.name, role.is_default], ['helpdesk', 'Helpdesk', false]);
    assert.deepEqual(codesOf(role), ['audit.view', 'users.view.export']);

    // Edit: a new name, audit.view out, users.view in.
    await page.getByLabel('Name', { exact: true }).fill('Helpdesk agents');
    await tree.getByLabel('View audit (audit.view)').uncheck();
    await tree.getByLabel('View users (users.view)').check();
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByRole('status').filter({ hasText: 'Role saved.' }).waitFor();
    role = await roleOf(id);
    assert.equal(role.name, 'Helpdesk agents');
    assert.deepEqual(codesOf(role), ['users.view', 'users.view.export']);
    await c.screenshot(page, 'roles-editor');

    // A reload shows what was saved, the tree's checkboxes included.
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Role helpdesk' }).waitFor();
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Helpdesk agents');
    assert.equal(await page.getByRole('list', { name: 'Permission tree' }).getByLabel('View users (users.view)').isChecked(), true);
    assert.equal(await page.getByRole('list', { name: 'Permission tree' }).getByLabel('View audit (audit.view)').isChecked(), false);

    // The list finds it; deleting another role asks first.
    await page.getByRole('link', { name: '← All roles' }).click();
    await page.getByLabel('Search roles').fill('temp');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Page 1 of 1 · 1 in all').waitFor();
    await page.getByRole('link', { name: 'Temporary access' }).click();
    await page.getByRole('button', { name: 'Delete role' }).click();
    await page.getByRole('group', { name: 'Confirm the deletion' }).waitFor();
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByRole('table', { name: 'Roles' }).waitFor();
    const left = await c.t.container.db.selectFrom('roles').select('code').where('code', '=', 'temporary').executeTakeFirst();
    assert.equal(left, undefined);
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401], 'only the authenticator step');
  });

  it('shows the API\'s refusal of a duplicate role code in words, next to the form', async () => {
    const { page, problems, refusals } = await c.signedIn({ hash: '#/roles/new' });
    await page.getByLabel('Code').fill('auditor');
    await page.getByLabel('Name', { exact: true }).fill('Second auditor');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('alert').filter({ hasText: 'VALIDATION_ERROR' }).waitFor();
    await page.getByRole('list', { name: 'Problems with the form' }).getByText('A role with this code already exists.').waitFor();
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401, 400]);
  });

  it('creates a permission under a parent and shows it in the tree; edits it; deletes it after confirming', async () => {
    const { page, problems, refusals } = await c.signedIn({ hash: '#/roles/permissions' });
    const tree = page.getByRole('list', { name: 'Permission tree' });
    await tree.getByText('users.view', { exact: true }).waitFor();
    await tree.getByRole('button', { name: 'Add a permission under users.manage' }).click();
    assert.equal(await page.getByLabel('Parent code').inputValue(), 'users.manage');
    await page.getByLabel('Permission code').fill('users.manage.import');
    await page.getByLabel('Permission name').fill('Import users');
    await page.getByLabel('Permission description').fill('Create accounts from a CSV file');
    await page.getByRole('button', { name: 'Create permission' }).click();
    await page.getByRole('status').filter({ hasText: 'Permission users.manage.import created.' }).waitFor();
    // Its parent opens to show it.
    await tree.getByText('users.manage.import', { exact: true }).waitFor();
    assert.equal(await tree.getByRole('button', { name: 'Hide sub-permissions of users.manage' }).getAttribute('aria-expanded'), 'true');
    const row = await c.t.container.db.selectFrom('permissions as p').innerJoin('permissions as parent', 'parent.id', 'p.parent_id')
      .select(['p.name', 'p.description', 'parent.code as parent_code']).where('p.code', '=', 'users.manage.import').executeTakeFirstOrThrow();
    assert.deepEqual(row, { name: 'Import users', description: 'Create accounts from a CSV file', parent_code: 'users.manage' });

    await tree.getByRole('button', { name: 'Edit users.manage.import' }).click();
    await page.getByRole('heading', { level: 2, name: 'Edit users.manage.import' }).waitFor();
    await page.getByLabel('Permission name').fill('Import accounts');
    await page.getByRole('button', { name: 'Save permission' }).click();
    await page.getByRole('status').filter({ hasText: 'Permission users.manage.import saved.' }).waitFor();
    await tree.getByText('Import accounts', { exact: true }).waitFor();
    await tree.getByRole('button', { name: 'Show sub-permissions of users.view', exact: true }).click();
    await tree.getByText('users.view.export', { exact: true }).waitFor();
    await c.screenshot(page, 'roles-permissions');

    // Deleting asks first, inline.
    await tree.getByRole('button', { name: 'Delete users.manage.import' }).click();
    await tree.getByRole('group', { name: 'Confirm deleting users.manage.import' }).getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Permission users.manage.import deleted.' }).waitFor();
    await tree.getByText('users.manage.import', { exact: true }).waitFor({ state: 'detached' });
    const gone = await c.t.container.db.selectFrom('permissions').select('id').where('code', '=', 'users.manage.import').executeTakeFirst();
    assert.equal(gone, undefined);
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401]);
  });

  it('fits a phone: the role editor and the tree at 390×844', async () => {
    const helpdesk = await c.t.container.db.selectFrom('roles').select('id').where('code', '=', 'support').executeTakeFirstOrThrow();
    const { page, problems } = await c.signedIn({ viewport: PHONE, hash: `#/roles/${helpdesk.id}` });
    await page.getByRole('heading', { level: 2, name: 'Role support' }).waitFor();
    await page.getByRole('list', { name: 'Permission tree' }).getByLabel('View users (users.view)').waitFor();
    assert.ok(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'the page scrolls sideways');
    await c.screenshot(page, 'roles-editor-phone');
    await page.close();
    assert.deepEqual(problems, []);
  });
});
