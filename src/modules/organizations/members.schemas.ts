import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { ListQuery, Ordering, SearchText } from '../../core/listing.js';
import { Body, Nullable } from '../../http/schema.js';
import type { MemberRow } from './members.repo.js';

const RoleCode = Type.String({ minLength: 1, maxLength: 50, description: '`owner`, `admin` or `member`' });
const UserId = Type.Integer({ minimum: 1, maximum: 999_999_999_999_999 });

export const AddMemberBody = Body({ user_id: UserId, role_code: Type.Optional(RoleCode) });
export type AddMemberInput = Static<typeof AddMemberBody>;

export const ChangeRoleBody = Body({ role_code: RoleCode });
export type ChangeRoleInput = Static<typeof ChangeRoleBody>;

/** `<user_id>` in member paths: any text, so a malformed id answers 404 MEMBER_NOT_FOUND like an unknown one. */
export const MemberParams = Type.Object({ user_id: Type.String() });

export const MEMBER_ORDERING = ['joined_at', 'user.email', 'role'] as const;

export const MemberListQuery = ListQuery({
  search: Type.Optional(SearchText),
  role: Type.Optional(Type.Enum(['owner', 'admin', 'member'], { type: 'string' })),
  status: Type.Optional(Type.Enum(['active', 'inactive', 'pending'], { type: 'string' })),
  ordering: Ordering(MEMBER_ORDERING, 'joined_at'),
});
export type MemberListInput = Static<typeof MemberListQuery>;

export const MemberUser = Type.Object({
  id: Type.Integer(), email: Nullable(Type.String()), first_name: Type.String(), last_name: Type.String(),
});

/** A member row (docs/organizations.md "Members"). */
export const MemberResponse = Type.Object({
  id: Type.Integer(),
  user: MemberUser,
  role: Type.String(),
  role_display: Type.String(),
  permissions: Type.Array(Type.String()),
  inherited_permissions: Type.Array(Type.String()),
  effective_permissions: Type.Array(Type.String()),
  joined_at: Type.String({ format: 'date-time' }),
  status: Type.String(),
});
export type MemberBody = Static<typeof MemberResponse>;

/**
 * A member row of the SDK's slug-in-path family (docs/migrating-from-tenxyte.md rule 6): the row above with the user's
 * fields also at the top level and `role` as `{code, name}`, which is how the SDK types its memberships.
 */
export const SdkMemberResponse = Type.Object({
  ...MemberResponse.properties,
  user_id: Type.Integer(),
  email: Nullable(Type.String()),
  first_name: Type.String(),
  last_name: Type.String(),
  role: Type.Object({ code: Type.String(), name: Type.String() }),
});
export type SdkMemberBody = Static<typeof SdkMemberResponse>;

/** The SDK family's answer to a role change: the whole member row, and when it changed. */
export const SdkRoleChangedResponse = Type.Object({ ...SdkMemberResponse.properties, updated_at: Type.String({ format: 'date-time' }) });

export const toSdkMember = (m: MemberBody): SdkMemberBody => ({
  ...m, user_id: m.user.id, email: m.user.email, first_name: m.user.first_name, last_name: m.user.last_name,
  role: { code: m.role, name: m.role_display },
});

export const RoleChangedResponse = Type.Object({
  id: Type.Integer(), user: MemberUser, role: Type.String(), role_display: Type.String(), updated_at: Type.String({ format: 'date-time' }),
});

export const toMember = (row: MemberRow, lists: { permissions: string[]; inherited_permissions: string[]; effective_permissions: string[] }): MemberBody => ({
  id: row.id,
  user: { id: row.user_id, email: row.email, first_name: row.first_name, last_name: row.last_name },
  role: row.role_code, role_display: row.role_name, ...lists, joined_at: toIso(row.joined_at)!, status: row.status,
});

/** A member path's user id, or 404 MEMBER_NOT_FOUND when it cannot name one. */
export function memberUserId(params: Static<typeof MemberParams>): number {
  const raw = params.user_id;
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new AppError('MEMBER_NOT_FOUND');
  return Number(raw);
}
