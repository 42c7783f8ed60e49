import { Type, type TProperties } from 'typebox';
import { DEFAULT_PAGE_SIZE } from './pagination.js';
import { AppError } from './errors.js';

/**
 * Query-string building blocks shared by the administrative lists (permissions, roles, applications, admin/*).
 * Every filter and ordering value is validated by the schema; nothing from the query is put into SQL text.
 */

/** The paging fields; `page` is bounded so an absurd page number cannot overflow the offset. */
const PAGE_FIELDS = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, default: DEFAULT_PAGE_SIZE, description: 'Above 100 is clamped to 100' })),
};

/** A list's query string: paging plus `filters`; unknown parameters are refused like unknown body fields. */
export const ListQuery = <P extends TProperties>(filters: P) =>
  Type.Object({ ...PAGE_FIELDS, ...filters }, { additionalProperties: false });

export type Direction = 'asc' | 'desc';
export interface Order<C extends string> {
  column: C;
  direction: Direction;
}

/** `ordering`: one of `columns`, ascending, or descending with a leading `-`. */
export const Ordering = <C extends string>(columns: readonly C[], fallback: string) => Type.Optional(Type.Enum(
  columns.flatMap((c) => [c, `-${c}`]),
  { type: 'string', description: `Sort by ${columns.join(', ')}; prefix - for descending (default ${fallback})` },
));

export function orderOf<C extends string>(value: string | undefined, fallback: `${C}` | `-${C}`): Order<C> {
  const chosen = value ?? fallback;
  return chosen.startsWith('-')
    ? { column: chosen.slice(1) as C, direction: 'desc' }
    : { column: chosen as C, direction: 'asc' };
}

export const SearchText = Type.String({ minLength: 1, maxLength: 100 });
export const IdFilter = Type.Integer({ minimum: 1, maximum: 999_999_999_999_999 });
export const DateFilter = Type.String({ format: 'date', description: 'YYYY-MM-DD, a UTC day (date_to is inclusive)' });

/** `%pattern%` for ILIKE, with the pattern's own wildcards taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `date_from`/`date_to` (whole UTC days, both inclusive) as `[from, before)`; 400 when they are reversed. */
export function dateRange(query: { date_from?: string; date_to?: string }): { from?: Date; before?: Date } {
  const from = query.date_from ? new Date(`${query.date_from}T00:00:00Z`) : undefined;
  const before = query.date_to ? new Date(Date.parse(`${query.date_to}T00:00:00Z`) + 86_400_000) : undefined;
  if (from && before && from >= before) throw AppError.validation({ date_to: ['Must not be before date_from.'] });
  return { ...(from ? { from } : {}), ...(before ? { before } : {}) };
}
