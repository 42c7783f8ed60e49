/** What `gatehouse seed` guarantees exists (docs/access-control.md "The model", docs/organizations.md "Roles and what they allow"). */
export const SYSTEM_PERMISSIONS = [
  { code: 'permissions.view', name: 'View permissions', description: 'List and read permissions' },
  { code: 'permissions.manage', name: 'Manage permissions', description: 'Create, edit and delete permissions' },
  { code: 'roles.view', name: 'View roles', description: 'List and read roles' },
  { code: 'roles.manage', name: 'Manage roles', description: 'Create, edit, delete roles and their permissions' },
  { code: 'users.view', name: 'View users', description: 'List and read user accounts' },
  { code: 'users.manage', name: 'Manage users', description: 'Edit accounts, their roles and direct permissions' },
  { code: 'applications.view', name: 'View applications', description: 'List and read applications' },
  { code: 'applications.manage', name: 'Manage applications', description: 'Create, edit, delete applications and regenerate credentials' },
  { code: 'audit.view', name: 'View audit', description: 'Read audit logs, login attempts and token listings' },
  { code: 'security.view', name: 'Security operations', description: 'Revoke tokens and clean up blacklists' },
  { code: 'gdpr.view', name: 'View deletion requests', description: 'List account deletion requests' },
  { code: 'gdpr.admin', name: 'Administer deletion requests', description: 'Read deletion request details' },
  { code: 'gdpr.process', name: 'Process deletion requests', description: 'Complete confirmed deletion requests' },
  { code: 'dashboard.view', name: 'View dashboard', description: 'Read dashboard statistics' },
  { code: 'webhooks.manage', name: 'Manage webhooks', description: 'Create, edit, delete and replay webhooks; read their deliveries' },
] as const;

export const DEFAULT_ROLES = [
  { code: 'user', name: 'User', description: 'Every registered account', is_default: true, permissions: [] as string[] },
  { code: 'admin', name: 'Administrator', description: 'Holds every system permission', is_default: false,
    permissions: SYSTEM_PERMISSIONS.map((p) => p.code) as string[] },
] as const;

export const ORG_PERMISSIONS = [
  { code: 'org.owner', name: 'Own organization', description: 'Delete the organization and hand over ownership' },
  { code: 'org.view', name: 'View organization', description: 'See the organization, its tree and members' },
  { code: 'org.manage', name: 'Manage organization', description: 'Edit the organization, create and move sub-organizations' },
  { code: 'org.members.invite', name: 'Invite members', description: 'Invite and add members' },
  { code: 'org.members.manage', name: 'Manage members', description: 'Change member roles' },
  { code: 'org.members.remove', name: 'Remove members', description: 'Remove members' },
] as const;

/** The organization roles of docs/organizations.md "Roles and what they allow", `org.owner` and `org.view` included. */
export const ORG_ROLES = [
  { code: 'owner', name: 'Owner', description: 'Full control of the organization', weight: 100,
    permissions: ['org.owner', 'org.manage', 'org.members.invite', 'org.members.manage', 'org.members.remove', 'org.view'] },
  { code: 'admin', name: 'Admin', description: 'Invites and manages members', weight: 80,
    permissions: ['org.members.invite', 'org.members.manage', 'org.view'] },
  { code: 'member', name: 'Member', description: 'Sees the organization', weight: 20, permissions: ['org.view'] },
] as const;

/**
 * The admin console's public application (docs/decisions.md "Public applications"), created while SVC_CONSOLE_ENABLED is on and
 * found again by `builtin`, whatever it was renamed to.
 */
export const CONSOLE_APPLICATION = {
  builtin: 'console',
  name: 'Gatehouse Console',
  description: 'The admin console: a public application pinned to SVC_PUBLIC_URL, managed by gatehouse seed',
} as const;
