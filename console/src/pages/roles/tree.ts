/**
 * The permission tree as the console builds it from the API: `permissions/?parent=null` gives the roots and
 * `permissions/?parent=<id>` a node's children, a page at a time, fetched when a node is first opened. Nothing here
 * touches React or the network: the page feeds answers in and reads rows out.
 */

/** A permission as `permissions/` lists it. */
export interface PermissionSummary {
  id: string;
  code: string;
  name: string;
  description: string;
}

/** The key of a level: `null` for the roots, else the parent's id. */
export type LevelKey = 'null' | string;

/** One level as fetched so far: the pages loaded, in order, and how many the API says there are. */
export interface Level {
  nodes: PermissionSummary[];
  count: number;
  pagesLoaded: number;
}

export type TreeState = Readonly<Record<LevelKey, Level>>;

export const ROOTS: LevelKey = 'null';

/** The state after page `page` of a level arrived; a level's first page replaces what was there (a reload). */
export function addPage(state: TreeState, key: LevelKey, page: number, answer: { count: number; results: PermissionSummary[] }): TreeState {
  const before = page === 1 ? [] : state[key]?.nodes ?? [];
  const seen = new Set(before.map((n) => n.id));
  const nodes = [...before, ...answer.results.filter((n) => !seen.has(n.id))];
  return { ...state, [key]: { nodes, count: answer.count, pagesLoaded: page } };
}

/** The page to ask for next on a level (1 when nothing was loaded). */
export const nextPage = (state: TreeState, key: LevelKey): number => (state[key]?.pagesLoaded ?? 0) + 1;

/** One visible line: a permission, or the "show more" of a level not fully loaded. */
export type TreeRow =
  | { kind: 'node'; node: PermissionSummary; depth: number; expanded: boolean; loaded: boolean; leaf: boolean }
  | { kind: 'more'; parent: LevelKey; depth: number; remaining: number };

/**
 * The lines to show, depth first: a node's children follow it when it is expanded and they were fetched. A node is a
 * leaf once its children were fetched and there are none; before that nobody knows.
 */
export function visibleRows(state: TreeState, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (key: LevelKey, depth: number, path: ReadonlySet<string>) => {
    const level = state[key];
    if (!level) return;
    for (const node of level.nodes) {
      // A cycle cannot come from the API (the server refuses them); guard anyway so a bad answer cannot hang the page.
      if (path.has(node.id)) continue;
      const children = state[node.id];
      const leaf = children !== undefined && children.count === 0;
      const open = expanded.has(node.id) && !leaf;
      rows.push({ kind: 'node', node, depth, expanded: open, loaded: children !== undefined, leaf });
      if (open) walk(node.id, depth + 1, new Set([...path, node.id]));
    }
    const remaining = level.count - level.nodes.length;
    if (remaining > 0) rows.push({ kind: 'more', parent: key, depth, remaining });
  };
  walk(ROOTS, 0, new Set());
  return rows;
}

/** Adds or removes one code from a selection, without changing the given set. */
export function toggle(selected: ReadonlySet<string>, code: string, on: boolean): Set<string> {
  const next = new Set(selected);
  if (on) next.add(code);
  else next.delete(code);
  return next;
}

/** The codes, sorted: what a role's `permission_codes` is sent as, so a save is the same whatever the click order. */
export const sortedCodes = (selected: Iterable<string>): string[] => [...new Set(selected)].sort();
