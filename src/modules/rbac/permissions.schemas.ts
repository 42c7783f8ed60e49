import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Body, Nullable } from '../../http/schema.js';
import { ListQuery, Ordering, SearchText } from '../../core/listing.js';
import type { PermissionRow } from './permissions.repo.js';

/** Dotted lower-case codes (`<area>.<action>`); the same rule for role codes. */
export const Code = Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_:-]+(\\.[a-z0-9_:-]+)*$',
  description: 'Lower-case letters, digits, _ - : in dot-separated parts' });
export const DisplayName = Type.String({ minLength: 1, maxLength: 200 });
export const Description = Type.String({ maxLength: 1000 });
/** A list of permission codes to grant or remove (duplicates are ignored). */
export const PermissionCodes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 });

export const PERMISSION_ORDERING = ['code', 'name', 'created_at'] as const;

export const PermissionListQuery = ListQuery({
  search: Type.Optional(SearchText),
  parent: Type.Optional(Type.String({ pattern: '^(null|[1-9][0-9]{0,14})$', description: '`null` for roots, or a parent id' })),
  ordering: Ordering(PERMISSION_ORDERING, 'code'),
});
export type PermissionListInput = Static<typeof PermissionListQuery>;

export const CreatePermissionBody = Body({
  code: Code,
  name: DisplayName,
  description: Type.Optional(Description),
  parent_code: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
});
export type CreatePermissionInput = Static<typeof CreatePermissionBody>;

export const UpdatePermissionBody = Body({
  name: Type.Optional(DisplayName),
  description: Type.Optional(Description),
  parent_code: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
}, 'Fields left out keep their value; parent_code null makes the permission a root');
export type UpdatePermissionInput = Static<typeof UpdatePermissionBody>;

const Ref = Type.Object({ id: Type.String(), code: Type.String() });

/** The API's "Permission" as listed (and inside a role). */
export const PermissionSummary = Type.Object({
  id: Type.String(), code: Type.String(), name: Type.String(), description: Type.String(),
});
export type PermissionSummaryBody = Static<typeof PermissionSummary>;

/** The API's "Permission". */
export const PermissionResponse = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  parent: Nullable(Ref),
  children: Type.Array(Ref),
  created_at: Type.String({ format: 'date-time' }),
});
export type PermissionBody = Static<typeof PermissionResponse>;

export const toPermissionSummary = (p: { id: number; code: string; name: string; description: string }): PermissionSummaryBody =>
  ({ id: String(p.id), code: p.code, name: p.name, description: p.description });

export function toPermission(p: PermissionRow, children: { id: number; code: string }[]): PermissionBody {
  return {
    ...toPermissionSummary(p),
    parent: p.parent_id !== null && p.parent_code !== null ? { id: String(p.parent_id), code: p.parent_code } : null,
    children: children.map((c) => ({ id: String(c.id), code: c.code })),
    created_at: toIso(p.created_at)!,
  };
}
