import { describe, expect, it } from 'vitest';
import { addPage, nextPage, ROOTS, sortedCodes, toggle, visibleRows, type PermissionSummary, type TreeState } from './tree';

const perm = (id: number, code: string): PermissionSummary => ({ id: String(id), code, name: code, description: '' });

describe('the permission tree', () => {
  it('lists the roots, then the children of expanded nodes, depth first', () => {
    let state: TreeState = {};
    state = addPage(state, ROOTS, 1, { count: 2, results: [perm(1, 'reports'), perm(2, 'users.view')] });
    state = addPage(state, '1', 1, { count: 1, results: [perm(3, 'reports.export')] });
    state = addPage(state, '3', 1, { count: 1, results: [perm(4, 'reports.export.csv')] });
    const rows = visibleRows(state, new Set(['1', '3']));
    expect(rows.map((r) => (r.kind === 'node' ? `${r.depth}:${r.node.code}` : 'more'))).toEqual(
      ['0:reports', '1:reports.export', '2:reports.export.csv', '0:users.view']);
  });

  it('hides the children of a collapsed node and marks fetched empty levels as leaves', () => {
    let state: TreeState = addPage({}, ROOTS, 1, { count: 2, results: [perm(1, 'a'), perm(2, 'b')] });
    state = addPage(state, '1', 1, { count: 1, results: [perm(3, 'a.x')] });
    state = addPage(state, '2', 1, { count: 0, results: [] });
    const rows = visibleRows(state, new Set(['2']));
    expect(rows).toEqual([
      { kind: 'node', node: perm(1, 'a'), depth: 0, expanded: false, loaded: true, leaf: false },
      { kind: 'node', node: perm(2, 'b'), depth: 0, expanded: false, loaded: true, leaf: true },
    ]);
  });

  it('offers the rest of a level not fully loaded, and appends the next page without duplicates', () => {
    let state: TreeState = addPage({}, ROOTS, 1, { count: 3, results: [perm(1, 'a'), perm(2, 'b')] });
    expect(nextPage(state, ROOTS)).toBe(2);
    expect(visibleRows(state, new Set()).at(-1)).toEqual({ kind: 'more', parent: ROOTS, depth: 0, remaining: 1 });
    state = addPage(state, ROOTS, 2, { count: 3, results: [perm(2, 'b'), perm(5, 'c')] });
    expect(visibleRows(state, new Set()).map((r) => r.kind === 'node' && r.node.code)).toEqual(['a', 'b', 'c']);
  });

  it('starts over when a level is reloaded from its first page', () => {
    let state: TreeState = addPage({}, ROOTS, 1, { count: 1, results: [perm(1, 'a')] });
    state = addPage(state, ROOTS, 1, { count: 1, results: [perm(9, 'z')] });
    expect(state[ROOTS]!.nodes).toEqual([perm(9, 'z')]);
    expect(nextPage({}, '7')).toBe(1);
  });

  it('never loops on a node that names itself among its children', () => {
    let state: TreeState = addPage({}, ROOTS, 1, { count: 1, results: [perm(1, 'a')] });
    state = addPage(state, '1', 1, { count: 1, results: [perm(1, 'a')] });
    expect(visibleRows(state, new Set(['1']))).toHaveLength(1);
  });

  it('toggles codes without touching the given set and sends them sorted', () => {
    const start = new Set(['b']);
    const next = toggle(toggle(start, 'a', true), 'b', false);
    expect([...start]).toEqual(['b']);
    expect(sortedCodes(next.add('c').add('a'))).toEqual(['a', 'c']);
  });
});
