/**
 * The organization tree as the console shows it: the roots come a page at a time from `organizations/?parent=null`,
 * and a root's subtree from `organizations/<slug>/tree/` when it is first opened, so no view loads every organization.
 */

/** A row of the organization list. */
export interface OrgSummary {
  id: number;
  name: string;
  slug: string;
  description: string;
  member_count: number;
  max_members: number;
  is_active: boolean;
  created_at: string;
}

/** A node of the organization tree, as `organizations/tree/` answers it. */
export interface TreeNode {
  id: number;
  name: string;
  slug: string;
  depth: number;
  is_root: boolean;
  member_count: number;
  children: TreeNode[];
}

/** One visible line of the tree. */
export interface TreeRow {
  id: number;
  name: string;
  slug: string;
  depth: number;
  member_count: number;
  /** Null: not known yet (a root whose subtree was not fetched). */
  hasChildren: boolean | null;
  expanded: boolean;
}

/**
 * The lines to show, in order: each root of the page, then — when it is expanded and its subtree known — its
 * descendants, depth first, down through the expanded ones only.
 */
export function visibleRows(roots: readonly OrgSummary[], subtrees: ReadonlyMap<string, TreeNode>, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (node: TreeNode, depth: number) => {
    const open = expanded.has(node.slug);
    rows.push({ id: node.id, name: node.name, slug: node.slug, depth, member_count: node.member_count,
      hasChildren: node.children.length > 0, expanded: open && node.children.length > 0 });
    if (open) for (const child of node.children) walk(child, depth + 1);
  };
  for (const root of roots) {
    const tree = subtrees.get(root.slug);
    if (tree) walk(tree, 0);
    else rows.push({ id: root.id, name: root.name, slug: root.slug, depth: 0, member_count: root.member_count, hasChildren: null, expanded: false });
  }
  return rows;
}

/** Every organization known so far, indented by depth, for choosing a parent: the page's roots and the fetched subtrees. */
export function parentChoices(roots: readonly OrgSummary[], subtrees: ReadonlyMap<string, TreeNode>): Array<{ id: number; label: string }> {
  const choices: Array<{ id: number; label: string }> = [];
  const walk = (node: TreeNode, depth: number) => {
    choices.push({ id: node.id, label: `${'— '.repeat(depth)}${node.name} (${node.slug})` });
    for (const child of node.children) walk(child, depth + 1);
  };
  for (const root of roots) {
    const tree = subtrees.get(root.slug);
    if (tree) walk(tree, 0);
    else choices.push({ id: root.id, label: `${root.name} (${root.slug})` });
  }
  return choices;
}

/** The slug of the root whose subtree holds `slug`, if one was fetched. */
export function rootOf(slug: string, subtrees: ReadonlyMap<string, TreeNode>): string | undefined {
  const holds = (node: TreeNode): boolean => node.slug === slug || node.children.some(holds);
  for (const [root, tree] of subtrees) if (holds(tree)) return root;
  return undefined;
}

/** A slug suggested from a name: lower-case letters, digits and inner hyphens, at most 50 characters. */
export function slugFrom(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50).replace(/-+$/, '');
}
