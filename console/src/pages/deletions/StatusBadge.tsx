import { statusLabel } from './filters';
import type { DeletionRequest } from './types';

/** Completed in red (the account is gone), confirmed in amber-ish red only once its grace period has ended. */
export function StatusBadge({ request }: { request: Pick<DeletionRequest, 'status' | 'is_grace_period_expired'> }) {
  const tone = request.status === 'completed' ? 'bad' : request.status === 'cancelled' ? 'good' : '';
  return <span className={`badge ${tone}`}>{statusLabel(request.status)}</span>;
}
