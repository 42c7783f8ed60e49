import { useEffect, useState, type ReactNode } from 'react';
import { loadConfig } from '../../api';
import type { Me } from '../../App';
import { ErrorMessage } from '../../ErrorMessage';
import { href, Link } from '../../router';
import { when } from '../../ui/Field';
import { useApi } from '../../ui/useApi';
import { displayName } from './filters';
import { StatusBadges } from './StatusBadges';
import type { AdminUserDetail } from './types';
import { UserActions } from './UserActions';
import { UserRoles } from './UserRoles';
import { UserGrants } from './UserGrants';
import { UserSessions } from './UserSessions';

/** `#/users/<id>`: one account, its roles, its sessions and devices, its OAuth grants, and what an operator may do to it. */
export function UserDetail({ id, me }: { id: number; me: Me }) {
  const { data: user, error, loading, reload } = useApi<AdminUserDetail>(`admin/users/${id}/`);
  // Grants exist only while the authorization server is on: the section is not even asked for otherwise.
  const [oauth, setOauth] = useState(false);
  useEffect(() => {
    void loadConfig().then((config) => setOauth(config.oauth), () => setOauth(false));
  }, []);
  return (
    <>
      <p><Link to={href('users')}>← All users</Link></p>
      <h1>Users</h1>
      <ErrorMessage error={error} />
      {loading && !user && <p aria-busy="true">Loading…</p>}
      {user && (
        <>
          <section className="panel" aria-labelledby="user-account">
            <h2 id="user-account">{displayName(user)}</h2>
            {user.id === me.id && <p className="muted">This is your own account: the server refuses to lock, ban or change your grants.</p>}
            <Facts user={user} />
          </section>
          <div className="user-columns">
            <UserActions user={user} onChanged={reload} />
            <UserRoles user={user} onChanged={reload} />
          </div>
          <UserSessions userId={user.id} />
          {oauth && <UserGrants userId={user.id} />}
        </>
      )}
    </>
  );
}

function Facts({ user }: { user: AdminUserDetail }) {
  const rows: Array<[string, ReactNode]> = [
    ['Email', user.email ? `${user.email}${user.is_email_verified ? ' (verified)' : ' (not verified)'}` : '—'],
    ['Phone', user.phone ? `${user.phone}${user.is_phone_verified ? ' (verified)' : ' (not verified)'}` : '—'],
    ['Username', user.username ?? '—'],
    ['Status', <StatusBadges key="s" user={user} />],
    ['Banned', user.is_banned ? `Since ${when(user.banned_at)}${user.ban_reason ? ` — ${user.ban_reason}` : ''}` : 'No'],
    ['Locked until', user.is_locked ? when(user.locked_until) : 'Not locked'],
    ['Two-factor authentication', user.is_2fa_enabled ? 'On' : 'Off'],
    ['Must change password', user.must_change_password ? 'Yes' : 'No'],
    ['Password', user.has_usable_password ? 'Set' : 'None (passwordless)'],
    ['Failed sign-ins', String(user.failed_login_count)],
    ['Created', when(user.created_at)],
    ['Last sign-in', when(user.last_login)],
    ['Effective permissions', user.permissions.length ? user.permissions.join(', ') : '—'],
  ];
  return (
    <dl className="user-facts">
      {rows.map(([term, value]) => [<dt key={`t-${term}`}>{term}</dt>, <dd key={`d-${term}`}>{value}</dd>])}
    </dl>
  );
}
