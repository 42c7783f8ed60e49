import { Type, type Static, type TSchema } from 'typebox';
import { toIso } from '../../core/clock.js';
import { ListQuery, Ordering, SearchText } from '../../core/listing.js';
import { Body, Nullable } from '../../http/schema.js';
import type { OrganizationRow, OrgContext } from './org-context.js';
import { MAX_DEPTH, SLUG_PATTERN } from './org-tree.js';

export const Slug = Type.String({ pattern: SLUG_PATTERN, minLength: 2, maxLength: 50,
  description: 'Lower-case letters, digits and inner hyphens, 2 to 50 characters' });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 2000 });
const Metadata = Type.Record(Type.String(), Type.Unknown(), { description: 'A JSON object of at most 16 KiB' });
const MaxMembers = Type.Integer({ minimum: 0, maximum: 1_000_000, description: '0: no limit' });
const ParentId = Type.Integer({ minimum: 1, maximum: 999_999_999_999_999 });

export const CreateOrganizationBody = Body({
  name: Name,
  slug: Slug,
  description: Type.Optional(Description),
  parent_id: Type.Optional(Nullable(ParentId)),
  metadata: Type.Optional(Metadata),
  max_members: Type.Optional(MaxMembers),
});
export type CreateOrganizationInput = Static<typeof CreateOrganizationBody>;

export const UpdateOrganizationBody = Body({
  name: Type.Optional(Name),
  slug: Type.Optional(Slug),
  description: Type.Optional(Description),
  parent_id: Type.Optional(Nullable(ParentId)),
  metadata: Type.Optional(Metadata),
  max_members: Type.Optional(MaxMembers),
  is_active: Type.Optional(Type.Boolean()),
}, 'Fields left out keep their value; parent_id moves the organization (null: makes it a root)');
export type UpdateOrganizationInput = Static<typeof UpdateOrganizationBody>;

export const ORGANIZATION_ORDERING = ['name', 'slug', 'created_at'] as const;

export const OrganizationListQuery = ListQuery({
  search: Type.Optional(SearchText),
  is_active: Type.Optional(Type.Boolean()),
  parent: Type.Optional(Type.String({ pattern: '^(null|[1-9][0-9]{0,14})$', description: '`null` for roots, or a parent id' })),
  ordering: Ordering(ORGANIZATION_ORDERING, 'name'),
});
export type OrganizationListInput = Static<typeof OrganizationListQuery>;

export const OrganizationRef = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() });

/** The API's "Organization". */
export const OrganizationResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  is_active: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  member_count: Type.Integer(),
  max_members: Type.Integer(),
  parent: Nullable(OrganizationRef),
  children: Type.Array(OrganizationRef),
  user_role: Nullable(Type.String()),
  user_permissions: Type.Array(Type.String()),
});

/** A row of `organizations/list/`. */
export const OrganizationSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  member_count: Type.Integer(),
  max_members: Type.Integer(),
  is_active: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

/**
 * The API's "Tree node", nested. The tree is at most 5 levels below its root, so the schema spells the levels out
 * rather than referring to itself (the serializer's allow-list then needs no reference resolution).
 */
const treeNode = (levelsBelow: number): TSchema => Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  depth: Type.Integer(),
  is_root: Type.Boolean(),
  member_count: Type.Integer(),
  children: Type.Array(levelsBelow > 0 ? treeNode(levelsBelow - 1) : Type.Object({}), levelsBelow > 0 ? {} : { maxItems: 0 }),
});
export const TreeNodeResponse = treeNode(MAX_DEPTH);

/** The API's "Organization role". */
export const OrgRoleResponse = Type.Object({
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  weight: Type.Integer(),
  permissions: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), description: Type.String() })),
  is_system_role: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

export function toOrganization(o: OrganizationRow, extra: {
  memberCount: number; parent: Static<typeof OrganizationRef> | null; children: Array<Static<typeof OrganizationRef>>; context: OrgContext;
}): Static<typeof OrganizationResponse> {
  return {
    id: o.id, name: o.name, slug: o.slug, description: o.description, metadata: o.metadata, is_active: o.is_active,
    created_at: toIso(o.created_at)!, updated_at: toIso(o.updated_at)!, member_count: extra.memberCount,
    max_members: o.max_members, parent: extra.parent, children: extra.children,
    user_role: extra.context.role?.code ?? null, user_permissions: [...extra.context.permissions].sort(),
  };
}
