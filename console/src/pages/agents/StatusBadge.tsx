import type { AgentToken } from './types';

/** ACTIVE in green, the others in red, with a suspension's reason. */
export function StatusBadge({ token }: { token: Pick<AgentToken, 'status' | 'suspended_reason'> }) {
  return (
    <span className={`badge ${token.status === 'ACTIVE' ? 'good' : 'bad'}`}>
      {token.status}{token.status === 'SUSPENDED' && token.suspended_reason ? ` (${token.suspended_reason})` : ''}
    </span>
  );
}
