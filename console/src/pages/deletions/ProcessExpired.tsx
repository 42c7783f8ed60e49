import { useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { useAction } from '../../ui/useApi';
import type { ProcessExpiredAnswer } from './types';

/** Completes every confirmed request whose grace period has ended, after an inline confirmation; shows the run's result. */
export function ProcessExpired({ onDone }: { onDone: () => void }) {
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<ProcessExpiredAnswer | null>(null);
  const action = useAction();

  const run = async () => {
    const answer = await action.run(() => api<ProcessExpiredAnswer>('POST', 'admin/deletion-requests/process-expired/', {}));
    setAsking(false);
    if (answer) { setResult(answer); onDone(); }
  };

  return (
    <section className="panel" aria-labelledby="expired-title">
      <h2 id="expired-title">Expired grace periods</h2>
      <p className="muted">Completes every confirmed request whose grace period has ended: each account's personal data is anonymized.</p>
      {!asking && <button type="button" className="danger" onClick={() => { setAsking(true); setResult(null); }}>Process expired requests</button>}
      {asking && (
        <div className="confirm" role="group" aria-labelledby="expired-confirm">
          <p id="expired-confirm"><strong>Delete every account whose grace period has ended?</strong> This cannot be undone.</p>
          <div className="actions">
            <button type="button" className="danger" disabled={action.busy} onClick={() => void run()}>Yes, process them</button>
            <button type="button" className="secondary" onClick={() => setAsking(false)}>Cancel</button>
          </div>
        </div>
      )}
      <ErrorMessage error={action.error} />
      {result && (
        <div role="status">
          <p>{result.message}.</p>
          <p>Completed: {result.processed_count} · failed: {result.failed_count} · skipped: {result.skipped_count}
            {' '}· {result.processing_time.toFixed(2)} s</p>
          {result.details.length > 0 && (
            <ul>{result.details.map((d) => (
              <li key={d.request_id}>Request #{d.request_id} (user #{d.user_id}): {d.status}{d.error ? ` — ${d.error}` : ''}</li>
            ))}</ul>
          )}
        </div>
      )}
    </section>
  );
}
