import { useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { href, Link } from '../../router';
import { Field, Notice, Select, when } from '../../ui/Field';
import { PagedTable, usePaged, type Column } from '../../ui/Paged';
import { useAction } from '../../ui/useApi';
import { spendText } from './format';
import { StatusBadge } from './StatusBadge';
import { TokenForm } from './TokenForm';
import { TokenOnce } from './TokenOnce';
import type { AgentToken, CreatedToken } from './types';

const columns: Array<Column<AgentToken>> = [
  { header: 'Agent', cell: (t) => <Link to={href('agents', t.id)}>{t.agent_id}</Link> },
  // A child a token delegated (docs/agents.md "Delegation"): its parent, one link away.
  { header: 'Delegated by', cell: (t) => (t.parent_id === null ? 'you'
    : <Link to={href('agents', t.parent_id)}>{t.chain[t.chain.length - 2]?.agent_id ?? `token ${t.parent_id}`}</Link>) },
  { header: 'Status', cell: (t) => <StatusBadge token={t} /> },
  { header: 'Permissions', cell: (t) => t.granted_permissions.join(', ') || '—' },
  { header: 'Spend', cell: (t) => spendText(t.spend_usd, t.budget_limit_usd) },
  { header: 'Requests', cell: (t) => t.request_count },
  { header: 'Expires', cell: (t) => when(t.expires_at) },
  { header: 'Last used', cell: (t) => when(t.last_used_at) },
];

/** The signed-in user's agent tokens, newest first, paged, with the forms to delegate one and to revoke them all. */
export function TokenList() {
  const [filters, setFilters] = useState({ status: '', agent_id: '' });
  const paged = usePaged<AgentToken>('ai/tokens/', filters);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const revokeAll = useAction();

  const doRevokeAll = async () => {
    await revokeAll.run(() => api<{ count: number }>('POST', 'ai/tokens/revoke-all/', {}),
      (answer) => `${answer.count} token${answer.count === 1 ? '' : 's'} revoked.`);
    setConfirmAll(false);
    paged.reload();
  };

  return (
    <section aria-labelledby="tokens-title">
      <div className="section-head">
        <h2 id="tokens-title">Your agent tokens</h2>
        <div className="actions">
          {!creating && <button type="button" onClick={() => { setCreating(true); setCreated(null); }}>New agent token</button>}
          <button type="button" className="danger" onClick={() => setConfirmAll(true)} disabled={confirmAll}>Revoke all tokens</button>
        </div>
      </div>
      {confirmAll && (
        <div className="panel confirm" role="group" aria-labelledby="revoke-all-title">
          <p id="revoke-all-title"><strong>Revoke every live token of yours?</strong> Each agent using one stops at once; this cannot be undone.</p>
          <div className="actions">
            <button type="button" className="danger" disabled={revokeAll.busy} onClick={() => void doRevokeAll()}>Yes, revoke all</button>
            <button type="button" className="secondary" onClick={() => setConfirmAll(false)}>Keep them</button>
          </div>
        </div>
      )}
      <ErrorMessage error={revokeAll.error} />
      <Notice>{revokeAll.done}</Notice>
      {created && <TokenOnce created={created} onDone={() => setCreated(null)} />}
      {creating && <TokenForm onCancel={() => setCreating(false)}
        onCreated={(token) => { setCreated(token); setCreating(false); paged.reload(); }} />}
      <form className="filters" role="search" aria-label="Filter agent tokens" onSubmit={(e) => e.preventDefault()}>
        <Select label="Status" value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.target.value })}>
          <option value="">Any</option>
          {['ACTIVE', 'SUSPENDED', 'REVOKED', 'EXPIRED'].map((s) => <option key={s} value={s}>{s}</option>)}
        </Select>
        <Field label="Agent name" value={filters.agent_id} onChange={(e) => setFilters({ ...filters, agent_id: e.target.value })} />
      </form>
      <PagedTable caption="Agent tokens" columns={columns} paged={paged} rowKey={(t) => t.id} empty="No agent token." />
    </section>
  );
}
