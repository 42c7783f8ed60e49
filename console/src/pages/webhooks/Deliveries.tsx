import { useEffect, useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Notice, Select, when } from '../../ui/Field';
import { PagedTable, usePaged } from '../../ui/Paged';
import { useAction } from '../../ui/useApi';
import type { Delivery } from './types';

const BADGE: Record<Delivery['status'], string> = { delivered: 'badge good', failed: 'badge bad', pending: 'badge', sending: 'badge' };

/** One webhook's deliveries, newest first, a page at a time; a replay sends the same event again as a new delivery. */
export function Deliveries({ webhookId, version }: { webhookId: number; version: number }) {
  const [filters, setFilters] = useState({ status: '' });
  const paged = usePaged<Delivery>(`webhooks/${webhookId}/deliveries/`, filters);
  const { reload } = paged;
  // A test ping sent from the page above: show its delivery.
  useEffect(() => { if (version > 0) reload(); }, [version, reload]);
  const replay = useAction();

  const onReplay = (d: Delivery) => {
    void replay.run(() => api('POST', `webhooks/${webhookId}/deliveries/${d.id}/replay/`), `Delivery ${d.id} replayed.`)
      .then((answer) => { if (answer) paged.reload(); });
  };

  return (
    <section className="panel" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Select label="Filter by status" value={filters.status} onChange={(e) => setFilters({ status: e.target.value })}>
          <option value="">Any</option>
          {(['pending', 'sending', 'delivered', 'failed'] as const).map((s) => <option key={s} value={s}>{s}</option>)}
        </Select>
        <button type="button" className="secondary" onClick={paged.reload}>Refresh</button>
      </form>
      <ErrorMessage error={replay.error} />
      <Notice>{replay.done}</Notice>
      <PagedTable caption="Deliveries of this webhook" paged={paged} rowKey={(d) => d.id} empty="Nothing was sent yet." columns={[
        { header: 'Event', cell: (d) => <>{d.type}{d.replay_of !== null && <span className="muted"> (replay of {d.replay_of})</span>}</> },
        { header: 'Status', cell: (d) => <span className={BADGE[d.status]}>{d.status}</span> },
        { header: 'Attempts', cell: (d) => d.attempts },
        { header: 'Last answer', cell: (d) => d.last_error ?? (d.last_status_code !== null ? `HTTP ${d.last_status_code}` : '—') },
        { header: 'Created', cell: (d) => when(d.created_at) },
        { header: 'Delivered', cell: (d) => when(d.delivered_at) },
        { header: 'Actions', cell: (d) => (
          <button type="button" className="secondary" disabled={replay.busy} onClick={() => onReplay(d)} aria-label={`Replay delivery ${d.id}`}>Replay</button>
        ) },
      ]} />
    </section>
  );
}
