import { useState } from 'react';
import type { Row } from '../../api';
import { href, Link } from '../../router';
import { Field } from '../../ui/Field';
import { PagedTable, usePaged, type Column } from '../../ui/Paged';

type RoleSummary = Row<'roles/'>;

const columns: Array<Column<RoleSummary>> = [
  { header: 'Name', cell: (r) => <Link to={href('roles', r.id)}>{r.name}</Link> },
  { header: 'Code', cell: (r) => <code>{r.code}</code> },
  { header: 'Default', cell: (r) => (r.is_default ? <span className="badge good">Given to new accounts</span> : 'No') },
];

/** `#/roles`: the roles a page at a time, searched on the server. */
export function RoleList() {
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<{ search?: string }>({});
  const paged = usePaged<RoleSummary>('roles/', filters);
  return (
    <>
      <div className="actions"><Link to={href('roles', 'new')} className="button-link">New role</Link></div>
      <form className="filters" role="search" aria-label="Role search"
        onSubmit={(e) => { e.preventDefault(); setFilters(search.trim() ? { search: search.trim() } : {}); }}>
        <Field label="Search roles" type="search" value={search} placeholder="Code or name" onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="secondary">Search</button>
      </form>
      <PagedTable caption="Roles" columns={columns} paged={paged} rowKey={(r) => r.id} empty="No role matches." />
    </>
  );
}
