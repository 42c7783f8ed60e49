import type { AdminUserSummary } from './types';

/** The account's state at a glance; each badge says its state in words, not only in colour. */
export function StatusBadges({ user }: { user: AdminUserSummary }) {
  return (
    <span className="badges">
      <span className={`badge ${user.is_active ? 'good' : 'bad'}`}>{user.is_active ? 'Active' : 'Inactive'}</span>
      {user.is_banned && <span className="badge bad">Banned</span>}
      {user.is_locked && <span className="badge bad">Locked</span>}
      {user.is_deleted && <span className="badge bad">Deleted</span>}
      {user.is_staff && <span className="badge">Staff</span>}
      {user.is_superuser && <span className="badge">Superuser</span>}
      {user.must_change_password && <span className="badge">Must change password</span>}
    </span>
  );
}
