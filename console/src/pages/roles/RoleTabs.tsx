import { href } from '../../router';

/** Roles and the permission tree are two views of one page. */
export function RoleTabs({ current }: { current: 'roles' | 'permissions' }) {
  return (
    <nav className="role-tabs" aria-label="Roles and permissions">
      <a href={href('roles')} aria-current={current === 'roles' ? 'page' : undefined}>Roles</a>
      <a href={href('roles', 'permissions')} aria-current={current === 'permissions' ? 'page' : undefined}>Permissions</a>
    </nav>
  );
}
