import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Body } from '../../http/schema.js';
import { ListQuery, Ordering, SearchText } from '../../core/listing.js';
import { Code, Description, DisplayName, PermissionCodes, PermissionSummary, toPermissionSummary } from './permissions.schemas.js';
import type { RoleRow } from './roles.repo.js';

export const ROLE_ORDERING = ['code', 'name', 'created_at'] as const;

export const RoleListQuery = ListQuery({
  search: Type.Optional(SearchText),
  is_default: Type.Optional(Type.Boolean()),
  ordering: Ordering(ROLE_ORDERING, 'name'),
});
export type RoleListInput = Static<typeof RoleListQuery>;

export const CreateRoleBody = Body({
  code: Type.Optional(Type.String({ ...Code, description: 'Lower-case letters, digits, _ - : in dot-separated parts; when left out, '
    + 'derived from name (lower-cased, each run of other characters as one _)' })),
  name: DisplayName,
  description: Type.Optional(Description),
  permission_codes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 })),
  is_default: Type.Optional(Type.Boolean()),
});
export type CreateRoleInput = Static<typeof CreateRoleBody>;

export const UpdateRoleBody = Body({
  name: Type.Optional(DisplayName),
  description: Type.Optional(Description),
  permission_codes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 })),
  is_default: Type.Optional(Type.Boolean()),
}, 'Fields left out keep their value; permission_codes, when given, is the complete new set');
export type UpdateRoleInput = Static<typeof UpdateRoleBody>;

export const RolePermissionsBody = Body({ permission_codes: PermissionCodes });
export type RolePermissionsInput = Static<typeof RolePermissionsBody>;

/** The API's "Role" as listed. */
export const RoleSummary = Type.Object({ id: Type.String(), code: Type.String(), name: Type.String(), is_default: Type.Boolean() });

/** The API's "Role". */
export const RoleResponse = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  permissions: Type.Array(PermissionSummary),
  is_default: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type RoleBody = Static<typeof RoleResponse>;

export const RolePermissionsResponse = Type.Object({
  role_id: Type.String(),
  role_code: Type.String(),
  permissions: Type.Array(PermissionSummary),
});

export const RolePermissionsAddedResponse = Type.Object({
  message: Type.String(),
  added: Type.Array(Type.String()),
  already_assigned: Type.Optional(Type.Array(Type.String())),
  role_code: Type.String(),
  permissions: Type.Array(PermissionSummary),
});

export const RolePermissionsRemovedResponse = Type.Object({
  message: Type.String(),
  removed: Type.Array(Type.String()),
  not_assigned: Type.Optional(Type.Array(Type.String())),
  role_code: Type.String(),
  permissions: Type.Array(PermissionSummary),
});

type PermissionRef = { id: number; code: string; name: string; description: string };

export const toRoleSummary = (r: { id: number; code: string; name: string; is_default: boolean }) =>
  ({ id: String(r.id), code: r.code, name: r.name, is_default: r.is_default });

export const toRole = (r: RoleRow, permissions: PermissionRef[]): RoleBody => ({
  id: String(r.id), code: r.code, name: r.name, description: r.description,
  permissions: permissions.map(toPermissionSummary), is_default: r.is_default,
  created_at: toIso(r.created_at)!, updated_at: toIso(r.updated_at)!,
});
