import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createRole, grantDirect } from '../../factories/rbac.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus, NOT_FOUND, permissionDenied } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const SYSTEM_CODES = ['applications.manage', 'applications.view', 'audit.view', 'dashboard.view', 'gdpr.admin', 'gdpr.process',
  'gdpr.view', 'permissions.manage', 'permissions.view', 'roles.manage', 'roles.view', 'security.view', 'users.manage', 'users.view',
  'webhooks.manage'];

describe('permissions/', () => {
  const t = useTestApp({ now: NOW, env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let root: Account;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
  });

  const create = (body: object, token = root.token) => t.api({ method: 'POST', path: 'permissions/', token, payload: body });
  const list = (query: string, token = root.token) => t.api({ method: 'GET', path: `permissions/${query}`, token });
  const codes = (body: { results: { code: string }[] }) => body.results.map((p) => p.code);

  describe('GET permissions/', () => {
    it('answers a page of {id, code, name, description}, ordered by code by default, ids as strings', async () => {
      const body = expectStatus(await list(''), 200);
      assert.equal(body.count, 15);
      assert.deepEqual({ ...body, results: undefined }, { count: 15, next: null, previous: null, page: 1, page_size: 20, total_pages: 1, results: undefined });
      assert.deepEqual(codes(body), SYSTEM_CODES);
      const first = body.results[0];
      assert.deepEqual(Object.keys(first).sort(), ['code', 'description', 'id', 'name']);
      assert.match(first.id, /^[0-9]+$/);
      assert.equal(first.name, 'Manage applications');
    });

    it('searches code and name, case-insensitively, taking % and _ literally', async () => {
      assert.deepEqual(codes(expectStatus(await list('?search=GDPR'), 200)), ['gdpr.admin', 'gdpr.process', 'gdpr.view']);
      assert.deepEqual(codes(expectStatus(await list('?search=view%20DELETION'), 200)), ['gdpr.view']);
      assert.deepEqual(codes(expectStatus(await list('?search=%25'), 200)), []);
      assert.deepEqual(codes(expectStatus(await list('?search=_'), 200)), []);
    });

    it('filters roots with parent=null and children with parent=<id>', async () => {
      const reports = expectStatus(await create({ code: 'reports', name: 'Reports' }), 201);
      expectStatus(await create({ code: 'reports.view', name: 'View reports', parent_code: 'reports' }), 201);
      expectStatus(await create({ code: 'reports.export', name: 'Export reports', parent_code: 'reports' }), 201);
      const roots = expectStatus(await list('?parent=null&page_size=100'), 200);
      assert.deepEqual(codes(roots), [...SYSTEM_CODES.slice(0, 10), 'reports', ...SYSTEM_CODES.slice(10)].sort());
      assert.deepEqual(codes(expectStatus(await list(`?parent=${reports.id}`), 200)), ['reports.export', 'reports.view']);
      assert.deepEqual(codes(expectStatus(await list('?parent=999999'), 200)), []);
    });

    it('orders by every allowed value, ascending or descending with -', async () => {
      for (const [code, name] of [['zz.b', 'Charlie'], ['zz.c', 'Alpha'], ['zz.a', 'Bravo']]) {
        expectStatus(await create({ code, name }), 201);
        t.clock.advance(60);
      }
      const expected: Record<string, string[]> = {
        code: ['zz.a', 'zz.b', 'zz.c'], '-code': ['zz.c', 'zz.b', 'zz.a'],
        name: ['zz.c', 'zz.a', 'zz.b'], '-name': ['zz.b', 'zz.a', 'zz.c'],
        created_at: ['zz.b', 'zz.c', 'zz.a'], '-created_at': ['zz.a', 'zz.c', 'zz.b'],
      };
      for (const [ordering, order] of Object.entries(expected)) {
        assert.deepEqual(codes(expectStatus(await list(`?search=zz.&ordering=${ordering}`), 200)), order, ordering);
      }
    });

    it('refuses an ordering, parent or parameter outside the allow-list with 400 validation', async () => {
      assert.deepEqual(expectStatus(await list('?ordering=secret_column'), 400), {
        error: 'Validation error', code: 'VALIDATION_ERROR',
        details: { ordering: ['Must be one of: code, -code, name, -name, created_at, -created_at.'] },
      });
      assert.deepEqual(expectStatus(await list('?ordering=code;drop%20table%20permissions'), 400).details, {
        ordering: ['Must be one of: code, -code, name, -name, created_at, -created_at.'] });
      assert.deepEqual(expectStatus(await list('?parent=abc'), 400).details, { parent: ['Has an invalid format.'] });
      assert.deepEqual(expectStatus(await list('?is_system=true'), 400).details, { is_system: ['Unknown field.'] });
      assert.deepEqual(expectStatus(await list('?page=0'), 400).details, { page: ['Must be at least 1.'] });
    });

    it('pages with next/previous links and clamps page_size above 100 to 100', async () => {
      const page2 = expectStatus(await list('?page=2&page_size=5'), 200);
      assert.equal(page2.count, 15);
      assert.equal(page2.total_pages, 3);
      assert.deepEqual(codes(page2), SYSTEM_CODES.slice(5, 10));
      assert.equal(page2.next, '/api/v1/auth/permissions/?page=3&page_size=5');
      assert.equal(page2.previous, '/api/v1/auth/permissions/?page=1&page_size=5');
      const clamped = expectStatus(await list('?page_size=500'), 200);
      assert.equal(clamped.page_size, 100);
      assert.equal(clamped.results.length, 15);
    });
  });

  describe('POST permissions/', () => {
    it('creates a permission and answers 201 with the Permission', async () => {
      const res = await create({ code: 'reports.view', name: 'View reports', description: 'Read every report' });
      const body = expectStatus(res, 201);
      assert.match(body.id, /^[0-9]+$/);
      assert.deepEqual(body, { id: body.id, code: 'reports.view', name: 'View reports', description: 'Read every report',
        parent: null, children: [], created_at: NOW.toISOString() });
      assert.deepEqual(expectStatus(await t.api({ method: 'GET', path: `permissions/${body.id}/`, token: root.token }), 200), body);
    });

    it('places a permission under the parent named by parent_code, which then lists it among its children', async () => {
      const parent = expectStatus(await create({ code: 'reports', name: 'Reports' }), 201);
      const child = expectStatus(await create({ code: 'reports.view', name: 'View reports', parent_code: 'reports' }), 201);
      assert.deepEqual(child.parent, { id: parent.id, code: 'reports' });
      const reread = expectStatus(await t.api({ method: 'GET', path: `permissions/${parent.id}/`, token: root.token }), 200);
      assert.deepEqual(reread.children, [{ id: child.id, code: 'reports.view' }]);
    });

    it('answers 400 validation for a duplicate code, an unknown parent, a malformed code and a blank name', async () => {
      assert.deepEqual(expectStatus(await create({ code: 'users.view', name: 'Again' }), 400), {
        error: 'Validation error', code: 'VALIDATION_ERROR', details: { code: ['A permission with this code already exists.'] } });
      assert.deepEqual(expectStatus(await create({ code: 'reports.view', name: 'R', parent_code: 'nope' }), 400).details,
        { parent_code: ['Unknown permission code: nope.'] });
      assert.deepEqual(expectStatus(await create({ code: 'Has Spaces', name: 'R' }), 400).details, { code: ['Has an invalid format.'] });
      assert.deepEqual(expectStatus(await create({ code: 'reports..view', name: 'R' }), 400).details, { code: ['Has an invalid format.'] });
      assert.deepEqual(expectStatus(await create({ code: 'reports.view', name: '   ' }), 400).details, { name: ['This field may not be blank.'] });
      assert.deepEqual(expectStatus(await create({ code: 'reports.view' }), 400).details, { name: ['This field is required.'] });
      assert.deepEqual(expectStatus(await create({ code: 'reports.view', name: 'R', is_system: true }), 400).details, { is_system: ['Unknown field.'] });
      assert.equal(expectStatus(await list('?search=reports'), 200).count, 0);
    });

    it('records permission_created with the actor', async () => {
      expectStatus(await create({ code: 'reports', name: 'Reports' }), 201);
      const [event] = await auditEvents(t, 'permission_created');
      assert.equal(event?.actor_id, root.id);
      assert.equal(event?.details.code, 'reports');
    });
  });

  describe('GET, PUT, DELETE permissions/<id>/', () => {
    it('answers 404 NOT_FOUND for a missing or malformed id', async () => {
      for (const id of ['999999', 'abc', '0', '-1', '1.5']) {
        for (const method of ['GET', 'PUT', 'DELETE'] as const) {
          const res = await t.api({ method, path: `permissions/${id}/`, token: root.token, payload: method === 'PUT' ? {} : undefined });
          assert.equal(res.statusCode, 404, `${method} ${id}`);
          assert.deepEqual(res.json(), NOT_FOUND);
        }
      }
    });

    it('PUT changes name and description, keeps what is left out, and moves the permission with parent_code', async () => {
      const parent = expectStatus(await create({ code: 'reports', name: 'Reports' }), 201);
      const p = expectStatus(await create({ code: 'export', name: 'Export', description: 'old' }), 201);
      const put = (payload: object) => t.api({ method: 'PUT', path: `permissions/${p.id}/`, token: root.token, payload });
      assert.deepEqual(expectStatus(await put({ name: 'Export data' }), 200),
        { ...p, name: 'Export data', description: 'old' });
      assert.deepEqual(expectStatus(await put({ description: 'new', parent_code: 'reports' }), 200),
        { ...p, name: 'Export data', description: 'new', parent: { id: parent.id, code: 'reports' } });
      assert.deepEqual(expectStatus(await put({ parent_code: null }), 200).parent, null);
      assert.deepEqual(expectStatus(await put({ code: 'renamed' }), 400).details, { code: ['Unknown field.'] });
    });

    it('PUT refuses an unknown parent and any parent cycle with 400', async () => {
      const a = expectStatus(await create({ code: 'a', name: 'A' }), 201);
      expectStatus(await create({ code: 'a.b', name: 'B', parent_code: 'a' }), 201);
      expectStatus(await create({ code: 'a.b.c', name: 'C', parent_code: 'a.b' }), 201);
      const put = (payload: object) => t.api({ method: 'PUT', path: `permissions/${a.id}/`, token: root.token, payload });
      const cycle = { parent_code: ['A permission cannot be placed under itself or one of its descendants.'] };
      assert.deepEqual(expectStatus(await put({ parent_code: 'a' }), 400).details, cycle);
      assert.deepEqual(expectStatus(await put({ parent_code: 'a.b' }), 400).details, cycle);
      assert.deepEqual(expectStatus(await put({ parent_code: 'a.b.c' }), 400).details, cycle);
      assert.deepEqual(expectStatus(await put({ parent_code: 'missing' }), 400).details, { parent_code: ['Unknown permission code: missing.'] });
      assert.deepEqual(expectStatus(await t.api({ method: 'GET', path: `permissions/${a.id}/`, token: root.token }), 200).parent, null);
    });

    it('DELETE removes the permission from roles and users and makes its children roots', async () => {
      const parent = expectStatus(await create({ code: 'reports', name: 'Reports' }), 201);
      const child = expectStatus(await create({ code: 'reports.view', name: 'View', parent_code: 'reports' }), 201);
      await createRole(t.container.db, 'reporter', ['reports']);
      const res = await t.api({ method: 'DELETE', path: `permissions/${parent.id}/`, token: root.token });
      assert.deepEqual(expectStatus(res, 200), { message: 'Permission deleted' });
      assert.deepEqual(expectStatus(await t.api({ method: 'GET', path: `permissions/${parent.id}/`, token: root.token }), 404), NOT_FOUND);
      assert.equal(expectStatus(await t.api({ method: 'GET', path: `permissions/${child.id}/`, token: root.token }), 200).parent, null);
      const role = await t.container.db.selectFrom('roles').select('id').where('code', '=', 'reporter').executeTakeFirstOrThrow();
      assert.deepEqual(expectStatus(await t.api({ method: 'GET', path: `roles/${role.id}/permissions/`, token: root.token }), 200).permissions, []);
    });

    it('DELETE refuses a system permission with 400', async () => {
      const id = (await t.container.db.selectFrom('permissions').select('id').where('code', '=', 'users.view').executeTakeFirstOrThrow()).id;
      assert.deepEqual(expectStatus(await t.api({ method: 'DELETE', path: `permissions/${id}/`, token: root.token }), 400), {
        error: 'Validation error', code: 'VALIDATION_ERROR', details: { non_field_errors: ['System permissions cannot be deleted.'] } });
    });
  });

  describe('no escalation', () => {
    let manager: Account;
    beforeEach(async () => {
      expectStatus(await create({ code: 'reports', name: 'Reports' }), 201);
      expectStatus(await create({ code: 'billing', name: 'Billing' }), 201);
      manager = await account(t);
      await grantDirect(t, manager.id, ['permissions.view', 'permissions.manage', 'reports']);
    });
    const idOf = async (code: string) =>
      String((await t.container.db.selectFrom('permissions').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);

    it('creates a root permission, or one under a parent the manager holds', async () => {
      expectStatus(await create({ code: 'exports', name: 'Exports' }, manager.token), 201);
      expectStatus(await create({ code: 'reports.view', name: 'View', parent_code: 'reports' }, manager.token), 201);
    });

    // see: issue 12 — placing a new permission under a parent grants nothing of the parent.
    it('creates a permission under a parent the manager does not hold, including one it has just created', async () => {
      const created = expectStatus(await create({ code: 'billing.view', name: 'V', parent_code: 'billing' }, manager.token), 201);
      assert.equal(created.parent.code, 'billing');
      expectStatus(await create({ code: 'invoices', name: 'Invoices' }, manager.token), 201);
      const child = expectStatus(await create({ code: 'invoices.view', name: 'View invoices', parent_code: 'invoices' }, manager.token), 201);
      assert.equal(child.parent.code, 'invoices');
      // Nothing of the parent came with it: the manager still may not place billing under a parent, nor delete it.
      const billing = await idOf('billing');
      assert.deepEqual(expectStatus(await t.api({ method: 'PUT', path: `permissions/${billing}/`, token: manager.token, payload: { parent_code: 'invoices' } }), 403), permissionDenied('billing'));
      assert.deepEqual(expectStatus(await t.api({ method: 'DELETE', path: `permissions/${billing}/`, token: manager.token }), 403), permissionDenied('billing'));
    });

    it('still refuses a create under an unknown parent with 400, and without permissions.manage with 403', async () => {
      assert.deepEqual(expectStatus(await create({ code: 'x.view', name: 'V', parent_code: 'nope' }, manager.token), 400).details,
        { parent_code: ['Unknown permission code: nope.'] });
      const viewer = await account(t);
      await grantDirect(t, viewer.id, ['permissions.view', 'billing']);
      assert.deepEqual(expectStatus(await create({ code: 'billing.edit', name: 'E', parent_code: 'billing' }, viewer.token), 403), permissionDenied('permissions.manage'));
    });

    // see: #30 — editing needs permissions.manage only; placing under a parent also needs holding the permission
    // (docs/access-control.md "No escalation").
    it('renames a permission it does not hold, and makes it a root, with permissions.manage alone; refuses to delete it', async () => {
      const billing = await idOf('billing');
      const put = (payload: object) => t.api({ method: 'PUT', path: `permissions/${billing}/`, token: manager.token, payload });
      const renamed = expectStatus(await put({ name: 'Billing and invoices', description: 'Everything about money' }), 200);
      assert.deepEqual([renamed.name, renamed.description], ['Billing and invoices', 'Everything about money']);
      expectStatus(await t.api({ method: 'PUT', path: `permissions/${billing}/`, token: root.token, payload: { parent_code: 'reports' } }), 200);
      assert.equal(expectStatus(await put({ parent_code: 'reports', name: 'Billing' }), 200).name, 'Billing', 'its parent unchanged: nothing granted');
      assert.equal(expectStatus(await put({ parent_code: null }), 200).parent, null, 'a root: taken from the parent\'s holders, granted to nobody');
      assert.deepEqual(expectStatus(await t.api({ method: 'DELETE', path: `permissions/${billing}/`, token: manager.token }), 403), permissionDenied('billing'));
      const [event] = (await auditEvents(t, 'permission_updated')).filter((e) => e.actor_id === manager.id);
      assert.deepEqual(event?.details.fields, ['name', 'description']);
    });

    it('refuses to place a permission it does not hold under any parent (that grants it to the parent\'s holders)', async () => {
      const billing = await idOf('billing');
      expectStatus(await create({ code: 'invoices', name: 'Invoices' }), 201);
      // Under one the manager holds, it would gain billing itself; under another, it would hand billing to that one's holders.
      for (const parent_code of ['reports', 'invoices', 'permissions.manage']) {
        const res = await t.api({ method: 'PUT', path: `permissions/${billing}/`, token: manager.token, payload: { parent_code, name: 'Mine' } });
        assert.deepEqual(expectStatus(res, 403), permissionDenied('billing'), parent_code);
      }
      const after = expectStatus(await t.api({ method: 'GET', path: `permissions/${billing}/`, token: root.token }), 200);
      assert.deepEqual([after.parent, after.name], [null, 'Billing'], 'a refused move changes nothing, the name included');
      assert.equal(expectStatus(await t.api({ method: 'GET', path: 'me/roles/', token: manager.token }), 200).permissions.includes('billing'), false);
    });

    it('answers 400 for an unknown parent or a cycle before refusing a move of a permission it does not hold', async () => {
      const billing = await idOf('billing');
      expectStatus(await create({ code: 'billing.view', name: 'View', parent_code: 'billing' }), 201);
      const put = (payload: object) => t.api({ method: 'PUT', path: `permissions/${billing}/`, token: manager.token, payload });
      assert.deepEqual(expectStatus(await put({ parent_code: 'nope' }), 400).details, { parent_code: ['Unknown permission code: nope.'] });
      assert.deepEqual(expectStatus(await put({ parent_code: 'billing.view' }), 400).details,
        { parent_code: ['A permission cannot be placed under itself or one of its descendants.'] });
      assert.deepEqual(expectStatus(await put({ parent_code: 'billing' }), 400).details,
        { parent_code: ['A permission cannot be placed under itself or one of its descendants.'] });
    });

    it('moves a held permission under a parent it does not hold, and refuses a cycle', async () => {
      const reports = await idOf('reports');
      expectStatus(await create({ code: 'reports.view', name: 'View', parent_code: 'reports' }, manager.token), 201);
      const res = await t.api({ method: 'PUT', path: `permissions/${reports}/`, token: manager.token, payload: { parent_code: 'billing' } });
      assert.equal(expectStatus(res, 200).parent.code, 'billing');
      const cycle = await t.api({ method: 'PUT', path: `permissions/${await idOf('billing')}/`, token: root.token, payload: { parent_code: 'reports.view' } });
      assert.deepEqual(expectStatus(cycle, 400).details, { parent_code: ['A permission cannot be placed under itself or one of its descendants.'] });
    });

    it('edits and deletes a permission it holds', async () => {
      const reports = await idOf('reports');
      assert.equal(expectStatus(await t.api({ method: 'PUT', path: `permissions/${reports}/`, token: manager.token, payload: { name: 'All reports' } }), 200).name, 'All reports');
      assert.deepEqual(expectStatus(await t.api({ method: 'DELETE', path: `permissions/${reports}/`, token: manager.token }), 200), { message: 'Permission deleted' });
    });
  });
});
