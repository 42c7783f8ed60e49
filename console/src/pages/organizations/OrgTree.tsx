import { useCallback, useState } from 'react';
import { api } from '../../api';
import { href, Link } from '../../router';
import { Field } from '../../ui/Field';
import { Pager, usePaged, type Page } from '../../ui/Paged';
import { useApi } from '../../ui/useApi';
import type { OrganizationFigures } from '../dashboard/types';
import { OrgError } from './Disabled';
import { emptyTreeText, reachNote } from './reach';
import { visibleRows, type OrgSummary, type TreeNode } from './tree';

export type OrgTreeState = ReturnType<typeof useOrgTree>;

/** The roots a page at a time, and the subtrees fetched as they are opened; shared by the tree and the create form. */
export function useOrgTree() {
  const [search, setSearch] = useState('');
  const filters = { parent: 'null', search };
  const paged = usePaged<OrgSummary>('organizations/', filters);
  const [subtrees, setSubtrees] = useState<ReadonlyMap<string, TreeNode>>(new Map());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  // Once the listing answered (organizations are on): how many the operator sees in all, and how many exist (the
  // dashboard's count, for an operator holding dashboard.view; a refusal leaves it unknown).
  const listed = paged.data !== null;
  const seen = useApi<Page<OrgSummary>>(listed ? 'organizations/?page_size=1' : null);
  const existing = useApi<OrganizationFigures>(listed ? 'dashboard/organizations/' : null);
  const { reload: reloadSeen } = seen;
  const { reload: reloadExisting } = existing;

  const fetchTree = useCallback(async (slug: string) => {
    try {
      const tree = await api<TreeNode>('GET', `organizations/${encodeURIComponent(slug)}/tree/`);
      setSubtrees((old) => new Map(old).set(slug, tree));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);

  const toggle = useCallback((slug: string, isRoot: boolean) => {
    setExpanded((old) => {
      const next = new Set(old);
      if (next.has(slug)) next.delete(slug);
      else next.add(slug);
      return next;
    });
    if (isRoot && !subtrees.has(slug)) void fetchTree(slug);
  }, [subtrees, fetchTree]);

  /** After a change: the roots again, and every subtree already shown. */
  const refresh = useCallback(() => {
    paged.reload();
    reloadSeen();
    reloadExisting();
    for (const slug of subtrees.keys()) void fetchTree(slug);
  }, [paged, reloadSeen, reloadExisting, subtrees, fetchTree]);

  const total = existing.data?.enabled ? existing.data.total_organizations : null;
  const reach = { seen: seen.data?.count ?? null, total };
  return { search, setSearch, paged, subtrees, expanded, toggle, refresh, error, fetchTree, reach };
}

export function OrgTree({ state }: { state: OrgTreeState }) {
  const { paged, subtrees, expanded, toggle, search, setSearch, error, reach } = state;
  const note = reachNote(reach.seen, reach.total);
  const rows = visibleRows(paged.data?.results ?? [], subtrees, expanded);
  return (
    <section className="panel" aria-labelledby="org-tree-title">
      <h2 id="org-tree-title">Organization tree</h2>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search roots" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </form>
      <OrgError error={paged.error ?? error} />
      {paged.data && rows.length === 0 && <p className="muted">{emptyTreeText(reach.total, search.trim() !== '')}</p>}
      {note && <p className="note" role="note">{note}</p>}
      <ul className="tree org-tree" aria-label="Organizations" aria-busy={paged.loading}>
        {rows.map((row) => (
          <li key={row.slug} style={{ marginLeft: `${row.depth * 1.5}rem` }}>
            {row.hasChildren === false ? <span className="tree-leaf" aria-hidden="true">•</span> : (
              <button type="button" className="secondary tree-toggle" aria-expanded={row.expanded}
                aria-label={`${row.expanded ? 'Hide' : 'Show'} sub-organizations of ${row.name}`}
                onClick={() => toggle(row.slug, row.depth === 0)}>{row.expanded ? '−' : '+'}</button>
            )}
            <Link to={href('organizations', row.slug)}>{row.name}</Link>
            <span className="muted mono"> {row.slug}</span>
            <span className="badge">{row.member_count} {row.member_count === 1 ? 'member' : 'members'}</span>
          </li>
        ))}
      </ul>
      <Pager paged={paged} />
    </section>
  );
}
