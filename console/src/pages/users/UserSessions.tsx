import { useMemo, useState } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Checkbox, Notice, when } from '../../ui/Field';
import { InlineConfirm } from '../../ui/InlineConfirm';
import { PagedTable, usePaged, type Column } from '../../ui/Paged';
import { useAction } from '../../ui/useApi';
import { deviceOf, devicesOf } from './devices';
import type { RefreshTokenRecord } from './types';

/** What `admin/refresh-tokens/<id>/revoke/` asks for as confirmation (security.service.ts REVOKE_PHRASE). */
const REVOKE_PHRASE = 'REVOKE';

/**
 * The account's sessions, as refresh tokens (`admin/refresh-tokens/?user_id=`), with revocation; and its devices as
 * those sessions describe them: no admin endpoint lists devices.
 */
export function UserSessions({ userId }: { userId: number }) {
  const [showEnded, setShowEnded] = useState(false);
  const filters = useMemo(() => ({ user_id: userId, is_revoked: showEnded ? undefined : false }), [userId, showEnded]);
  const paged = usePaged<RefreshTokenRecord>('admin/refresh-tokens/', filters);
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useAction();

  const revoke = async (id: string) => {
    const answer = await action.run(() => api<{ message: string }>('POST', `admin/refresh-tokens/${id}/revoke/`, { confirmation: REVOKE_PHRASE }),
      'Session revoked: its access tokens stop working now.');
    setConfirming(null);
    if (answer) paged.reload();
  };

  const columns: Array<Column<RefreshTokenRecord>> = [
    { header: 'Device', cell: (t) => deviceOf(t) },
    { header: 'Application', cell: (t) => t.application_name ?? '—' },
    { header: 'IP address', cell: (t) => t.ip_address ?? '—' },
    { header: 'Started', cell: (t) => when(t.created_at) },
    { header: 'Last used', cell: (t) => when(t.last_used_at) },
    { header: 'Expires', cell: (t) => when(t.expires_at) },
    { header: 'State', cell: (t) => (t.is_revoked ? <span className="badge bad">{t.is_rotated ? 'Rotated' : 'Revoked'}</span>
      : t.is_expired ? <span className="badge">Expired</span> : <span className="badge good">Active</span>) },
    { header: 'Revoke', cell: (t) => (t.is_revoked ? '—' : confirming === t.id ? (
      <InlineConfirm label="Confirm the revocation" question="End this session?" confirm="Confirm revoke" busy={action.busy}
        onConfirm={() => void revoke(t.id)} onCancel={() => setConfirming(null)} />
    ) : (
      <button type="button" className="secondary" onClick={() => { action.clear(); setConfirming(t.id); }}
        aria-label={`Revoke session started ${when(t.created_at)}`}>Revoke</button>
    )) },
  ];

  const devices = devicesOf(paged.data?.results ?? []);
  return (
    <>
      <section className="panel" aria-labelledby="user-sessions">
        <h2 id="user-sessions">Sessions</h2>
        <Checkbox label="Show revoked and rotated tokens" checked={showEnded} onChange={(e) => setShowEnded(e.target.checked)} />
        <ErrorMessage error={action.error} />
        <Notice>{action.done}</Notice>
        <PagedTable caption="Sessions (refresh tokens)" columns={columns} paged={paged} rowKey={(t) => t.id} empty="No session." />
      </section>
      <section className="panel" aria-labelledby="user-devices">
        <h2 id="user-devices">Devices</h2>
        <p className="muted">As the sessions on the page above describe them (no endpoint lists an account's devices).</p>
        <div className="table-scroll">
          <table>
            <caption>Devices</caption>
            <thead><tr><th scope="col">Device</th><th scope="col">Sessions</th><th scope="col">Active</th><th scope="col">Last seen</th><th scope="col">IP addresses</th></tr></thead>
            <tbody>
              {devices.map((d) => (
                <tr key={d.device}><td>{d.device}</td><td>{d.sessions}</td><td>{d.active}</td><td>{when(d.lastSeen)}</td><td>{d.ips.join(', ') || '—'}</td></tr>
              ))}
              {devices.length === 0 && <tr><td colSpan={5}>No device.</td></tr>}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
