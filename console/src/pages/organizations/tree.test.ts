import { describe, expect, it } from 'vitest';
import { parentChoices, rootOf, slugFrom, visibleRows, type OrgSummary, type TreeNode } from './tree';

const summary = (id: number, slug: string): OrgSummary => ({
  id, name: slug.toUpperCase(), slug, description: '', member_count: 1, max_members: 0, is_active: true, created_at: '2025-01-01T00:00:00Z',
});
const node = (id: number, slug: string, depth: number, children: TreeNode[] = []): TreeNode => ({
  id, name: slug.toUpperCase(), slug, depth, is_root: depth === 0, member_count: 1, children,
});

const acme = node(1, 'acme', 0, [node(2, 'acme-eng', 1, [node(3, 'acme-platform', 2)]), node(4, 'acme-sales', 1)]);
const roots = [summary(1, 'acme'), summary(5, 'globex')];

describe('visibleRows', () => {
  it('shows the roots alone while no subtree is known, their children unknown', () => {
    expect(visibleRows(roots, new Map(), new Set()).map((r) => [r.slug, r.depth, r.hasChildren])).toEqual([
      ['acme', 0, null], ['globex', 0, null]]);
  });
  it('opens only the expanded nodes, depth first', () => {
    const rows = visibleRows(roots, new Map([['acme', acme]]), new Set(['acme']));
    expect(rows.map((r) => [r.slug, r.depth, r.hasChildren, r.expanded])).toEqual([
      ['acme', 0, true, true], ['acme-eng', 1, true, false], ['acme-sales', 1, false, false], ['globex', 0, null, false]]);
    const deeper = visibleRows(roots, new Map([['acme', acme]]), new Set(['acme', 'acme-eng']));
    expect(deeper.map((r) => r.slug)).toEqual(['acme', 'acme-eng', 'acme-platform', 'acme-sales', 'globex']);
  });
  it('keeps a child closed when its root is closed', () => {
    expect(visibleRows(roots, new Map([['acme', acme]]), new Set(['acme-eng'])).map((r) => r.slug)).toEqual(['acme', 'globex']);
  });
  it('marks a leaf root as having no children once its tree is known', () => {
    const rows = visibleRows([summary(5, 'globex')], new Map([['globex', node(5, 'globex', 0)]]), new Set(['globex']));
    expect(rows).toEqual([{ id: 5, name: 'GLOBEX', slug: 'globex', depth: 0, member_count: 1, hasChildren: false, expanded: false }]);
  });
});

describe('parentChoices', () => {
  it('lists every known organization, indented', () => {
    expect(parentChoices(roots, new Map([['acme', acme]]))).toEqual([
      { id: 1, label: 'ACME (acme)' }, { id: 2, label: '— ACME-ENG (acme-eng)' }, { id: 3, label: '— — ACME-PLATFORM (acme-platform)' },
      { id: 4, label: '— ACME-SALES (acme-sales)' }, { id: 5, label: 'GLOBEX (globex)' }]);
  });
});

describe('rootOf', () => {
  it('finds the root holding a slug', () => {
    const trees = new Map([['acme', acme]]);
    expect(rootOf('acme-platform', trees)).toBe('acme');
    expect(rootOf('acme', trees)).toBe('acme');
    expect(rootOf('globex', trees)).toBeUndefined();
  });
});

describe('slugFrom', () => {
  it('makes a valid slug of a name', () => {
    expect(slugFrom('Acme Corp.')).toBe('acme-corp');
    expect(slugFrom('  Équipe  Plateforme — Paris ')).toBe('equipe-plateforme-paris');
    expect(slugFrom('x'.repeat(60))).toHaveLength(50);
    expect(slugFrom('a'.repeat(49) + ' b')).toBe('a'.repeat(49));
  });
});
