import { useMemo, useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Notice, when } from '../../ui/Field';
import { InlineConfirm } from '../../ui/InlineConfirm';
import { PagedTable, usePaged, type Column } from '../../ui/Paged';
import { useAction } from '../../ui/useApi';
import type { OauthGrantRecord } from './types';

const STATES: Record<OauthGrantRecord['status'], string> = { active: 'good', suspended: 'bad', revoked: 'bad', expired: '' };

/** What a grant's delegation lets its client do through `ai/authorize/`, in words. */
function limitsOf(g: OauthGrantRecord): string {
  if (!g.delegation) return 'Sign-in only';
  const budget = g.delegation.budget_limit_usd === null ? 'no budget' : `budget $${g.delegation.budget_limit_usd}`;
  return `${g.delegation.max_requests_per_minute}/min, ${budget}, until ${when(g.delegation.expires_at)}`;
}

/**
 * The account's grants to OAuth clients (`admin/grants/?user_id=`, docs/oauth.md "Grants"): each client, whether it
 * is one of Gatehouse's applications, what it was granted and its delegation's limits, with revocation (which ends
 * its tokens at once). Shown only while the authorization server is on (config.json's `oauth`).
 */
export function UserGrants({ userId }: { userId: number }) {
  const filters = useMemo(() => ({ user_id: userId }), [userId]);
  const paged = usePaged<OauthGrantRecord>('admin/grants/', filters);
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useAction();

  const revoke = async (id: string) => {
    const answer = await action.run(() => api<{ message: string }>('DELETE', `admin/grants/${encodeURIComponent(id)}/`),
      'Grant revoked: its access and refresh tokens stop working now.');
    setConfirming(null);
    if (answer) paged.reload();
  };

  const columns: Array<Column<OauthGrantRecord>> = [
    { header: 'Client', cell: (g) => <>{g.client_name}{!g.verified && <> <span className="badge bad">Unverified</span></>}</> },
    { header: 'Resource', cell: (g) => g.resource ?? '—' },
    { header: 'Scopes', cell: (g) => g.scopes.join(' ') || '—' },
    { header: 'Organization', cell: (g) => g.organization ?? '—' },
    { header: 'Limits', cell: limitsOf },
    { header: 'Granted', cell: (g) => when(g.created_at) },
    { header: 'State', cell: (g) => <span className={`badge ${STATES[g.status]}`}>{g.status}</span> },
    { header: 'Revoke', cell: (g) => (confirming === g.id ? (
      <InlineConfirm label="Confirm the revocation" question="End this grant?" confirm="Confirm revoke" busy={action.busy}
        onConfirm={() => void revoke(g.id)} onCancel={() => setConfirming(null)} />
    ) : (
      <button type="button" className="secondary" onClick={() => { action.clear(); setConfirming(g.id); }}
        aria-label={`Revoke the grant to ${g.client_name}`}>Revoke</button>
    )) },
  ];

  return (
    <section className="panel" aria-labelledby="user-grants">
      <h2 id="user-grants">OAuth grants</h2>
      <ErrorMessage error={action.error} />
      <Notice>{action.done}</Notice>
      <PagedTable caption="Grants to OAuth clients" columns={columns} paged={paged} rowKey={(g) => g.id} empty="No grant." />
    </section>
  );
}
