/**
 * The organization tree's rules (docs/organizations.md "The tree"), pure. Each organization keeps the ids of its
 * ancestors, the root first (a materialized path): its depth is their count, and a move is checked on them alone.
 */

/** The deepest level an organization may sit at (the root is at 0). */
export const MAX_DEPTH = 5;

export interface TreePlace {
  id: number;
  ancestor_ids: readonly number[];
}

export const depthOf = (org: Pick<TreePlace, 'ancestor_ids'>): number => org.ancestor_ids.length;

/** The path a child of `parent` gets: the parent's ancestors, then the parent. */
export const childPath = (parent: TreePlace): number[] => [...parent.ancestor_ids, parent.id];

/** Moving `orgId` under `parent` would make it its own ancestor. */
export const wouldCycle = (orgId: number, parent: TreePlace): boolean => parent.id === orgId || parent.ancestor_ids.includes(orgId);

/**
 * Whether a subtree `height` levels tall (0: a leaf) fits under `parent` (null: as a root) without any of it going
 * deeper than MAX_DEPTH.
 */
export const fitsUnder = (parent: TreePlace | null, height: number): boolean =>
  (parent ? depthOf(parent) + 1 : 0) + height <= MAX_DEPTH;

/** Slugs name organizations in paths and headers: lower-case letters, digits and inner hyphens, 2 to 50 characters. */
export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,48}[a-z0-9]$';

/** Words the organization routes use as path segments (`organizations/<slug>/` would shadow them). */
export const RESERVED_SLUGS: readonly string[] = ['list', 'detail', 'update', 'delete', 'tree', 'members', 'invitations', 'roles'];

export interface TreeRow extends TreePlace {
  name: string;
  slug: string;
  parent_id: number | null;
  member_count: number;
}

export interface TreeNode {
  id: number;
  name: string;
  slug: string;
  depth: number;
  is_root: boolean;
  member_count: number;
  children: TreeNode[];
}

/** The node of `rootId` with its descendants among `rows` (children ordered by name, then id). */
export function buildTree(rootId: number, rows: readonly TreeRow[]): TreeNode | undefined {
  const byParent = new Map<number, TreeRow[]>();
  for (const row of rows) {
    if (row.parent_id === null) continue;
    const siblings = byParent.get(row.parent_id) ?? [];
    siblings.push(row);
    byParent.set(row.parent_id, siblings);
  }
  const node = (row: TreeRow): TreeNode => ({
    id: row.id, name: row.name, slug: row.slug, depth: depthOf(row), is_root: row.parent_id === null,
    member_count: row.member_count,
    children: (byParent.get(row.id) ?? []).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id).map(node),
  });
  const root = rows.find((r) => r.id === rootId);
  return root ? node(root) : undefined;
}

/** How many levels below `rootId` its deepest descendant sits (0 for a leaf). */
export function heightBelow(rootId: number, rows: readonly TreePlace[]): number {
  let height = 0;
  for (const row of rows) {
    const at = row.ancestor_ids.indexOf(rootId);
    if (at >= 0) height = Math.max(height, row.ancestor_ids.length - at);
  }
  return height;
}
