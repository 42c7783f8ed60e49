import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { ErrorMessage } from '../../ErrorMessage';
import { Field, Notice, when } from '../../ui/Field';
import { useAction } from '../../ui/useApi';
import type { AdminUserAction, AdminUserDetail } from './types';

const ended = (a: AdminUserAction) => `${a.message}${a.sessions_revoked ? ` (${a.sessions_revoked} session${a.sessions_revoked === 1 ? '' : 's'} ended)` : ''}.`;

/** Lock, unlock, ban, unban, reset 2FA and force a password change; each answer or refusal is shown in words. */
export function UserActions({ user, onChanged }: { user: AdminUserDetail; onChanged: () => void }) {
  const action = useAction();
  const [minutes, setMinutes] = useState('30');
  const [lockReason, setLockReason] = useState('');
  const [banReason, setBanReason] = useState('');
  const [confirmBan, setConfirmBan] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const base = `admin/users/${user.id}/`;

  const post = async (path: string, body: object, then?: () => void) => {
    const answer = await action.run(() => api<AdminUserAction>('POST', `${base}${path}`, body), ended);
    if (answer) { then?.(); onChanged(); }
  };
  const lock = (e: FormEvent) => {
    e.preventDefault();
    const duration = Number(minutes);
    void post('lock/', { duration_minutes: duration, ...(lockReason.trim() ? { reason: lockReason.trim() } : {}) }, () => setLockReason(''));
  };
  const ban = () => post('ban/', banReason.trim() ? { reason: banReason.trim() } : {}, () => { setBanReason(''); setConfirmBan(false); });
  const resetTwoFactor = () => post('reset-2fa/', {}, () => setConfirmReset(false));
  const mustChange = async (value: boolean) => {
    const answer = await action.run(() => api<{ message: string }>('PATCH', base, { must_change_password: value }),
      value ? 'The user must change their password at the next sign-in.' : 'The password change is no longer required.');
    if (answer) onChanged();
  };

  return (
    <section className="panel user-actions" aria-labelledby="user-actions">
      <h2 id="user-actions">Actions</h2>
      <ErrorMessage error={action.error} />
      <Notice>{action.done}</Notice>

      <h3>Lock</h3>
      {user.is_locked ? (
        <div className="actions">
          <span>Locked until {when(user.locked_until)}.</span>
          <button type="button" disabled={action.busy} onClick={() => void post('unlock/', {})}>Unlock account</button>
        </div>
      ) : (
        <form className="form" onSubmit={lock}>
          <Field label="Lock duration (minutes)" type="number" min={1} max={43200} required value={minutes}
            onChange={(e) => setMinutes(e.target.value)} hint="Sign-in answers 423 ACCOUNT_LOCKED until then; at most 30 days." />
          <Field label="Lock reason" maxLength={500} value={lockReason} onChange={(e) => setLockReason(e.target.value)} />
          <div className="actions"><button type="submit" disabled={action.busy}>Lock account</button></div>
        </form>
      )}

      <h3>Ban</h3>
      {user.is_banned ? (
        <div className="actions">
          <span>Banned{user.ban_reason ? `: ${user.ban_reason}` : ''}.</span>
          <button type="button" disabled={action.busy} onClick={() => void post('unban/', {})}>Unban account</button>
        </div>
      ) : (
        <div className="form">
          <Field label="Ban reason" maxLength={500} value={banReason} onChange={(e) => setBanReason(e.target.value)} />
          {confirmBan ? (
            <div className="confirm" role="group" aria-label="Confirm the ban">
              <p>Ban this account? Every session ends and sign-in is refused until it is unbanned.</p>
              <div className="actions">
                <button type="button" className="danger" disabled={action.busy} onClick={() => void ban()}>Confirm ban</button>
                <button type="button" className="secondary" onClick={() => setConfirmBan(false)}>Cancel</button>
              </div>
            </div>
          ) : (
            <div className="actions"><button type="button" className="danger" onClick={() => setConfirmBan(true)}>Ban account</button></div>
          )}
        </div>
      )}

      <h3>Two-factor authentication</h3>
      {user.is_2fa_enabled ? (
        confirmReset ? (
          <div className="confirm" role="group" aria-label="Confirm the two-factor reset">
            <p>Reset two-factor authentication? The authenticator and backup codes stop working, every session ends, and the
              next sign-in needs the password alone (a staff account sets 2FA up again). The person is notified.</p>
            <div className="actions">
              <button type="button" className="danger" disabled={action.busy} onClick={() => void resetTwoFactor()}>Confirm reset</button>
              <button type="button" className="secondary" onClick={() => setConfirmReset(false)}>Cancel</button>
            </div>
          </div>
        ) : (
          <div className="actions">
            <span>On: an authenticator app and backup codes.</span>
            <button type="button" className="danger" onClick={() => setConfirmReset(true)}>Reset two-factor authentication</button>
          </div>
        )
      ) : (
        <div className="actions"><span>Not set up.</span></div>
      )}

      <h3>Password</h3>
      <div className="actions">
        {user.must_change_password ? (
          <>
            <span>A password change is required at the next sign-in.</span>
            <button type="button" className="secondary" disabled={action.busy} onClick={() => void mustChange(false)}>Cancel the requirement</button>
          </>
        ) : (
          <button type="button" disabled={action.busy} onClick={() => void mustChange(true)}>Force password change</button>
        )}
      </div>
    </section>
  );
}
