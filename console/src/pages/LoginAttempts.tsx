import { useMemo } from 'react';
import type { PageProps } from '.';
import { href, navigate } from '../router';
import { when } from '../ui/Field';
import { PagedTable, usePaged } from '../ui/Paged';
import { FilterForm, type FilterSpec } from './audit/FilterForm';
import { attemptOutcome, filtersOf } from './audit/filters';
import type { LoginAttempt } from './audit/types';
import './audit/audit.css';

/** The filters `GET admin/login-attempts/` accepts (src/modules/admin/security.schemas.ts), but ordering. */
const FILTERS: FilterSpec[] = [
  { name: 'success', label: 'Outcome', options: [['', 'Any'], ['true', 'Succeeded'], ['false', 'Failed']] },
  { name: 'identifier', label: 'Email or phone', hint: 'The exact address, any case' },
  { name: 'ip_address', label: 'IP address', more: true },
  { name: 'user_id', label: 'Account id', type: 'number', more: true },
  { name: 'application_id', label: 'Application id', type: 'number', more: true },
  { name: 'date_from', label: 'From (UTC day)', type: 'date', more: true },
  { name: 'date_to', label: 'To (UTC day)', type: 'date', more: true },
];
const NAMES = FILTERS.map((f) => f.name);

/** `#/login-attempts?success=false`: every sign-in attempt that reached a decision, filtered by the URL. */
export function LoginAttempts({ route }: PageProps) {
  const search = route.query.toString();
  const filters = useMemo(() => filtersOf(new URLSearchParams(search), NAMES), [search]);
  const paged = usePaged<LoginAttempt>('admin/login-attempts/', filters);
  return (
    <>
      <h1>Login attempts</h1>
      <FilterForm key={search} label="Filter the login attempts" specs={FILTERS} values={filters}
        onApply={(next) => navigate(href('login-attempts', next))} />
      <PagedTable caption="Sign-in attempts, newest first" paged={paged} rowKey={(a) => a.id} empty="No attempt matches these filters."
        columns={[
          { header: 'When', cell: (a) => when(a.created_at) },
          { header: 'Email or phone', cell: (a) => a.identifier },
          { header: 'Method', cell: (a) => a.method },
          { header: 'Outcome', cell: (a) => <span className={a.success ? 'badge good' : 'badge bad'}>{attemptOutcome(a)}</span> },
          { header: 'IP address', cell: (a) => <span className="mono">{a.ip_address ?? '—'}</span> },
          { header: 'Application', cell: (a) => (a.application === null ? '—' : `#${a.application}`) },
        ]} />
    </>
  );
}
