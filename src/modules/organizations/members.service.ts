import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { orderOf } from '../../core/listing.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db, Executor } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { auditOf, type OrgActor } from './org-actor.js';
import type { OrgContext } from './org-context.js';
import { canManage, grantRefusal, OWNER, permissionLists, type OrgRoleGrant } from './org-roles.js';
import { toMember, type AddMemberInput, type MemberListInput } from './members.schemas.js';
import * as repo from './members.repo.js';
import * as orgs from './organizations.repo.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService; events: WebhookEvents };

/** docs/organizations.md "Members": listing, adding, changing a role, removing; the weight rules of "Roles and what they allow". */
export function createMemberService({ db, clock, config, audit, events }: Deps) {
  const callerRole = (context: OrgContext) => context.role!;

  /** An agent grants only roles inside its grant; anyone only roles up to its weight (docs/agents.md, docs/organizations.md). */
  function assertMayGrant(context: OrgContext, role: OrgRoleGrant) {
    const refusal = grantRefusal(callerRole(context), role, context.agent ? { allowed: context.permissions } : null);
    if (refusal) throw new AppError(refusal);
  }

  /** Only members of lower weight are changed or removed; an agent's weight is that of its role inside its grant. */
  function assertMayManage(context: OrgContext, member: { role_weight: number }) {
    if (canManage(callerRole(context), { weight: member.role_weight })) return;
    throw new AppError(context.agent ? 'AGENT_PERMISSION_DENIED' : 'INSUFFICIENT_PERMISSIONS');
  }

  async function roleOf(trx: Executor, code: string) {
    const role = await orgs.findOrgRoleByCode(trx, code);
    if (!role) throw AppError.validation({ role_code: [`Unknown role: ${code}.`] });
    return role;
  }

  /** Member rows with the three permission lists (inherited: the roles the members hold in the ancestors). */
  async function present(trx: Executor, context: OrgContext, rows: repo.MemberRow[]) {
    const inherited = config.ORG_ROLE_INHERITANCE
      ? await repo.inheritedRoles(trx, context.organization.ancestor_ids, rows.map((r) => r.user_id))
      : new Map();
    return rows.map((row) => toMember(row, permissionLists({
      own: { code: row.role_code, name: row.role_name, weight: row.role_weight, permissions: row.role_permissions },
      inherited: inherited.get(row.user_id) ?? [],
    })));
  }

  /** GET organizations/members/: the organization's direct members. */
  async function list(context: OrgContext, query: MemberListInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listMembers(db, context.organization.id,
      { search: query.search, role: query.role, status: query.status },
      orderOf<repo.MemberOrderColumn>(query.ordering, 'joined_at'), page.pageSize, page.offset);
    return { results: await present(db, context, rows), count, page };
  }

  /**
   * Makes `userId` a member with `roleId`, under the organization's lock: 400 ALREADY_MEMBER, or 400
   * MEMBER_LIMIT_EXCEEDED when `max_members` (0: none) is reached. Used by members/add/ and by accepted invitations.
   */
  async function addMembership(trx: Executor, a: { organizationId: number; userId: number; roleId: number; invitedBy: number | null }) {
    const organization = await orgs.lockOrganization(trx, a.organizationId);
    if (!organization) throw new AppError('ORG_NOT_FOUND');
    if (await repo.findMember(trx, a.organizationId, a.userId)) throw new AppError('ALREADY_MEMBER');
    if (organization.max_members > 0 && await orgs.countActiveMembers(trx, a.organizationId) >= organization.max_members) {
      throw new AppError('MEMBER_LIMIT_EXCEEDED');
    }
    const now = clock.now();
    const inserted = await repo.insertMember(trx, { organization_id: a.organizationId, user_id: a.userId, org_role_id: a.roleId,
      status: 'active', invited_by: a.invitedBy, joined_at: now, updated_at: now });
    await events.emit(trx, 'organization.member_added', async (t) => ({ organization_id: a.organizationId, user_id: a.userId,
      role: (await repo.findMember(t, a.organizationId, a.userId))?.role_code ?? null, added_by: a.invitedBy }));
    return inserted;
  }

  /** POST organizations/members/add/: ownership is given by a role change, never by adding. */
  async function add(actor: OrgActor, context: OrgContext, input: AddMemberInput) {
    if (input.role_code === OWNER) throw new AppError('INVALID_ROLE_FOR_OWNER');
    const role = await roleOf(db, input.role_code ?? 'member');
    assertMayGrant(context, role);
    if (!(await repo.findUserSummary(db, input.user_id))) throw new AppError('USER_NOT_FOUND');
    const organizationId = context.organization.id;
    await db.transaction().execute(async (trx) => {
      await addMembership(trx, { organizationId, userId: input.user_id, roleId: role.id, invitedBy: actor.userId });
      await audit.record({ event_type: 'organization_member_added', user_id: input.user_id, ...auditOf(actor),
        details: { organization_id: organizationId, role: role.code } }, trx);
    });
    const row = (await repo.findMember(db, organizationId, input.user_id))!;
    return (await present(db, context, [row]))[0]!;
  }

  /** The direct member `userId` (404 MEMBER_NOT_FOUND otherwise, whatever organization it belongs to). */
  async function memberOf(trx: Executor, context: OrgContext, userId: number) {
    const member = await repo.findMember(trx, context.organization.id, userId);
    if (!member) throw new AppError('MEMBER_NOT_FOUND');
    return member;
  }

  /** PATCH organizations/members/<user_id>/: only a lower-weight member, only to a role the caller may grant. */
  async function changeRole(actor: OrgActor, context: OrgContext, userId: number, roleCode: string) {
    const { member, updated_at } = await changeMemberRole(actor, context, userId, roleCode);
    return { id: member.id, user: member.user, role: member.role, role_display: member.role_display, updated_at };
  }

  /** The role change itself, answering the whole member row (the SDK's `PATCH organizations/<slug>/members/<user_id>/`). */
  async function changeMemberRole(actor: OrgActor, context: OrgContext, userId: number, roleCode: string) {
    const organizationId = context.organization.id;
    const updated = await db.transaction().execute(async (trx) => {
      await orgs.lockOrganization(trx, organizationId);
      const member = await memberOf(trx, context, userId);
      const role = await roleOf(trx, roleCode);
      assertMayManage(context, member);
      assertMayGrant(context, role);
      if (member.role_code === OWNER && role.code !== OWNER && await repo.countOwners(trx, organizationId) <= 1) {
        throw new AppError('LAST_OWNER_CANNOT_BE_DEMOTED');
      }
      if (member.role_code !== role.code) {
        await repo.updateMemberRole(trx, member.id, role.id, clock.now());
        await audit.record({ event_type: 'organization_member_role_changed', severity: role.code === OWNER ? 'warning' : 'info',
          user_id: userId, ...auditOf(actor), details: { organization_id: organizationId, from: member.role_code, to: role.code } }, trx);
      }
      return (await repo.findMember(trx, organizationId, userId))!;
    });
    const [member] = await present(db, context, [updated]);
    return { member: member!, updated_at: updated.updated_at.toISOString() };
  }

  /** DELETE organizations/members/<user_id>/remove/: only a lower-weight member; never the last owner. */
  async function remove(actor: OrgActor, context: OrgContext, userId: number) {
    const organizationId = context.organization.id;
    await db.transaction().execute(async (trx) => {
      await orgs.lockOrganization(trx, organizationId);
      const member = await memberOf(trx, context, userId);
      assertMayManage(context, member);
      if (member.role_code === OWNER && await repo.countOwners(trx, organizationId) <= 1) throw new AppError('LAST_OWNER_CANNOT_BE_REMOVED');
      await repo.deleteMember(trx, member.id);
      await audit.record({ event_type: 'organization_member_removed', severity: 'warning', user_id: userId, ...auditOf(actor),
        details: { organization_id: organizationId, role: member.role_code } }, trx);
      await events.emit(trx, 'organization.member_removed', { organization_id: organizationId, user_id: userId, role: member.role_code,
        removed_by: actor.userId });
    });
    return { message: 'Member removed' };
  }

  return { list, add, changeRole, changeMemberRole, remove, addMembership };
}

export type MemberService = ReturnType<typeof createMemberService>;
