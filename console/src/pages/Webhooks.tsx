import { useState } from 'react';
import type { PageProps } from '.';
import { api } from '../api';
import { href, Link } from '../router';
import { Select, when } from '../ui/Field';
import { PagedTable, usePaged } from '../ui/Paged';
import { useAction } from '../ui/useApi';
import { SecretOnce } from './applications/SecretOnce';
import { eventSummary } from './webhooks/events';
import type { Webhook, WebhookCreated } from './webhooks/types';
import { WebhookDetail } from './webhooks/WebhookDetail';
import { WebhookForm, type WebhookInput } from './webhooks/WebhookForm';
import './webhooks/webhooks.css';

/** `#/webhooks` lists and creates; `#/webhooks/<id>` edits one, pings it and shows its deliveries. */
export function Webhooks({ route }: PageProps) {
  const id = route.parts[1];
  return (
    <div className="hooks-page">
      <h1>Webhooks</h1>
      {id ? <WebhookDetail key={id} id={id} /> : <WebhookList />}
    </div>
  );
}

function WebhookList() {
  const [filters, setFilters] = useState({ is_active: '' });
  const paged = usePaged<Webhook>('webhooks/', filters);
  const [creating, setCreating] = useState(false);
  // The signing secret is shown by this view alone, from memory: leaving it forgets the secret.
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const create = useAction();

  const onCreate = (input: WebhookInput) => {
    void create.run(() => api<WebhookCreated>('POST', 'webhooks/', input)).then((answer) => {
      if (answer) { setCreated(answer); setCreating(false); paged.reload(); }
    });
  };

  return (
    <>
      {created && (
        <SecretOnce title="Signing secret of the new webhook" warning={created.warning} onDismiss={() => setCreated(null)}
          entries={[{ label: 'Signing secret', value: created.secret }]} />
      )}
      <div className="actions">
        {!creating && <button type="button" onClick={() => { create.clear(); setCreating(true); }}>New webhook</button>}
      </div>
      {creating && (
        <section className="panel" aria-labelledby="hook-create">
          <h2 id="hook-create">New webhook</h2>
          <WebhookForm submitLabel="Create webhook" busy={create.busy} error={create.error} onSubmit={onCreate}
            onCancel={() => setCreating(false)} />
        </section>
      )}
      <h2>All webhooks</h2>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Select label="Filter by status" value={filters.is_active} onChange={(e) => setFilters({ is_active: e.target.value })}>
          <option value="">Any</option><option value="true">active</option><option value="false">inactive</option>
        </Select>
      </form>
      <PagedTable caption="Webhooks" paged={paged} rowKey={(w) => w.id} empty="No webhook yet." columns={[
        { header: 'URL', cell: (w) => <Link to={href('webhooks', w.id)} className="mono">{w.url}</Link> },
        { header: 'Events', cell: (w) => eventSummary(w.events) },
        { header: 'Status', cell: (w) => (w.is_active ? <span className="badge good">active</span> : <span className="badge bad">inactive</span>) },
        { header: 'Description', cell: (w) => w.description || '—' },
        { header: 'Created', cell: (w) => when(w.created_at) },
      ]} />
    </>
  );
}
