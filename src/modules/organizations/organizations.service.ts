import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError, type FieldErrors } from '../../core/errors.js';
import { orderOf } from '../../core/listing.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db, Executor, RowUpdate } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import type { OrgContext, OrgContextOptions, OrgContextResolver } from './org-context.js';
import { effectiveRole, OWNER, roleForGrant, type OrgRoleGrant, type OrgStanding } from './org-roles.js';
import { buildTree, childPath, fitsUnder, heightBelow, RESERVED_SLUGS, wouldCycle } from './org-tree.js';
import {
  toOrganization, type CreateOrganizationInput, type OrganizationListInput, type UpdateOrganizationInput,
} from './organizations.schemas.js';
import * as members from './members.repo.js';
import * as repo from './organizations.repo.js';
import { auditOf, type OrgActor } from './org-actor.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService };

/** `metadata` is free-form, within reason. */
const MAX_METADATA_BYTES = 16 * 1024;

/** The API's "Organizations": create, list, detail, update, delete, tree, and the system roles. */
export function createOrganizationService({ db, clock, config, audit }: Deps) {
  const inheritance = config.ORG_ROLE_INHERITANCE;

  /**
   * The organization roles by id, read once: they are the seeded system roles, which nothing changes while serving
   * (`gatehouse seed` only adds what is missing). An id not known yet (seeded since) reads them again.
   */
  let rolesById: Map<number, OrgRoleGrant> | undefined;
  async function rolesOf(trx: Executor, ids: Array<number | null>): Promise<Array<OrgRoleGrant | null>> {
    if (!rolesById || ids.some((id) => id !== null && !rolesById!.has(id))) {
      rolesById = new Map((await repo.findOrgRoleGrants(trx)).map(({ id, ...role }) => [id, role]));
    }
    return ids.map((id) => (id === null ? null : rolesById!.get(id) ?? null));
  }

  async function resolve(slug: string, userId: number, trx: Executor = db, opts: OrgContextOptions = {}): Promise<OrgContext | undefined> {
    const found = await repo.findContext(trx, slug, userId, inheritance, opts.detail ?? false);
    if (!found) return undefined;
    const [own, ...inherited] = await rolesOf(trx, [found.own, ...found.inherited]);
    const standing: OrgStanding = { own: own ?? null, inherited: inherited.filter((r): r is OrgRoleGrant => r !== null) };
    const role = effectiveRole(standing);
    const permissions = new Set([standing.own, ...standing.inherited].flatMap((r) => r?.permissions ?? []));
    const base = { organization: found.organization, standing, ...(found.detail ? { detail: found.detail } : {}) };
    if (!opts.grant || !role) return { ...base, role, permissions };
    // An agent acts with what it was granted and its person holds, and with the heaviest role inside that (docs/agents.md).
    const allowed = new Set([...permissions].filter((p) => opts.grant!.has(p)));
    return { ...base, role: roleForGrant(role, rolesById!.values(), allowed), permissions: allowed, agent: { personRole: role } };
  }

  /** The caller's context in the organization with this id (creating or moving under it), or none. */
  async function contextById(trx: Executor, id: number, userId: number) {
    const org = await repo.findOrganization(trx, id);
    return org ? resolve(org.slug, userId, trx) : undefined;
  }

  /** The full Organization of the API, as the caller sees it. */
  async function present(trx: Executor, context: OrgContext) {
    const { organization } = context;
    const { member_count: memberCount, parent, children } = context.detail
      ?? await repo.findDetail(trx, organization.id, organization.parent_id);
    return toOrganization(organization, { memberCount, parent, children, context });
  }

  function checkSlug(slug: string, errors: FieldErrors) {
    if (RESERVED_SLUGS.includes(slug)) errors.slug = [`"${slug}" is reserved; choose another slug.`];
  }

  function checkMetadata(metadata: Record<string, unknown> | undefined, errors: FieldErrors) {
    if (metadata !== undefined && Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) {
      errors.metadata = [`Must be at most ${MAX_METADATA_BYTES} bytes of JSON.`];
    }
  }

  /** POST organizations/: the creator becomes its owner; under `parent_id` it needs `org.manage` in the parent. */
  async function create(actor: OrgActor, input: CreateOrganizationInput) {
    const errors: FieldErrors = {};
    const slug = input.slug.toLowerCase();
    const name = input.name.trim();
    if (!name) errors.name = ['This field may not be blank.'];
    checkSlug(slug, errors);
    checkMetadata(input.metadata, errors);
    let parentPath: number[] = [];
    if (input.parent_id != null) {
      const parent = await contextById(db, input.parent_id, actor.userId);
      if (!parent || !parent.role) errors.parent_id = ['Unknown parent organization.'];
      else if (!parent.permissions.has('org.manage')) throw new AppError('INSUFFICIENT_PERMISSIONS');
      else if (!fitsUnder(parent.organization, 0)) errors.parent_id = ['The organization tree is at most 5 levels deep below its root.'];
      else parentPath = childPath(parent.organization);
    }
    if (!errors.slug && await repo.slugTaken(db, slug)) errors.slug = ['An organization with this slug already exists.'];
    if (Object.keys(errors).length) throw bare(errors);
    const now = clock.now();
    try {
      const id = await db.transaction().execute(async (trx) => {
        const parentId = input.parent_id ?? null;
        // The parent's path is re-read under its lock: a concurrent move cannot leave this child with a stale path.
        if (parentId !== null) {
          const locked = await repo.lockOrganization(trx, parentId);
          if (!locked) throw bare({ parent_id: ['Unknown parent organization.'] });
          parentPath = childPath(locked);
          if (!fitsUnder(locked, 0)) throw bare({ parent_id: ['The organization tree is at most 5 levels deep below its root.'] });
        }
        const { id: orgId } = await repo.insertOrganization(trx, {
          name, slug, description: input.description?.trim() ?? '', metadata: JSON.stringify(input.metadata ?? {}),
          max_members: input.max_members ?? 0, parent_id: parentId, ancestor_ids: parentPath, created_by: actor.userId,
          created_at: now, updated_at: now,
        });
        const owner = await repo.findOrgRoleByCode(trx, OWNER);
        await members.insertMember(trx, { organization_id: orgId, user_id: actor.userId, org_role_id: owner!.id,
          status: 'active', joined_at: now, updated_at: now });
        await audit.record({ event_type: 'organization_created', user_id: actor.userId, ...auditOf(actor),
          details: { organization_id: orgId, slug, parent_id: parentId } }, trx);
        return orgId;
      });
      return present(db, (await resolve(slug, actor.userId))!);
    } catch (err) {
      if (isUniqueViolation(err)) throw bare({ slug: ['An organization with this slug already exists.'] });
      throw err;
    }
  }

  async function list(actor: OrgActor, query: OrganizationListInput) {
    const page = pageRequest(query);
    const parentId = query.parent === undefined ? undefined : query.parent === 'null' ? null : Number(query.parent);
    const { rows, count } = await repo.listOrganizations(db, {
      userId: actor.userId, inheritance, search: query.search, isActive: query.is_active, parentId,
    }, orderOf<repo.OrganizationOrderColumn>(query.ordering, 'name'), page.pageSize, page.offset);
    return { results: rows, count, page };
  }

  const detail = (context: OrgContext) => present(db, context);

  /** PATCH organizations/update/ (`org.manage`); moving (`parent_id`) also needs `org.manage` in the new parent. */
  async function update(actor: OrgActor, context: OrgContext, input: UpdateOrganizationInput) {
    const id = context.organization.id;
    const errors: FieldErrors = {};
    const changes: RowUpdate<'organizations'> = {};
    if (input.name !== undefined) {
      if (!input.name.trim()) errors.name = ['This field may not be blank.'];
      changes.name = input.name.trim();
    }
    if (input.slug !== undefined) {
      const slug = input.slug.toLowerCase();
      checkSlug(slug, errors);
      if (!errors.slug && await repo.slugTaken(db, slug, id)) errors.slug = ['An organization with this slug already exists.'];
      changes.slug = slug;
    }
    if (input.description !== undefined) changes.description = input.description.trim();
    if (input.metadata !== undefined) {
      checkMetadata(input.metadata, errors);
      changes.metadata = JSON.stringify(input.metadata);
    }
    if (input.is_active !== undefined) changes.is_active = input.is_active;
    if (Object.keys(errors).length) throw AppError.validation(errors);
    try {
      await db.transaction().execute(async (trx) => {
        // The tree's lock comes before the row's: a move holding it may be rewriting this row's path.
        if (input.parent_id !== undefined) await repo.lockOrganizationTree(trx);
        const current = (await repo.lockOrganization(trx, id))!;
        if (input.max_members !== undefined) {
          if (input.max_members > 0 && input.max_members < await repo.countActiveMembers(trx, id)) throw new AppError('INVALID_MEMBER_LIMIT');
          changes.max_members = input.max_members;
        }
        if (input.parent_id !== undefined && input.parent_id !== current.parent_id) {
          await move(trx, actor, current, input.parent_id);
          changes.parent_id = input.parent_id;
        }
        if (Object.keys(changes).length === 0) return;
        await repo.updateOrganization(trx, id, { ...changes, updated_at: clock.now() });
        await audit.record({ event_type: 'organization_updated', user_id: actor.userId, ...auditOf(actor),
          details: { organization_id: id, fields: Object.keys(changes) } }, trx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.validation({ slug: ['An organization with this slug already exists.'] });
      throw err;
    }
    const slug = changes.slug ?? context.organization.slug;
    const fresh = await resolve(slug as string, actor.userId, db, actor.agent ? { grant: actor.agent.grant } : {});
    return present(db, fresh ?? context);
  }

  /**
   * Re-parents `current` (null: makes it a root) and rewrites the paths below it. Refused: a parent where the caller
   * lacks `org.manage`, one inside its own subtree (a cycle), or one that would put any organization of the moved
   * subtree below depth 5. The caller holds the tree's lock (no other move runs) and `current`'s row.
   */
  async function move(trx: Executor, actor: OrgActor, current: repo.LockedOrganization, parentId: number | null) {
    let parent: OrgContext['organization'] | null = null;
    // An organization-bound agent moves organizations only within its organization's subtree (docs/agents.md).
    const within = actor.agent?.organizationId ?? null;
    if (actor.agent && (parentId === null || within === null)) throw new AppError('AGENT_PERMISSION_DENIED');
    if (parentId !== null) {
      // Locked so that it cannot be deleted before the move commits (its deletion counts its children under the lock).
      const locked = await repo.lockOrganization(trx, parentId);
      const found = locked && await resolve(locked.slug, actor.userId, trx, actor.agent ? { grant: actor.agent.grant } : {});
      if (!found || !found.role) throw AppError.validation({ parent_id: ['Unknown parent organization.'] });
      if (within !== null && found.organization.id !== within && !found.organization.ancestor_ids.includes(within)) {
        throw new AppError('AGENT_PERMISSION_DENIED');
      }
      if (!found.permissions.has('org.manage')) throw new AppError(actor.agent ? 'AGENT_PERMISSION_DENIED' : 'INSUFFICIENT_PERMISSIONS');
      if (wouldCycle(current.id, found.organization)) {
        throw AppError.validation({ parent_id: ['An organization cannot be moved under itself or one of its descendants.'] });
      }
      parent = found.organization;
    }
    // A sub-organization being created below the subtree commits first and is counted; one created later waits for
    // this move and then checks its depth on the new paths.
    await repo.lockDescendants(trx, current.id);
    const height = heightBelow(current.id, await repo.findSubtreePaths(trx, current.id));
    if (!fitsUnder(parent, height)) {
      throw AppError.validation({ parent_id: ['The organization tree is at most 5 levels deep below its root.'] });
    }
    const newPath = parent ? childPath(parent) : [];
    await repo.updateOrganization(trx, current.id, { ancestor_ids: newPath });
    await repo.rewriteDescendantPaths(trx, current.id, [...current.ancestor_ids, current.id], [...newPath, current.id]);
  }

  /** DELETE organizations/delete/ (`org.owner`, else 403 NOT_OWNER): refused while it has sub-organizations. */
  async function remove(actor: OrgActor, context: OrgContext) {
    const { id, slug } = context.organization;
    await db.transaction().execute(async (trx) => {
      await repo.lockOrganization(trx, id);
      if (await repo.countChildren(trx, id) > 0) throw new AppError('HAS_CHILDREN');
      await repo.deleteOrganization(trx, id);
      await audit.record({ event_type: 'organization_deleted', severity: 'warning', user_id: actor.userId, ...auditOf(actor),
        details: { organization_id: id, slug } }, trx);
    });
    return { message: `Organization ${slug} deleted` };
  }

  /** GET organizations/tree/: the organization and everything below it. */
  async function tree(context: OrgContext) {
    return buildTree(context.organization.id, await repo.findSubtree(db, context.organization.id))!;
  }

  async function roles() {
    return (await repo.findOrgRoles(db)).map(({ id: _id, created_at, ...role }) => ({ ...role, created_at: created_at.toISOString() }));
  }

  const resolver: OrgContextResolver = { resolve: (slug, userId, opts) => resolve(slug, userId, db, opts) };
  return { resolver, resolve, create, list, detail, update, remove, tree, roles };
}

/** docs/api.md: organization-create validation answers a bare field map. */
const bare = (errors: FieldErrors) => new AppError('VALIDATION_ERROR', { details: errors, bare: true });

export type OrganizationService = ReturnType<typeof createOrganizationService>;
