import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { accounts, auditEvents, createOrg, expectStatus, join, ORG_ENV, orgApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('organizations: list, update, move, delete, tree, org-roles', () => {
  const t = useTestApp({ now: NOW, env: ORG_ENV });
  const api = orgApi(t);
  let ann: Account;
  let bob: Account;
  beforeEach(async () => {
    [ann, bob] = await accounts(t, 'ann', 'bob');
  });

  const idOf = async (slug: string) => (await t.container.db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  const slugs = (body: { results: Array<{ slug: string }> }) => body.results.map((r) => r.slug);

  describe('GET organizations/list/', () => {
    beforeEach(async () => {
      await createOrg(t, ann, 'acme', undefined, { description: 'Rockets' });
      t.clock.advance(60);
      await createOrg(t, ann, 'acme-eu', 'acme');
      t.clock.advance(60);
      await createOrg(t, bob, 'beta');
      t.clock.advance(60);
      await createOrg(t, ann, 'zulu');
    });

    it('lists the caller\'s organizations, inherited ones included, as paged summaries', async () => {
      const body = expectStatus(await api('GET', 'organizations/list/', ann), 200);
      assert.deepEqual(slugs(body), ['acme', 'acme-eu', 'zulu']);
      assert.deepEqual(Object.keys(body.results[0]).sort(),
        ['created_at', 'description', 'id', 'is_active', 'max_members', 'member_count', 'name', 'slug']);
      assert.equal(body.count, 3);
      await join(t, 'acme', bob, 'member');
      assert.deepEqual(slugs(expectStatus(await api('GET', 'organizations/list/', bob), 200)), ['acme', 'acme-eu', 'beta']);
    });

    it('filters by search, is_active and parent, and orders by name, slug and created_at either way', async () => {
      const list = async (q: string) => slugs(expectStatus(await api('GET', `organizations/list/?${q}`, ann), 200));
      assert.deepEqual(await list('search=EU'), ['acme-eu']);
      assert.deepEqual(await list('search=%25'), []);
      assert.deepEqual(await list('parent=null'), ['acme', 'zulu']);
      assert.deepEqual(await list(`parent=${await idOf('acme')}`), ['acme-eu']);
      expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'zulu', payload: { is_active: false } }), 200);
      assert.deepEqual(await list('is_active=false'), ['zulu']);
      assert.deepEqual(await list('ordering=-created_at'), ['zulu', 'acme-eu', 'acme']);
      assert.deepEqual(await list('ordering=-slug'), ['zulu', 'acme-eu', 'acme']);
      assert.deepEqual(await list('page_size=2&page=2'), ['zulu']);
      assert.equal(expectStatus(await api('GET', 'organizations/list/?ordering=members', ann), 400).code, 'VALIDATION_ERROR');
      assert.equal(expectStatus(await api('GET', 'organizations/list/?parent=abc', ann), 400).code, 'VALIDATION_ERROR');
    });
  });

  describe('PATCH organizations/update/', () => {
    it('changes what is sent and keeps the rest; org.manage only', async () => {
      await createOrg(t, ann, 'acme');
      await join(t, 'acme', bob, 'admin');
      const body = expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'acme',
        payload: { name: 'Acme Inc', description: 'New', metadata: { a: 1 }, max_members: 5 } }), 200);
      assert.deepEqual([body.name, body.slug, body.description, body.metadata, body.max_members], ['Acme Inc', 'acme', 'New', { a: 1 }, 5]);
      assert.equal(expectStatus(await api('PATCH', 'organizations/update/', bob, { slug: 'acme', payload: { name: 'X' } }), 403).code,
        'INSUFFICIENT_PERMISSIONS');
      const [event] = await auditEvents(t, 'organization_updated');
      assert.deepEqual(event?.details.fields, ['name', 'description', 'metadata', 'max_members']);
    });

    it('renames the slug (unique, not reserved) and answers 400 INVALID_MEMBER_LIMIT below the member count', async () => {
      await createOrg(t, ann, 'acme');
      await createOrg(t, ann, 'beta');
      await join(t, 'acme', bob, 'member');
      assert.deepEqual(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'acme', payload: { slug: 'beta' } }), 400).details,
        { slug: ['An organization with this slug already exists.'] });
      assert.equal(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'acme', payload: { max_members: 1 } }), 400).code,
        'INVALID_MEMBER_LIMIT');
      assert.equal(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'acme', payload: { max_members: 2 } }), 200).max_members, 2);
      assert.equal(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'acme', payload: { slug: 'acme-2' } }), 200).slug, 'acme-2');
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', ann, { slug: 'acme' }), 404).code, 'ORG_NOT_FOUND');
    });

    it('moves a subtree with org.manage at both ends, rewriting the paths below it', async () => {
      await createOrg(t, ann, 'aa');
      await createOrg(t, ann, 'a1', 'aa');
      await createOrg(t, ann, 'a11', 'a1');
      await createOrg(t, ann, 'bb');
      const moved = expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'a1', payload: { parent_id: await idOf('bb') } }), 200);
      assert.equal(moved.parent.slug, 'bb');
      const tree = expectStatus(await api('GET', 'organizations/tree/', ann, { slug: 'bb' }), 200);
      assert.deepEqual([tree.slug, tree.children[0].slug, tree.children[0].children[0].slug, tree.children[0].children[0].depth], ['bb', 'a1', 'a11', 2]);
      const path = (await t.container.db.selectFrom('organizations').select('ancestor_ids').where('slug', '=', 'a11').executeTakeFirstOrThrow()).ancestor_ids;
      assert.deepEqual(path.map(Number), [await idOf('bb'), await idOf('a1')]);
      expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'a1', payload: { parent_id: null } }), 200);
      assert.equal(expectStatus(await api('GET', 'organizations/tree/', ann, { slug: 'a1' }), 200).is_root, true);
    });

    it('refuses a move into its own subtree, beyond depth 5, or under a parent without org.manage there', async () => {
      await createOrg(t, ann, 'aa');
      await createOrg(t, ann, 'a1', 'aa');
      const cycle = { parent_id: ['An organization cannot be moved under itself or one of its descendants.'] };
      assert.deepEqual(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'aa', payload: { parent_id: await idOf('a1') } }), 400).details, cycle);
      assert.deepEqual(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'aa', payload: { parent_id: await idOf('aa') } }), 400).details, cycle);
      let parent = 'a1';
      for (const slug of ['a2', 'a3', 'a4', 'a5']) { await createOrg(t, ann, slug, parent); parent = slug; }
      await createOrg(t, ann, 'cc');
      await createOrg(t, ann, 'c1', 'cc');
      assert.deepEqual(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'cc', payload: { parent_id: await idOf('a5') } }), 400).details,
        { parent_id: ['The organization tree is at most 5 levels deep below its root.'] });
      await createOrg(t, bob, 'bobs');
      await join(t, 'bobs', ann, 'admin');
      assert.equal(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'cc', payload: { parent_id: await idOf('bobs') } }), 403).code,
        'INSUFFICIENT_PERMISSIONS');
      assert.deepEqual(expectStatus(await api('PATCH', 'organizations/update/', bob, { slug: 'bobs', payload: { parent_id: await idOf('cc') } }), 400).details,
        { parent_id: ['Unknown parent organization.'] }, 'a parent where bob has no role is unknown to him');
    });

    // see: #30 — the moved organization's deepest descendant counts, not the organization alone (docs/organizations.md).
    it('refuses a move that would put a descendant of the moved organization below depth 5', async () => {
      let parent = 'aa';
      await createOrg(t, ann, parent);
      for (const slug of ['a1', 'a2', 'a3', 'a4']) { await createOrg(t, ann, slug, parent); parent = slug; }
      await createOrg(t, ann, 'cc');
      await createOrg(t, ann, 'c1', 'cc');
      await createOrg(t, ann, 'c2', 'c1');
      const tooDeep = { parent_id: ['The organization tree is at most 5 levels deep below its root.'] };
      for (const under of ['a4', 'a3']) {
        const res = await api('PATCH', 'organizations/update/', ann, { slug: 'cc', payload: { parent_id: await idOf(under) } });
        assert.deepEqual(expectStatus(res, 400).details, tooDeep, `cc under ${under}`);
      }
      // The SDK's slug-in-path form runs the same check.
      assert.deepEqual(expectStatus(await api('PATCH', 'organizations/cc/', ann, { payload: { parent_id: await idOf('a3') } }), 400).details, tooDeep);
      const tree = expectStatus(await api('GET', 'organizations/tree/', ann, { slug: 'cc' }), 200);
      assert.equal(tree.is_root, true, 'a refused move changes nothing');
      // Exactly at the limit: c2 lands at depth 5.
      expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'cc', payload: { parent_id: await idOf('a2') } }), 200);
      const moved = expectStatus(await api('GET', 'organizations/tree/', ann, { slug: 'cc' }), 200);
      assert.deepEqual([moved.depth, moved.children[0].children[0].slug, moved.children[0].children[0].depth], [3, 'c2', 5]);
      // The moved subtree now counts for its new ancestors: a1, with c2 five levels below the root, cannot go one level down.
      await createOrg(t, ann, 'dd');
      await createOrg(t, ann, 'd1', 'dd');
      assert.deepEqual(expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'a1', payload: { parent_id: await idOf('d1') } }), 400).details,
        tooDeep);
      expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'a1', payload: { parent_id: await idOf('dd') } }), 200);
    });
  });

  describe('DELETE organizations/delete/', () => {
    it('lets only an owner delete: 403 NOT_OWNER for an admin, 400 HAS_CHILDREN with sub-organizations', async () => {
      await createOrg(t, ann, 'acme');
      await createOrg(t, ann, 'acme-eu', 'acme');
      await join(t, 'acme', bob, 'admin');
      assert.equal(expectStatus(await api('DELETE', 'organizations/delete/', bob, { slug: 'acme' }), 403).code, 'NOT_OWNER');
      assert.equal(expectStatus(await api('DELETE', 'organizations/delete/', ann, { slug: 'acme' }), 400).code, 'HAS_CHILDREN');
      assert.deepEqual(expectStatus(await api('DELETE', 'organizations/delete/', ann, { slug: 'acme-eu' }), 200), { message: 'Organization acme-eu deleted' });
      expectStatus(await api('DELETE', 'organizations/delete/', ann, { slug: 'acme' }), 200);
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', ann, { slug: 'acme' }), 404).code, 'ORG_NOT_FOUND');
      assert.equal((await auditEvents(t, 'organization_deleted')).length, 2);
    });
  });

  describe('GET organizations/tree/ and organizations/detail/', () => {
    it('answers the subtree with depth, is_root and member counts, and the detail with parent and children', async () => {
      await createOrg(t, ann, 'root');
      await createOrg(t, ann, 'b-child', 'root');
      await createOrg(t, ann, 'a-child', 'root');
      await createOrg(t, ann, 'grand', 'a-child');
      await join(t, 'a-child', bob, 'member');
      assert.deepEqual(expectStatus(await api('GET', 'organizations/tree/', ann, { slug: 'root' }), 200), {
        id: await idOf('root'), name: 'ROOT', slug: 'root', depth: 0, is_root: true, member_count: 1, children: [
          { id: await idOf('a-child'), name: 'A-CHILD', slug: 'a-child', depth: 1, is_root: false, member_count: 2, children: [
            { id: await idOf('grand'), name: 'GRAND', slug: 'grand', depth: 2, is_root: false, member_count: 1, children: [] }] },
          { id: await idOf('b-child'), name: 'B-CHILD', slug: 'b-child', depth: 1, is_root: false, member_count: 1, children: [] },
        ],
      });
      const detail = expectStatus(await api('GET', 'organizations/detail/', bob, { slug: 'a-child' }), 200);
      assert.deepEqual([detail.parent, detail.children, detail.member_count, detail.user_role], [
        { id: await idOf('root'), name: 'ROOT', slug: 'root' }, [{ id: await idOf('grand'), name: 'GRAND', slug: 'grand' }], 2, 'member']);
    });
  });

  describe('GET org-roles/', () => {
    it('answers the three system roles, heaviest first, with their permissions', async () => {
      const roles = expectStatus(await api('GET', 'org-roles/', bob), 200);
      assert.deepEqual(roles.map((r: { code: string; weight: number }) => [r.code, r.weight]), [['owner', 100], ['admin', 80], ['member', 20]]);
      assert.deepEqual(roles[2].permissions, [{ code: 'org.view', name: 'View organization', description: 'See the organization, its tree and members' }]);
      assert.deepEqual(Object.keys(roles[0]).sort(), ['code', 'created_at', 'description', 'is_system_role', 'name', 'permissions', 'weight']);
      assert.equal(roles[0].is_system_role, true);
    });
  });
});
