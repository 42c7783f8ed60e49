/**
 * The user list's filters live in the URL query (`#/users?search=ann&is_banned=true`), so a reload or a shared link
 * shows the same list. Only what `GET admin/users/` accepts is passed on; anything else in the URL is dropped.
 */

export const FLAG_FILTERS = ['is_active', 'is_staff', 'is_superuser', 'is_banned', 'is_locked', 'is_deleted'] as const;
export type FlagFilter = (typeof FLAG_FILTERS)[number];

export const ORDERINGS = ['-created_at', 'created_at', 'email', '-email', '-last_login', 'last_login', 'last_name', 'first_name'] as const;

export interface UserFilters {
  search: string;
  role: string;
  ordering: string;
  date_from: string;
  date_to: string;
  flags: Partial<Record<FlagFilter, 'true' | 'false'>>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters a URL query names; values the API would refuse (a misspelt flag, a bad date) are left out. */
export function filtersFromQuery(query: URLSearchParams): UserFilters {
  const flags: UserFilters['flags'] = {};
  for (const flag of FLAG_FILTERS) {
    const value = query.get(flag);
    if (value === 'true' || value === 'false') flags[flag] = value;
  }
  const ordering = query.get('ordering') ?? '';
  const date = (name: string) => { const v = query.get(name) ?? ''; return DATE.test(v) ? v : ''; };
  return {
    search: (query.get('search') ?? '').trim().slice(0, 100),
    role: (query.get('role') ?? '').trim().slice(0, 100),
    ordering: (ORDERINGS as readonly string[]).includes(ordering) ? ordering : '',
    date_from: date('date_from'),
    date_to: date('date_to'),
    flags,
  };
}

/** The query string of `GET admin/users/` (and of the console's URL), without empty filters. */
export function filtersToParams(f: UserFilters): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of ['search', 'role', 'ordering', 'date_from', 'date_to'] as const) if (f[key]) params[key] = f[key];
  for (const flag of FLAG_FILTERS) { const v = f.flags[flag]; if (v) params[flag] = v; }
  return params;
}

/** A display name for an account: its names, else its email, else its phone, else its id. */
export function displayName(u: { id: number; first_name: string; last_name: string; email: string | null; phone: string | null }): string {
  return [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email || u.phone || `User ${u.id}`;
}
