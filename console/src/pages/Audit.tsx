import { useMemo } from 'react';
import type { PageProps } from '.';
import { href, Link, navigate } from '../router';
import { when } from '../ui/Field';
import { PagedTable, usePaged } from '../ui/Paged';
import { AuditDetail } from './audit/AuditDetail';
import { FilterForm, type FilterSpec } from './audit/FilterForm';
import { filtersOf, severityTone, withFilter, type Filters } from './audit/filters';
import type { AuditEvent } from './audit/types';
import './audit/audit.css';

/** The filters `GET admin/audit-logs/` accepts (src/modules/admin/audit-logs.schemas.ts), but ordering. */
const FILTERS: FilterSpec[] = [
  { name: 'action', label: 'Action', hint: 'For example login, login_failed, role_assigned' },
  { name: 'severity', label: 'Severity', options: [['', 'Any'], ['info', 'info'], ['warning', 'warning'], ['critical', 'critical']] },
  { name: 'user_id', label: 'Account id', type: 'number' },
  { name: 'actor_id', label: 'Acted by (account id)', type: 'number', more: true },
  { name: 'application_id', label: 'Application id', type: 'number', more: true },
  { name: 'ip_address', label: 'IP address', more: true },
  { name: 'prompt_trace_id', label: 'Prompt trace id', more: true },
  { name: 'date_from', label: 'From (UTC day)', type: 'date', more: true },
  { name: 'date_to', label: 'To (UTC day)', type: 'date', more: true },
];
const NAMES = FILTERS.map((f) => f.name);

/** `#/audit?action=login` lists events with the URL's filters; `#/audit/<id>` shows one. */
export function Audit({ route }: PageProps) {
  const search = route.query.toString();
  const filters = useMemo(() => filtersOf(new URLSearchParams(search), NAMES), [search]);
  const id = route.parts[1];
  return (
    <>
      <h1>Audit log</h1>
      {id ? <AuditDetail key={id} id={id} filters={filters} /> : <AuditList filters={filters} />}
    </>
  );
}

function AuditList({ filters }: { filters: Filters }) {
  const paged = usePaged<AuditEvent>('admin/audit-logs/', filters);
  const who = (email: string | null, id: number | null, name: string) => (id === null ? '—'
    : <Link to={href('audit', withFilter(filters, name, id))} title="Show only this account's events">{email ?? `#${id}`}</Link>);
  return (
    <>
      <FilterForm key={JSON.stringify(filters)} label="Filter the audit log" specs={FILTERS} values={filters}
        onApply={(next) => navigate(href('audit', next))} />
      <PagedTable caption="Audit events, newest first" paged={paged} rowKey={(e) => e.id} empty="No event matches these filters." columns={[
        { header: 'When', cell: (e) => when(e.created_at) },
        { header: 'Action', cell: (e) => (
          <Link to={href('audit', e.id, filters)} className="mono" aria-label={`${e.action}, event ${e.id}`}>{e.action}</Link>
        ) },
        { header: 'Severity', cell: (e) => <span className={severityTone(e.severity)}>{e.severity}</span> },
        { header: 'Account', cell: (e) => who(e.user_email, e.user, 'user_id') },
        { header: 'Acted by', cell: (e) => who(e.actor_email, e.actor, 'actor_id') },
        { header: 'Application', cell: (e) => e.application_name ?? '—' },
        { header: 'IP address', cell: (e) => <span className="mono">{e.ip_address ?? '—'}</span> },
      ]} />
    </>
  );
}
