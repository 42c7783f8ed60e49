import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { api, type CallOptions } from '../api';
import { ErrorMessage } from '../ErrorMessage';

/** A paged answer (docs/api.md "Paging"). */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export const PAGE_SIZE = 20;

/** `path?a=1&b=2` without the empty filters. */
export function withQuery(path: string, params: Record<string, string | number | boolean | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * One page of a paged list, fetched from the API as the page or the filters change: nothing loads a whole table.
 * `filters` must be a stable value (a state object), and returning to page 1 when they change is the caller's choice.
 */
export function usePaged<T>(path: string, filters: Record<string, string | number | boolean | null | undefined>, pageSize = PAGE_SIZE,
  opts: CallOptions = {}) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page<T> | null>(null);
  /** The page `data` holds: the pager names it, not the one being fetched, so "Page 2" means page 2's rows are shown. */
  const [shown, setShown] = useState(1);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(filters);

  useEffect(() => { setPage(1); }, [key]);
  useEffect(() => {
    let live = true;
    setLoading(true);
    api<Page<T>>('GET', withQuery(path, { ...filters, page, page_size: pageSize }), undefined, opts).then(
      (answer) => { if (live) { setData(answer); setShown(page); setError(null); } },
      (err: unknown) => { if (live) setError(err); },
    ).finally(() => { if (live) setLoading(false); });
    return () => { live = false; };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, key, page, pageSize, version, opts.orgSlug]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, loading, page, shown, setPage, pageSize, reload };
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

/** A table of one page of rows, with its pager; text is always rendered as text. */
export function PagedTable<T>({ caption, columns, paged, rowKey, empty = 'Nothing to show.' }: {
  caption: string;
  columns: Array<Column<T>>;
  paged: ReturnType<typeof usePaged<T>>;
  rowKey: (row: T) => string | number;
  empty?: string;
}) {
  const { data, error, loading } = paged;
  return (
    <div className="paged" aria-busy={loading}>
      <ErrorMessage error={error} />
      <div className="table-scroll">
        <table>
          <caption>{caption}</caption>
          <thead><tr>{columns.map((c) => <th key={c.header} scope="col">{c.header}</th>)}</tr></thead>
          <tbody>
            {data?.results.map((row) => <tr key={rowKey(row)}>{columns.map((c) => <td key={c.header} data-label={c.header}>{c.cell(row)}</td>)}</tr>)}
            {data && data.results.length === 0 && <tr><td colSpan={columns.length}>{empty}</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager paged={paged} />
    </div>
  );
}

export function Pager<T>({ paged }: { paged: ReturnType<typeof usePaged<T>> }) {
  const { data, shown, loading, setPage, pageSize } = paged;
  if (!data) return null;
  const pages = Math.max(1, Math.ceil(data.count / pageSize));
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="secondary" disabled={!data.previous || loading} onClick={() => setPage(shown - 1)}>Previous</button>
      <span>Page {shown} of {pages} · {data.count} in all</span>
      <button type="button" className="secondary" disabled={!data.next || loading} onClick={() => setPage(shown + 1)}>Next</button>
    </nav>
  );
}
