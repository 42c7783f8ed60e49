import { Type, type Static } from 'typebox';
import { Body, Nullable } from '../../http/schema.js';
import { PermissionCodes, PermissionSummary } from './permissions.schemas.js';
import { RoleSummary } from './roles.schemas.js';

/** `users/<id>/...` paths: the user id is an integer on the wire (docs/decisions.md "Platform"). */
export const UserRolesResponse = Type.Object({ user_id: Type.Integer(), roles: Type.Array(RoleSummary) });

export const AssignRoleBody = Body({ role_code: Type.String({ minLength: 1, maxLength: 100 }) });
export type AssignRoleInput = Static<typeof AssignRoleBody>;

export const RemoveRoleQuery = Type.Object({
  role_code: Type.Optional(Type.String({ maxLength: 100, description: 'Required: the role to remove' })),
}, { additionalProperties: false });
export type RemoveRoleInput = Static<typeof RemoveRoleQuery>;

export const UserRoleChangeResponse = Type.Object({ message: Type.String(), roles: Type.Array(Type.String()) });

export const UserPermissionsBody = Body({ permission_codes: PermissionCodes });
export type UserPermissionsInput = Static<typeof UserPermissionsBody>;

export const UserPermissionsResponse = Type.Object({
  user_id: Type.Integer(),
  email: Nullable(Type.String()),
  direct_permissions: Type.Array(PermissionSummary),
  all_permissions: Type.Array(Type.String(), { description: 'Effective codes: roles, direct grants and descendants of held parents' }),
});

export const UserPermissionsAddedResponse = Type.Object({
  message: Type.String(),
  added: Type.Array(Type.String()),
  already_assigned: Type.Optional(Type.Array(Type.String())),
  user_id: Type.Integer(),
  direct_permissions: Type.Array(PermissionSummary),
});

export const UserPermissionsRemovedResponse = Type.Object({
  message: Type.String(),
  removed: Type.Array(Type.String()),
  not_assigned: Type.Optional(Type.Array(Type.String())),
  user_id: Type.Integer(),
  direct_permissions: Type.Array(PermissionSummary),
});
