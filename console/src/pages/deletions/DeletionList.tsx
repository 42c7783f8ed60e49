import { useEffect, useState } from 'react';
import { href, Link } from '../../router';
import { Field, Select, when } from '../../ui/Field';
import { PagedTable, usePaged, type Column } from '../../ui/Paged';
import { deletionQuery, NO_FILTERS, STATUSES, type DeletionFilters } from './filters';
import { ProcessExpired } from './ProcessExpired';
import { StatusBadge } from './StatusBadge';
import type { DeletionRequest } from './types';

const columns: Array<Column<DeletionRequest>> = [
  { header: 'Request', cell: (r) => <Link to={href('deletions', r.id)}>#{r.id}</Link> },
  { header: 'User', cell: (r) => <><Link to={href('users', r.user)}>#{r.user}</Link> {r.user_email ?? <span className="muted">(anonymized)</span>}</> },
  { header: 'Status', cell: (r) => <StatusBadge request={r} /> },
  { header: 'Requested', cell: (r) => when(r.requested_at) },
  { header: 'Confirmed', cell: (r) => when(r.confirmed_at) },
  { header: 'Grace period ends', cell: (r) => <>{when(r.grace_period_ends_at)}{r.is_grace_period_expired && r.status === 'confirmed' ? ' (ended)' : ''}</> },
  { header: 'Completed', cell: (r) => when(r.completed_at) },
];

/** Every deletion request, newest first, one page at a time, with filters and the run over the expired ones. */
export function DeletionList() {
  const [form, setForm] = useState<DeletionFilters>(NO_FILTERS);
  const built = deletionQuery(form);
  // Only well-formed filters reach the API; the last good ones stay applied meanwhile.
  const wanted = 'query' in built ? JSON.stringify(built.query) : null;
  const [query, setQuery] = useState<Record<string, string>>({});
  useEffect(() => { if (wanted !== null) setQuery(JSON.parse(wanted) as Record<string, string>); }, [wanted]);
  const paged = usePaged<DeletionRequest>('admin/deletion-requests/', query);
  const set = (key: keyof DeletionFilters) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });

  return (
    <>
      <ProcessExpired onDone={paged.reload} />
      <form className="filters" role="search" aria-label="Filter deletion requests" onSubmit={(e) => e.preventDefault()}>
        <Select label="Status" value={form.status} onChange={set('status')}>
          <option value="">Any</option>
          {STATUSES.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </Select>
        <Field label="User id" inputMode="numeric" value={form.user_id} onChange={set('user_id')} />
        <Field label="Requested from" type="date" value={form.date_from} onChange={set('date_from')} />
        <Field label="Requested until" type="date" value={form.date_to} onChange={set('date_to')} />
        <Select label="Grace period" value={form.grace} onChange={set('grace')}>
          <option value="">Any</option>
          <option value="true">Confirmed, ending within 7 days</option>
          <option value="false">All others</option>
        </Select>
      </form>
      {'problem' in built && <p className="error" role="alert">{built.problem}</p>}
      <PagedTable caption="Deletion requests" columns={columns} paged={paged} rowKey={(r) => r.id} empty="No deletion request matches." />
    </>
  );
}
