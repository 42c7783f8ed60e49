import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { accounts, createOrg, ORG_ENV, orgApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const ROUNDS = 6;
const tooDeep = { parent_id: ['The organization tree is at most 5 levels deep below its root.'] };

/**
 * docs/organizations.md "Moving an organization": a move is checked and applied under the tree's lock, so two changes
 * that each fit cannot together put an organization below depth 5 or leave a path that no longer names its ancestors.
 * Each round starts both requests at once; on PostgreSQL they run on two connections and interleave.
 */
describe('organizations: concurrent moves keep the tree acyclic and within depth 5', () => {
  const t = useTestApp({ now: NOW, env: ORG_ENV });
  const api = orgApi(t);
  let ann: Account;
  beforeEach(async () => {
    [ann] = await accounts(t, 'ann');
  });

  const idOf = async (slug: string) => (await t.container.db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  const chain = async (...slugs: string[]) => {
    for (const [i, slug] of slugs.entries()) await createOrg(t, ann, slug, slugs[i - 1]);
  };

  /** Every path names the parent's path then the parent, and none is longer than 5. */
  async function assertTreeConsistent() {
    const rows = await t.container.db.selectFrom('organizations').select(['id', 'slug', 'parent_id', 'ancestor_ids']).execute();
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    for (const row of rows) {
      const parent = row.parent_id === null ? undefined : byId.get(Number(row.parent_id));
      const expected = parent ? [...parent.ancestor_ids.map(Number), Number(parent.id)] : [];
      assert.deepEqual(row.ancestor_ids.map(Number), expected, `path of ${row.slug}`);
      assert.ok(row.ancestor_ids.length <= 5, `${row.slug} at depth ${row.ancestor_ids.length}`);
    }
  }

  it('lets one of two moves that together go too deep succeed, and answers 400 to the other', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // a2 is at depth 2, b2 two levels below b: b under a2 fits (b2 at 5), a under c fits (a2 at 3); both do not.
      await chain(`a${round}`, `a${round}-1`, `a${round}-2`);
      await chain(`b${round}`, `b${round}-1`, `b${round}-2`);
      await chain(`c${round}`);
      const [first, second] = await Promise.all([
        api('PATCH', 'organizations/update/', ann, { slug: `b${round}`, payload: { parent_id: await idOf(`a${round}-2`) } }),
        api('PATCH', 'organizations/update/', ann, { slug: `a${round}`, payload: { parent_id: await idOf(`c${round}`) } }),
      ]);
      assert.deepEqual([first.statusCode, second.statusCode].sort(), [200, 400], `round ${round}: ${first.body} ${second.body}`);
      assert.deepEqual([first, second].find((r) => r.statusCode === 400)!.json().details, tooDeep);
      await assertTreeConsistent();
    }
  });

  it('lets one of two moves that together make a cycle succeed, and answers 400 to the other', async () => {
    const cycle = { parent_id: ['An organization cannot be moved under itself or one of its descendants.'] };
    for (let round = 0; round < ROUNDS; round++) {
      await chain(`a${round}`, `a${round}-1`);
      await chain(`b${round}`, `b${round}-1`);
      const [first, second] = await Promise.all([
        api('PATCH', 'organizations/update/', ann, { slug: `a${round}`, payload: { parent_id: await idOf(`b${round}-1`) } }),
        api('PATCH', 'organizations/update/', ann, { slug: `b${round}`, payload: { parent_id: await idOf(`a${round}-1`) } }),
      ]);
      assert.deepEqual([first.statusCode, second.statusCode].sort(), [200, 400], `round ${round}: ${first.body} ${second.body}`);
      assert.deepEqual([first, second].find((r) => r.statusCode === 400)!.json().details, cycle);
      await assertTreeConsistent();
    }
  });

  it('refuses either a sub-organization created below a moving subtree or the move, never neither', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // b2 lands at depth 5 when b moves under a2: a child of b2 then would sit at 6.
      await chain(`a${round}`, `a${round}-1`, `a${round}-2`);
      await chain(`b${round}`, `b${round}-1`, `b${round}-2`);
      const parentId = await idOf(`b${round}-2`);
      const [moved, created] = await Promise.all([
        api('PATCH', 'organizations/update/', ann, { slug: `b${round}`, payload: { parent_id: await idOf(`a${round}-2`) } }),
        api('POST', 'organizations/', ann, { payload: { name: 'Leaf', slug: `leaf-${round}`, parent_id: parentId } }),
      ]);
      const outcome = `round ${round}: ${moved.statusCode} ${moved.body} / ${created.statusCode} ${created.body}`;
      if (moved.statusCode === 200) {
        assert.equal(created.statusCode, 400, outcome);
        assert.deepEqual(created.json(), tooDeep, outcome);
      } else {
        assert.deepEqual([moved.statusCode, created.statusCode], [400, 201], outcome);
        assert.deepEqual(moved.json().details, tooDeep, outcome);
      }
      await assertTreeConsistent();
    }
  });
});
