import { when } from '../../ui/Field';
import type { ProcessAnswer } from './types';

/** The server's answer to processing a request, as it came. */
export function Processed({ answer }: { answer: ProcessAnswer }) {
  return (
    <section className="panel" aria-labelledby="processed-title">
      <h2 id="processed-title">Processed</h2>
      <p role="status">{answer.message}</p>
      <dl className="facts">
        <dt>Processed at</dt><dd>{when(answer.processed_at)}</dd>
        <dt>Data anonymized</dt><dd>{answer.data_anonymized ? 'yes' : 'no'}</dd>
        <dt>User notified</dt><dd>{answer.user_notified ? 'yes, a last message is queued' : 'no'}</dd>
        <dt>Audit entry</dt><dd>{answer.audit_log_id ?? '—'}</dd>
      </dl>
    </section>
  );
}
