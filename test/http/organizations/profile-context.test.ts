import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { accounts, createOrg, expectStatus, join, ORG_ENV, orgApi, type Account } from './helpers.js';

const OWNER_PERMISSIONS = ['org.manage', 'org.members.invite', 'org.members.manage', 'org.members.remove', 'org.owner', 'org.view'];
const ADMIN_PERMISSIONS = ['org.members.invite', 'org.members.manage', 'org.view'];
const EMPTY_CONTEXT = { current_org: null, roles: [], permissions: [] };

/** docs/organizations.md: `me/` and `me/roles/` with and without X-Org-Slug. */
describe('organization context of me/ and me/roles/', () => {
  const t = useTestApp({ env: ORG_ENV });
  const api = orgApi(t);
  let ann: Account;
  let bob: Account;
  let eve: Account;
  beforeEach(async () => {
    [ann, bob, eve] = await accounts(t, 'ann', 'bob', 'eve');
    await createOrg(t, ann, 'root');
    let parent = 'root';
    for (let depth = 1; depth <= 5; depth++) {
      await createOrg(t, ann, `level-${depth}`, parent);
      parent = `level-${depth}`;
    }
    await join(t, 'root', bob, 'admin');
  });

  const me = async (who: Account, slug?: string) => expectStatus(await api('GET', 'me/', who, { slug }), 200);
  const roles = async (who: Account, slug?: string) => expectStatus(await api('GET', 'me/roles/', who, { slug }), 200);
  const orgRef = async (slug: string) =>
    t.container.db.selectFrom('organizations').select(['id', 'name', 'slug']).where('slug', '=', slug).executeTakeFirstOrThrow();

  it('answers an empty organization_context on me/ and the global lists alone on me/roles/ without the header', async () => {
    assert.deepEqual((await me(ann)).organization_context, EMPTY_CONTEXT);
    assert.deepEqual(await roles(ann), { roles: ['user'], permissions: [] });
  });

  it('fills organization_context with the current organization, the effective role and its permissions', async () => {
    const body = await me(ann, 'root');
    assert.deepEqual(body.organization_context, { current_org: await orgRef('root'), roles: ['owner'], permissions: OWNER_PERMISSIONS });
    assert.equal(body.email, 'ann@example.com');
  });

  it('answers the role inherited from the root in a leaf five levels down', async () => {
    assert.deepEqual((await me(bob, 'level-5')).organization_context,
      { current_org: await orgRef('level-5'), roles: ['admin'], permissions: ADMIN_PERMISSIONS });
  });

  it('answers the heaviest role alone when a lighter one is held in the organization itself', async () => {
    await join(t, 'level-3', bob, 'member');
    assert.deepEqual((await me(bob, 'level-3')).organization_context.roles, ['admin']);
    await join(t, 'level-3', bob, 'owner');
    assert.deepEqual((await me(bob, 'level-3')).organization_context,
      { current_org: await orgRef('level-3'), roles: ['owner'], permissions: OWNER_PERMISSIONS });
  });

  it('answers me/roles/ with the global lists unchanged and the organization context beside them', async () => {
    assert.deepEqual(await roles(bob, 'level-2'), {
      roles: ['user'], permissions: [],
      organization_context: { current_org: await orgRef('level-2'), roles: ['admin'], permissions: ADMIN_PERMISSIONS },
    });
  });

  it('reads the slug case-insensitively, as the organization routes do', async () => {
    assert.deepEqual((await me(ann, 'ROOT')).organization_context.current_org, await orgRef('root'));
  });

  it('answers 404 ORG_NOT_FOUND for an unknown slug and 403 NOT_MEMBER where the caller holds no role', async () => {
    for (const path of ['me/', 'me/roles/']) {
      assert.equal(expectStatus(await api('GET', path, ann, { slug: 'nope' }), 404).code, 'ORG_NOT_FOUND', path);
      assert.equal(expectStatus(await api('GET', path, ann, { slug: 'Not a slug!' }), 404).code, 'ORG_NOT_FOUND', path);
      assert.equal(expectStatus(await api('GET', path, eve, { slug: 'level-5' }), 403).code, 'NOT_MEMBER', path);
    }
  });

  it('answers 404 ORG_NOT_FOUND for an inactive organization to all but its owners', async () => {
    await t.container.db.updateTable('organizations').set({ is_active: false }).where('slug', '=', 'level-1').execute();
    assert.equal(expectStatus(await api('GET', 'me/', bob, { slug: 'level-1' }), 404).code, 'ORG_NOT_FOUND');
    assert.deepEqual((await me(ann, 'level-1')).organization_context.roles, ['owner']);
  });

  it('answers 401 before looking at the slug', async () => {
    for (const slug of ['root', 'nope']) assert.equal(expectStatus(await api('GET', 'me/', null, { slug }), 401).code, 'UNAUTHORIZED');
  });

  it('ignores the header while organizations are off', async () => {
    const off = await createTestApp({ env: { SVC_ORGANIZATIONS_ENABLED: 'false' } });
    try {
      const offApi = orgApi(off);
      const [someone] = await accounts(off, 'someone');
      await join(off, 'root', someone, 'owner');
      for (const slug of ['root', 'nope']) {
        assert.deepEqual(expectStatus(await offApi('GET', 'me/', someone, { slug }), 200).organization_context, EMPTY_CONTEXT, slug);
        assert.deepEqual(expectStatus(await offApi('GET', 'me/roles/', someone, { slug }), 200), { roles: ['user'], permissions: [] }, slug);
      }
    } finally {
      await off.close();
    }
  });
});
