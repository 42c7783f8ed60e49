import { useState } from 'react';
import { Field, when } from '../../ui/Field';
import { PagedTable, usePaged, type Column } from '../../ui/Paged';
import type { Activity as ActivityRow } from './types';

const columns: Array<Column<ActivityRow>> = [
  { header: 'When', cell: (a) => when(a.created_at) },
  { header: 'Request', cell: (a) => <code>{a.method} {a.path}</code> },
  { header: 'Permission', cell: (a) => a.permission ?? '—' },
  { header: 'Decision', cell: (a) => <span className={`badge ${a.decision === 'allow' ? 'good' : a.decision === 'deny' ? 'bad' : ''}`}>{a.decision}</span> },
  { header: 'Status', cell: (a) => a.status },
  { header: 'Trace', cell: (a) => (a.prompt_trace_id ? <code>{a.prompt_trace_id}</code> : '—') },
];

/** The requests one token made, newest first, paged; a trace id narrows them to one prompt's. */
export function Activity({ tokenId }: { tokenId: number }) {
  const [trace, setTrace] = useState('');
  // The server refuses a trace filter outside X-Prompt-Trace-ID's form: only a well-formed one is sent.
  const filters = { prompt_trace_id: /^[A-Za-z0-9._:-]{1,128}$/.test(trace) ? trace : '' };
  const paged = usePaged<ActivityRow>(`ai/tokens/${tokenId}/activity/`, filters);
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <form className="filters" role="search" aria-label="Filter activity" onSubmit={(e) => e.preventDefault()}>
        <Field label="Trace id" value={trace} onChange={(e) => setTrace(e.target.value)} />
      </form>
      <PagedTable caption="Requests made with this token" columns={columns} paged={paged} rowKey={(a) => a.id} empty="No request yet." />
    </section>
  );
}
