import { useMemo, useState, type FormEvent } from 'react';
import { href, Link, navigate, type Route } from '../../router';
import { Field, Select, when } from '../../ui/Field';
import { PagedTable, usePaged, type Column } from '../../ui/Paged';
import { displayName, FLAG_FILTERS, filtersFromQuery, filtersToParams, type FlagFilter, type UserFilters } from './filters';
import { StatusBadges } from './StatusBadges';
import type { AdminUserSummary } from './types';

const FLAG_LABELS: Record<FlagFilter, string> = {
  is_active: 'Active', is_staff: 'Staff', is_superuser: 'Superuser', is_banned: 'Banned', is_locked: 'Locked', is_deleted: 'Deleted',
};

const ORDER_LABELS: Record<string, string> = {
  '-created_at': 'Newest first', created_at: 'Oldest first', email: 'Email A–Z', '-email': 'Email Z–A',
  '-last_login': 'Last sign-in, recent first', last_login: 'Last sign-in, oldest first', last_name: 'Last name', first_name: 'First name',
};

const columns: Array<Column<AdminUserSummary>> = [
  { header: 'Name', cell: (u) => <Link to={href('users', u.id)}>{displayName(u)}</Link> },
  { header: 'Email', cell: (u) => u.email ?? '—' },
  { header: 'Roles', cell: (u) => u.roles.join(', ') || '—' },
  { header: 'Status', cell: (u) => <StatusBadges user={u} /> },
  { header: '2FA', cell: (u) => (u.is_2fa_enabled ? 'On' : 'Off') },
  { header: 'Created', cell: (u) => when(u.created_at) },
  { header: 'Last sign-in', cell: (u) => when(u.last_login) },
];

/** `#/users`: the accounts a page at a time; the filters are the URL's, so a reload keeps them. */
export function UserList({ route }: { route: Route }) {
  const queryText = route.query.toString();
  const applied = useMemo(() => filtersFromQuery(new URLSearchParams(queryText)), [queryText]);
  const params = useMemo(() => filtersToParams(applied), [applied]);
  const paged = usePaged<AdminUserSummary>('admin/users/', params);
  return (
    <>
      <h1>Users</h1>
      {/* Keyed by the URL so the form shows the filters applied after back/forward. */}
      <FilterForm key={queryText} applied={applied} />
      <PagedTable caption="Accounts" columns={columns} paged={paged} rowKey={(u) => u.id} empty="No account matches these filters." />
    </>
  );
}

function FilterForm({ applied }: { applied: UserFilters }) {
  const [draft, setDraft] = useState<UserFilters>(applied);
  const set = (patch: Partial<UserFilters>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(href('users', filtersToParams({ ...draft, search: draft.search.trim(), role: draft.role.trim() })));
  };
  return (
    <form className="filters panel" role="search" aria-label="Filter users" onSubmit={submit}>
      <Field label="Search" type="search" value={draft.search} placeholder="Name, email, username or phone"
        onChange={(e) => set({ search: e.target.value })} />
      <Field label="Role code" value={draft.role} onChange={(e) => set({ role: e.target.value })} />
      {FLAG_FILTERS.map((flag) => (
        <Select key={flag} label={FLAG_LABELS[flag]} value={draft.flags[flag] ?? ''}
          onChange={(e) => {
            const value = e.target.value;
            const flags = { ...draft.flags };
            if (value === 'true' || value === 'false') flags[flag] = value;
            else delete flags[flag];
            set({ flags });
          }}>
          <option value="">Any</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </Select>
      ))}
      <Field label="Created from" type="date" value={draft.date_from} onChange={(e) => set({ date_from: e.target.value })} />
      <Field label="Created until" type="date" value={draft.date_to} onChange={(e) => set({ date_to: e.target.value })} />
      <Select label="Order" value={draft.ordering} onChange={(e) => set({ ordering: e.target.value })}>
        <option value="">Newest first</option>
        {Object.entries(ORDER_LABELS).filter(([v]) => v !== '-created_at').map(([v, label]) => <option key={v} value={v}>{label}</option>)}
      </Select>
      <div className="actions">
        <button type="submit">Apply filters</button>
        <button type="button" className="secondary" onClick={() => navigate(href('users'))}>Clear</button>
      </div>
    </form>
  );
}
