import { useState } from 'react';
import type { PageProps } from '.';
import { api } from '../api';
import { href, Link } from '../router';
import { Field, Select, when } from '../ui/Field';
import { PagedTable, usePaged } from '../ui/Paged';
import { useAction } from '../ui/useApi';
import { ApplicationDetail } from './applications/ApplicationDetail';
import { ApplicationForm, type ApplicationInput } from './applications/ApplicationForm';
import { SecretOnce } from './applications/SecretOnce';
import type { Application, Credentials } from './applications/types';
import { useConsoleKey } from './applications/useConsoleKey';
import './applications/applications.css';

/** `#/applications` lists and creates; `#/applications/<id>` shows, edits, regenerates and deletes one. */
export function Applications({ route }: PageProps) {
  const consoleKey = useConsoleKey();
  const id = route.parts[1];
  return (
    <div className="apps-page">
      <h1>Applications</h1>
      {id ? <ApplicationDetail key={id} id={id} consoleKey={consoleKey} /> : <ApplicationList consoleKey={consoleKey} />}
    </div>
  );
}

function ApplicationList({ consoleKey }: { consoleKey: string | null }) {
  const [filters, setFilters] = useState({ search: '', kind: '', is_active: '' });
  const paged = usePaged<Application>('applications/', filters);
  const [creating, setCreating] = useState(false);
  // The secret lives in this view's memory only: leaving the list unmounts it, and the secret with it.
  const [created, setCreated] = useState<Credentials | null>(null);
  const create = useAction();

  const onCreate = (input: ApplicationInput) => {
    void create.run(() => api<Credentials>('POST', 'applications/', input)).then((answer) => {
      if (answer) { setCreated(answer); setCreating(false); paged.reload(); }
    });
  };

  return (
    <>
      {created && (
        <SecretOnce title={`Credentials of ${created.application.name}`} warning={created.warning} onDismiss={() => setCreated(null)}
          entries={[{ label: 'Access key', value: created.credentials.access_key },
            ...(created.credentials.access_secret ? [{ label: 'Access secret', value: created.credentials.access_secret }] : [])]} />
      )}
      <div className="actions">
        {!creating && <button type="button" onClick={() => { create.clear(); setCreating(true); }}>New application</button>}
      </div>
      {creating && (
        <section className="panel" aria-labelledby="app-create">
          <h2 id="app-create">New application</h2>
          <ApplicationForm submitLabel="Create application" busy={create.busy} error={create.error} onSubmit={onCreate}
            onCancel={() => setCreating(false)} />
        </section>
      )}
      <h2>All applications</h2>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search" type="search" value={filters.search} onChange={(e) => setFilters({ ...filters, search: e.target.value })} />
        <Select label="Filter by kind" value={filters.kind} onChange={(e) => setFilters({ ...filters, kind: e.target.value })}>
          <option value="">Any</option><option value="confidential">confidential</option><option value="public">public</option>
        </Select>
        <Select label="Filter by status" value={filters.is_active} onChange={(e) => setFilters({ ...filters, is_active: e.target.value })}>
          <option value="">Any</option><option value="true">active</option><option value="false">inactive</option>
        </Select>
      </form>
      <PagedTable caption="Applications" paged={paged} rowKey={(a) => a.id} empty="No application matches." columns={[
        { header: 'Name', cell: (a) => (
          <><Link to={href('applications', a.id)}>{a.name}</Link>{consoleKey === a.access_key && <> <span className="badge">this console</span></>}</>
        ) },
        { header: 'Kind', cell: (a) => a.kind },
        { header: 'Access key', cell: (a) => <code>{a.access_key.slice(0, 12)}…</code> },
        { header: 'Status', cell: (a) => (a.is_active ? <span className="badge good">active</span> : <span className="badge bad">inactive</span>) },
        { header: 'Created', cell: (a) => when(a.created_at) },
      ]} />
    </>
  );
}
