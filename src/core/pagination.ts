import { Type, type Static } from 'typebox';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Query fields every paged list accepts. A `page_size` above 100 is clamped, not refused. */
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, default: DEFAULT_PAGE_SIZE })),
});
export type PageQueryInput = Static<typeof PageQuery>;

export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
}

export function pageRequest(query: { page?: number; page_size?: number }): PageRequest {
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(query.page_size ?? DEFAULT_PAGE_SIZE)));
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  page: number;
  page_size: number;
  total_pages: number;
  results: T[];
}

/** Builds the paged body; `url` is the request URL (path and query) used for next/previous links. */
export function toPage<T>(results: T[], count: number, req: PageRequest, url: string): Page<T> {
  const totalPages = Math.max(1, Math.ceil(count / req.pageSize));
  const link = (page: number) => {
    const u = new URL(url, 'http://local');
    u.searchParams.set('page', String(page));
    u.searchParams.set('page_size', String(req.pageSize));
    return `${u.pathname}${u.search}`;
  };
  return {
    count,
    next: req.page < totalPages ? link(req.page + 1) : null,
    previous: req.page > 1 ? link(Math.min(req.page - 1, totalPages)) : null,
    page: req.page,
    page_size: req.pageSize,
    total_pages: totalPages,
    results,
  };
}

/** Response schema of a paged list of `item`. */
export const PageOf = <T extends import('typebox').TSchema>(item: T) => Type.Object({
  count: Type.Integer(),
  next: Type.Union([Type.String(), Type.Null()]),
  previous: Type.Union([Type.String(), Type.Null()]),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total_pages: Type.Integer(),
  results: Type.Array(item),
});
