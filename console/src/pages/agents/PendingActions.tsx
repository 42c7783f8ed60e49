import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { href, Link } from '../../router';
import { Notice, when } from '../../ui/Field';
import { PagedTable, usePaged, type Column } from '../../ui/Paged';
import { useAction } from '../../ui/useApi';
import { payloadLines } from './format';
import type { PendingAction } from './types';

const NO_FILTERS = {};

/**
 * What the signed-in user's agents wait on (undecided, unexpired): what each asked for, in words, with approve and
 * reject. Everything the agent supplied (its name, the path, the body, the trace id) is shown as text.
 */
export function PendingActions() {
  const paged = usePaged<PendingAction>('ai/pending-actions/', NO_FILTERS);
  const action = useAction();

  const decide = (row: PendingAction, verb: 'approve' | 'reject') => action.run(async () => {
    await api('POST', `ai/pending-actions/${row.id}/${verb}/`, {});
    paged.reload();
  }, `${verb === 'approve' ? 'Approved' : 'Rejected'}: ${row.method} ${row.path} by ${row.agent_id}.`);

  const columns: Array<Column<PendingAction>> = [
    { header: 'Agent', cell: (r) => <>{r.agent_id}<br /><Link to={href('agents', r.agent_token_id)}>token #{r.agent_token_id}</Link></> },
    { header: 'Request', cell: (r) => <code className="request">{r.method} {r.path}</code> },
    { header: 'Permission', cell: (r) => r.permission ?? '—' },
    {
      header: 'Body', cell: (r) => {
        const lines = payloadLines(r.payload);
        return lines.length ? <ul className="payload">{lines.map((line, i) => <li key={i}><code>{line}</code></li>)}</ul> : '—';
      },
    },
    { header: 'Trace', cell: (r) => (r.prompt_trace_id ? <code>{r.prompt_trace_id}</code> : '—') },
    { header: 'Expires', cell: (r) => when(r.expires_at) },
    {
      header: 'Decision', cell: (r) => (
        <div className="actions">
          <button type="button" disabled={action.busy} onClick={() => void decide(r, 'approve')}
            aria-label={`Approve ${r.method} ${r.path} by ${r.agent_id}`}>Approve</button>
          <button type="button" className="danger" disabled={action.busy} onClick={() => void decide(r, 'reject')}
            aria-label={`Reject ${r.method} ${r.path} by ${r.agent_id}`}>Reject</button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="pending-title" className="panel">
      <div className="section-head">
        <h2 id="pending-title">Pending approvals</h2>
        <button type="button" className="secondary" onClick={paged.reload}>Refresh</button>
      </div>
      <p className="muted">Your agents wait for you on these calls; an approved call runs once, when the agent repeats it.</p>
      <ErrorMessage error={action.error} />
      <Notice>{action.done}</Notice>
      <PagedTable caption="Actions waiting for your approval" columns={columns} paged={paged} rowKey={(r) => r.id}
        empty="No agent is waiting for your approval." />
    </section>
  );
}
