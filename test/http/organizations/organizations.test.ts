import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { accounts, auditEvents, createOrg, expectStatus, join, ORG_ENV, orgApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('organizations', () => {
  const t = useTestApp({ now: NOW, env: ORG_ENV });
  const api = orgApi(t);
  let ann: Account;
  let bob: Account;
  let eve: Account;
  beforeEach(async () => {
    [ann, bob, eve] = await accounts(t, 'ann', 'bob', 'eve');
  });

  describe('POST organizations/', () => {
    it('creates an organization whose creator is its owner, and answers 201 Organization', async () => {
      const body = expectStatus(await api('POST', 'organizations/', ann, {
        payload: { name: ' Acme ', slug: 'acme', description: 'Rockets', metadata: { tier: 'gold' }, max_members: 10 } }), 201);
      assert.deepEqual(body, {
        id: body.id, name: 'Acme', slug: 'acme', description: 'Rockets', metadata: { tier: 'gold' }, is_active: true,
        created_at: NOW.toISOString(), updated_at: NOW.toISOString(), member_count: 1, max_members: 10, parent: null, children: [],
        user_role: 'owner',
        user_permissions: ['org.manage', 'org.members.invite', 'org.members.manage', 'org.members.remove', 'org.owner', 'org.view'],
      });
      assert.equal(typeof body.id, 'number');
      const [event] = await auditEvents(t, 'organization_created');
      assert.equal(event?.actor_id, ann.id);
    });

    it('answers 400 with a bare field map: taken slug, reserved or malformed slug, missing name, unknown parent, big metadata', async () => {
      await createOrg(t, ann, 'acme');
      const create = async (payload: object) => expectStatus(await api('POST', 'organizations/', bob, { payload }), 400);
      assert.deepEqual(await create({ name: 'X', slug: 'acme' }), { slug: ['An organization with this slug already exists.'] });
      assert.deepEqual(await create({ name: 'X', slug: 'members' }), { slug: ['"members" is reserved; choose another slug.'] });
      assert.deepEqual(Object.keys(await create({ name: 'X', slug: 'Not A Slug' })), ['slug']);
      assert.deepEqual(Object.keys(await create({ slug: 'fine' })), ['name']);
      assert.deepEqual(await create({ name: 'X', slug: 'fine', parent_id: 999999 }), { parent_id: ['Unknown parent organization.'] });
      assert.deepEqual(Object.keys(await create({ name: 'X', slug: 'fine', metadata: { blob: 'x'.repeat(17000) } })), ['metadata']);
      assert.deepEqual(Object.keys(await create({ name: 'X', slug: 'fine', max_members: -1 })), ['max_members']);
    });

    it('creates under a parent only with org.manage there, and never deeper than 5 levels', async () => {
      await createOrg(t, ann, 'root');
      await join(t, 'root', bob, 'admin');
      assert.equal(expectStatus(await api('POST', 'organizations/', bob, { payload: { name: 'C', slug: 'child', parent_id: (await detail('root', ann)).id } }), 403).code,
        'INSUFFICIENT_PERMISSIONS');
      let parent = 'root';
      for (let depth = 1; depth <= 5; depth++) {
        const child = `level-${depth}`;
        const body = await createOrg(t, ann, child, parent);
        assert.equal(body.parent.slug, parent);
        parent = child;
      }
      const tooDeep = await api('POST', 'organizations/', ann, { payload: { name: 'X', slug: 'level-6', parent_id: (await detail('level-5', ann)).id } });
      assert.deepEqual(expectStatus(tooDeep, 400), { parent_id: ['The organization tree is at most 5 levels deep below its root.'] });
    });
  });

  const detail = async (slug: string, who: Account) => expectStatus(await api('GET', 'organizations/detail/', who, { slug }), 200);

  describe('the organization context (X-Org-Slug)', () => {
    it('answers 400 ORG_SLUG_REQUIRED without the header, 404 ORG_NOT_FOUND for an unknown slug, 403 NOT_MEMBER outside', async () => {
      await createOrg(t, ann, 'acme');
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', ann), 400).code, 'ORG_SLUG_REQUIRED');
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', ann, { slug: 'nope' }), 404).code, 'ORG_NOT_FOUND');
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', ann, { slug: 'NOT valid!' }), 404).code, 'ORG_NOT_FOUND');
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', bob, { slug: 'acme' }), 403).code, 'NOT_MEMBER');
    });

    it('answers 401 to an unauthenticated probe, whether or not the slug exists', async () => {
      await createOrg(t, ann, 'acme');
      for (const slug of ['acme', 'nope']) assert.equal(expectStatus(await api('GET', 'organizations/detail/', null, { slug }), 401).code, 'UNAUTHORIZED');
    });

    it('hides an inactive organization from everyone but its owners', async () => {
      await createOrg(t, ann, 'acme');
      await join(t, 'acme', bob, 'admin');
      expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'acme', payload: { is_active: false } }), 200);
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', bob, { slug: 'acme' }), 404).code, 'ORG_NOT_FOUND');
      assert.equal((await detail('acme', ann)).is_active, false);
    });

    it('answers 404 FEATURE_DISABLED when organizations are off', async () => {
      const off = await createTestApp({ env: { SVC_ORGANIZATIONS_ENABLED: 'false' } });
      try {
        await off.reset();
        const [someone] = await accounts(off, 'someone');
        for (const [method, path] of [['POST', 'organizations/'], ['GET', 'organizations/list/'], ['GET', 'organizations/detail/'],
          ['GET', 'org-roles/'], ['GET', 'organizations/members/']] as const) {
          const body = expectStatus(await orgApi(off)(method, path, someone, { slug: 'x', payload: method === 'POST' ? {} : undefined }), 404);
          assert.deepEqual([body.code, body.details], ['FEATURE_DISABLED', { setting: 'SVC_ORGANIZATIONS_ENABLED' }], path);
        }
      } finally {
        await off.close();
      }
    });
  });

  describe('roles inherited down the tree', () => {
    beforeEach(async () => {
      await createOrg(t, ann, 'root');
      await createOrg(t, ann, 'mid', 'root');
      await createOrg(t, ann, 'leaf', 'mid');
      await join(t, 'root', bob, 'admin');
    });

    it('lets an admin of the root act as admin in a descendant', async () => {
      const body = await detail('leaf', bob);
      assert.equal(body.user_role, 'admin');
      assert.deepEqual(body.user_permissions, ['org.members.invite', 'org.members.manage', 'org.view']);
    });

    it('takes the heaviest of the own and inherited roles', async () => {
      await join(t, 'leaf', bob, 'member');
      assert.equal((await detail('leaf', bob)).user_role, 'admin');
      await join(t, 'mid', eve, 'member');
      await join(t, 'leaf', eve, 'admin');
      assert.equal((await detail('leaf', eve)).user_role, 'admin');
      assert.equal((await detail('mid', eve)).user_role, 'member');
    });

    it('grants nothing upward: a member of the leaf is not a member of the root', async () => {
      await join(t, 'leaf', eve, 'owner');
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', eve, { slug: 'root' }), 403).code, 'NOT_MEMBER');
    });

    it('inherits nothing with SVC_ORG_ROLE_INHERITANCE=false', async () => {
      const flat = await createTestApp({ env: { ...ORG_ENV, SVC_ORG_ROLE_INHERITANCE: 'false' } });
      try {
        await flat.reset();
        const [owner, admin] = await accounts(flat, 'owner', 'admin');
        await createOrg(flat, owner, 'root');
        await createOrg(flat, owner, 'leaf', 'root');
        await join(flat, 'root', admin, 'admin');
        assert.equal(expectStatus(await orgApi(flat)('GET', 'organizations/detail/', admin, { slug: 'leaf' }), 403).code, 'NOT_MEMBER');
        assert.equal(expectStatus(await orgApi(flat)('GET', 'organizations/detail/', owner, { slug: 'leaf' }), 200).user_role, 'owner');
      } finally {
        await flat.close();
      }
    });
  });
});
