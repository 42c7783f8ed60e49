import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type Answer } from '../../api';
import { withQuery } from '../../ui/Paged';
import { addPage, nextPage, ROOTS, visibleRows, type LevelKey, type TreeState } from './tree';

/** Children per request: a level with more shows "Show more". */
export const TREE_PAGE_SIZE = 50;

/**
 * The permission tree, fetched a level at a time: the roots on mount, a node's children when it is first opened.
 * The answers are folded by the pure functions of tree.ts.
 */
export function usePermissionTree() {
  const [state, setState] = useState<TreeState>({});
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const stateRef = useRef(state);
  stateRef.current = state;

  const load = useCallback(async (key: LevelKey, page: number) => {
    setLoading(true);
    try {
      const answer = await api<Answer<'permissions/'>>('GET',
        withQuery('permissions/', { parent: key, page, page_size: TREE_PAGE_SIZE, ordering: 'code' }));
      setState((s) => addPage(s, key, page, answer));
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => { void load(ROOTS, 1); }, [load]);

  const expandedRef = useRef(expanded);
  expandedRef.current = expanded;

  const toggleNode = useCallback((id: string) => {
    const opening = !expandedRef.current.has(id);
    setExpanded((open) => {
      const next = new Set(open);
      if (opening) next.add(id);
      else next.delete(id);
      return next;
    });
    if (opening && !stateRef.current[id]) void load(id, 1);
  }, [load]);

  const more = useCallback((key: LevelKey) => load(key, nextPage(stateRef.current, key)), [load]);

  /** Fetches again the first page of every level already seen (after a change to the tree). */
  const reload = useCallback(async () => {
    await Promise.all(Object.keys(stateRef.current).map((key) => load(key, 1)));
  }, [load]);

  /** Opens a node (and fetches its children again), e.g. to show a permission just created under it. */
  const reveal = useCallback(async (id: string) => {
    setExpanded((open) => new Set([...open, id]));
    await load(id, 1);
  }, [load]);

  return { rows: visibleRows(state, expanded), state, error, loading, toggleNode, more, reload, reveal };
}

export type PermissionTreeModel = ReturnType<typeof usePermissionTree>;
