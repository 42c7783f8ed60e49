import { useState } from 'react';
import { ErrorMessage } from '../../ErrorMessage';
import { href, Link } from '../../router';
import { when } from '../../ui/Field';
import { useApi } from '../../ui/useApi';
import { OPEN } from './filters';
import { Processed } from './Processed';
import { ProcessForm } from './ProcessForm';
import { StatusBadge } from './StatusBadge';
import type { DeletionRequest, ProcessAnswer } from './types';

/** One request (`admin/deletion-requests/<id>/`) and, while it is open, the form that processes it. */
export function DeletionDetail({ id }: { id: string }) {
  const { data: request, error, reload } = useApi<DeletionRequest>(`admin/deletion-requests/${encodeURIComponent(id)}/`);
  const [processed, setProcessed] = useState<ProcessAnswer | null>(null);
  return (
    <>
      <p><Link to={href('deletions')}>← Deletion requests</Link></p>
      <h1>Deletion requests</h1>
      <h2 className="subject">Request #{id}</h2>
      <ErrorMessage error={error} />
      {request && <>
        <section className="panel" aria-labelledby="request-facts">
          <h2 id="request-facts">Details</h2>
          <dl className="facts">
            <dt>User</dt><dd><Link to={href('users', request.user)}>#{request.user}</Link> {request.user_email ?? '(anonymized)'}</dd>
            <dt>Status</dt><dd><StatusBadge request={request} /></dd>
            <dt>Requested</dt><dd>{when(request.requested_at)}{request.ip_address ? ` from ${request.ip_address}` : ''}</dd>
            <dt>Confirmed</dt><dd>{when(request.confirmed_at)}</dd>
            <dt>Grace period ends</dt><dd>{when(request.grace_period_ends_at)}{request.is_grace_period_expired ? ' (ended)' : ''}</dd>
            <dt>Completed</dt><dd>{when(request.completed_at)}</dd>
            <dt>Reason</dt><dd>{request.reason ?? '—'}</dd>
            <dt>Admin notes</dt><dd>{request.admin_notes ?? '—'}</dd>
            <dt>Processed by</dt><dd>{request.processed_by_email ?? (request.processed_by ? `#${request.processed_by}` : '—')}</dd>
          </dl>
        </section>
        {processed && <Processed answer={processed} />}
        {!processed && OPEN.has(request.status) && <ProcessForm request={request}
          onProcessed={(answer) => { setProcessed(answer); reload(); }} />}
      </>}
    </>
  );
}
