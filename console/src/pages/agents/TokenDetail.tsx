import { useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { href, Link } from '../../router';
import { Notice, when } from '../../ui/Field';
import { useAction, useApi } from '../../ui/useApi';
import { Activity } from './Activity';
import { durationText, spendText } from './format';
import { StatusBadge } from './StatusBadge';
import type { AgentToken } from './types';

/** One agent token: its limits and use, suspend, resume and revoke (revoke asks first), and its activity. */
export function TokenDetail({ id }: { id: string }) {
  const { data: token, error, reload } = useApi<AgentToken>(`ai/tokens/${encodeURIComponent(id)}/`);
  const action = useAction();
  const [confirmRevoke, setConfirmRevoke] = useState(false);

  const act = async (verb: 'suspend' | 'resume' | 'revoke', done: string) => {
    await action.run(() => api('POST', `ai/tokens/${encodeURIComponent(id)}/${verb}/`, {}), done);
    setConfirmRevoke(false);
    reload();
  };

  const live = token && (token.status === 'ACTIVE' || token.status === 'SUSPENDED');
  return (
    <>
      <p><Link to={href('agents')}>← Agents</Link></p>
      <h1>Agents</h1>
      <h2 className="subject">{token ? `Agent token: ${token.agent_id}` : 'Agent token'}</h2>
      <ErrorMessage error={error} />
      {token && <>
        <div className="actions token-actions">
          {token.status === 'ACTIVE' && <button type="button" className="secondary" disabled={action.busy}
            onClick={() => void act('suspend', 'Token suspended.')}>Suspend</button>}
          {token.status === 'SUSPENDED' && <button type="button" className="secondary" disabled={action.busy}
            onClick={() => void act('resume', 'Token active again.')}>Resume</button>}
          {live && <button type="button" className="danger" disabled={confirmRevoke} onClick={() => setConfirmRevoke(true)}>Revoke</button>}
        </div>
        {confirmRevoke && (
          <div className="panel confirm" role="group" aria-labelledby="revoke-title">
            <p id="revoke-title"><strong>Revoke this token for good?</strong> The agent using it stops at once.</p>
            <div className="actions">
              <button type="button" className="danger" disabled={action.busy} onClick={() => void act('revoke', 'Token revoked.')}>Yes, revoke</button>
              <button type="button" className="secondary" onClick={() => setConfirmRevoke(false)}>Keep it</button>
            </div>
          </div>
        )}
        <ErrorMessage error={action.error} />
        <Notice>{action.done}</Notice>
        <section className="panel" aria-labelledby="token-facts">
          <h2 id="token-facts">Details</h2>
          <dl className="facts">
            <dt>Status</dt><dd><StatusBadge token={token} /></dd>
            <dt>Permissions</dt><dd>{token.granted_permissions.length ? token.granted_permissions.join(', ') : 'none'}</dd>
            <dt>Organization</dt><dd>{token.organization ?? '—'}</dd>
            <dt>Delegation</dt>
            <dd>{token.chain.length > 1 ? <ChainLinks chain={token.chain} /> : 'created by you'}
              {token.can_delegate ? '; may delegate to sub-agents' : ''}</dd>
            <dt>Budget</dt><dd>{spendText(token.spend_usd, token.budget_limit_usd)}</dd>
            <dt>Circuit breaker</dt>
            <dd>{token.circuit_breaker.max_requests_per_minute} a minute, {token.circuit_breaker.max_requests_total} in total,
              {' '}{token.circuit_breaker.max_failed_requests} consecutive denials</dd>
            <dt>Requests</dt><dd>{token.request_count} ({token.failed_count} denied in a row)</dd>
            <dt>Heartbeat</dt>
            <dd>{token.dead_mans_switch ? `every ${durationText(token.dead_mans_switch.heartbeat_required_every)}, last ${when(token.last_heartbeat_at)}`
              : 'not required'}</dd>
            <dt>Created</dt><dd>{when(token.created_at)}</dd>
            <dt>Expires</dt><dd>{when(token.expires_at)}</dd>
            <dt>Last used</dt><dd>{when(token.last_used_at)}</dd>
          </dl>
        </section>
        <Activity tokenId={token.id} />
      </>}
    </>
  );
}

/** The chain from the token the person created to this one, each an agent's name linking to its token. */
function ChainLinks({ chain }: { chain: AgentToken['chain'] }) {
  return (
    <ol className="chain" aria-label="Delegation chain">
      {chain.map((link) => <li key={link.id}><Link to={href('agents', link.id)}>{link.agent_id}</Link></li>)}
    </ol>
  );
}
