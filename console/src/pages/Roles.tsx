import type { PageProps } from '.';
import { PermissionsManager } from './roles/PermissionsManager';
import { RoleEditor } from './roles/RoleEditor';
import { RoleList } from './roles/RoleList';
import { RoleTabs } from './roles/RoleTabs';
import './roles/roles.css';

/** `#/roles` lists roles, `#/roles/new` and `#/roles/<id>` edit one, `#/roles/permissions` is the permission tree. */
export function Roles({ route }: PageProps) {
  const sub = route.parts[1];
  return (
    <>
      <h1>Roles and permissions</h1>
      <RoleTabs current={sub === 'permissions' ? 'permissions' : 'roles'} />
      {sub === 'permissions' ? <PermissionsManager />
        : sub === 'new' ? <RoleEditor key="new" id={null} />
          : sub !== undefined && /^\d+$/.test(sub) ? <RoleEditor key={sub} id={sub} created={route.query.get('created') === '1'} />
            : <RoleList />}
    </>
  );
}
