import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createPermission, createRole } from '../../factories/rbac.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';
import { sdk } from './sdk-request.js';

const PAGE_FIELDS = ['count', 'next', 'page', 'page_size', 'previous', 'results', 'total_pages'];

/** SDK compatibility (docs/migrating-from-tenxyte.md): roles/ and permissions/ stay paged `{count, page, page_size, total_pages, next, previous, results}`. */
describe('SDK compatibility: role and permission lists stay paged', () => {
  const t = useTestApp();
  let root: Account;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
  });

  for (const path of ['roles/', 'permissions/']) {
    it(`GET ${path} as listRoles/listPermissions send it (no query) answers the paged shape`, async () => {
      const body = expectStatus(await sdk(t, 'GET', path, { token: root.token }), 200);
      assert.deepEqual(Object.keys(body).sort(), PAGE_FIELDS);
      const pages = Math.ceil(body.count / 20);
      assert.ok(body.count > 0, JSON.stringify(body));
      assert.deepEqual([body.page, body.page_size, body.total_pages, body.results.length, body.previous],
        [1, 20, pages, Math.min(body.count, 20), null]);
      assert.equal(body.next, pages > 1 ? `/api/v1/auth/${path}?page=2&page_size=20` : null);
      assert.ok(body.results.every((r: object) => 'id' in r && 'code' in r && 'name' in r), JSON.stringify(body.results[0]));
    });
  }

  it('pages by page and page_size: next and previous link the neighbouring pages', async () => {
    for (const code of ['r1', 'r2', 'r3']) await createRole(t.container.db, code);
    await createPermission(t.container.db, 'zz.extra');
    const roles = expectStatus(await sdk(t, 'GET', 'roles/?page=2&page_size=2', { token: root.token }), 200);
    assert.deepEqual([roles.count, roles.page, roles.page_size, roles.total_pages, roles.results.length], [5, 2, 2, 3, 2]);
    assert.equal(roles.next, '/api/v1/auth/roles/?page=3&page_size=2');
    assert.equal(roles.previous, '/api/v1/auth/roles/?page=1&page_size=2');
    const permissions = expectStatus(await sdk(t, 'GET', 'permissions/?page_size=1', { token: root.token }), 200);
    assert.equal(permissions.total_pages, permissions.count);
    assert.deepEqual([permissions.results.length, permissions.previous], [1, null]);
  });
});
