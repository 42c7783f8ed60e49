import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTree, childPath, depthOf, fitsUnder, heightBelow, MAX_DEPTH, RESERVED_SLUGS, SLUG_PATTERN, wouldCycle, type TreeRow } from './org-tree.js';

const row = (id: number, ancestor_ids: number[], name = `org${id}`): TreeRow =>
  ({ id, ancestor_ids, name, slug: `org-${id}`, parent_id: ancestor_ids.at(-1) ?? null, member_count: id });

describe('org-tree', () => {
  it('counts depth from the path, the root at 0, and builds a child path', () => {
    assert.equal(depthOf(row(1, [])), 0);
    assert.equal(depthOf(row(4, [1, 2, 3])), 3);
    assert.deepEqual(childPath(row(4, [1, 2, 3])), [1, 2, 3, 4]);
  });

  it('refuses a move under itself or under one of its descendants', () => {
    assert.equal(wouldCycle(2, row(2, [1])), true);
    assert.equal(wouldCycle(2, row(5, [1, 2, 3])), true);
    assert.equal(wouldCycle(2, row(6, [1])), false);
  });

  it('fits a subtree only when none of it goes deeper than 5', () => {
    assert.equal(MAX_DEPTH, 5);
    assert.equal(fitsUnder(null, 5), true);
    assert.equal(fitsUnder(null, 6), false);
    assert.equal(fitsUnder(row(5, [1, 2, 3, 4]), 0), true, 'a leaf at depth 5');
    assert.equal(fitsUnder(row(6, [1, 2, 3, 4, 5]), 0), false, 'depth 6');
    assert.equal(fitsUnder(row(3, [1, 2]), 2), true);
    assert.equal(fitsUnder(row(3, [1, 2]), 3), false);
  });

  it('measures the height of the subtree below an organization', () => {
    const rows = [row(1, []), row(2, [1]), row(3, [1, 2]), row(4, [1, 2, 3]), row(5, [1])];
    assert.equal(heightBelow(1, rows), 3);
    assert.equal(heightBelow(2, rows), 2);
    assert.equal(heightBelow(5, rows), 0);
  });

  it('builds the nested tree of one organization, children by name', () => {
    const rows = [row(2, [1], 'b'), row(3, [1, 2], 'z'), row(4, [1, 2], 'a'), row(9, [8], 'elsewhere')];
    const tree = buildTree(2, rows)!;
    assert.deepEqual({ ...tree, children: undefined }, { id: 2, name: 'b', slug: 'org-2', depth: 1, is_root: false, member_count: 2, children: undefined });
    assert.deepEqual(tree.children.map((c) => [c.name, c.depth, c.children.length]), [['a', 2, 0], ['z', 2, 0]]);
    assert.equal(buildTree(7, rows), undefined);
  });

  it('accepts lower-case slugs of 2 to 50 characters with inner hyphens, and reserves the route words', () => {
    const slug = new RegExp(SLUG_PATTERN);
    for (const ok of ['ab', 'acme', 'acme-eu-2', 'a'.repeat(50)]) assert.ok(slug.test(ok), ok);
    for (const bad of ['a', 'Acme', 'acme_eu', '-acme', 'acme-', 'a'.repeat(51), 'acmé', 'ac me']) assert.ok(!slug.test(bad), bad);
    assert.deepEqual([...RESERVED_SLUGS].sort(), ['delete', 'detail', 'invitations', 'list', 'members', 'roles', 'tree', 'update']);
  });
});
