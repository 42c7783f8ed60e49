import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db, Executor } from '../../db/database.js';
import type { OutboxService } from '../../notifications/outbox.service.js';
import { newOpaqueToken, sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import { linkWithToken } from '../passwordless/validation-url.js';
import { isValidEmail, normalizeEmail } from '../users/contact.js';
import { auditOf, type OrgActor } from './org-actor.js';
import type { OrgContext } from './org-context.js';
import { grantRefusal, OWNER } from './org-roles.js';
import { DEFAULT_INVITATION_DAYS, toInvitation, type InvitationListInput, type InviteInput } from './invitations.schemas.js';
import * as repo from './invitations.repo.js';
import { countInvitation } from './invitation-limits.js';
import * as memberRepo from './members.repo.js';
import type { MemberService } from './members.service.js';
import * as orgs from './organizations.repo.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService; outbox: OutboxService; members: MemberService };

const DAY = 86_400;

/** Who answers an invitation: the signed-in account, and the request it came with when there is one. */
type Invitee = { userId: number; actor: OrgActor | null };

/**
 * docs/organizations.md "Invitations": a token of 32 random bytes whose SHA-256 alone is stored, shown once
 * (201 answer and email); it becomes a membership for the account whose verified email it was sent to — by
 * accept/, or on its next sign-in or verification of that address.
 */
export function createInvitationService({ db, clock, config, audit, outbox, members }: Deps) {
  const summaryOf = ({ id, name, slug }: OrgContext['organization']) => ({ id, name, slug });

  /** POST organizations/invitations/: only with a role the caller may grant, never `owner`, never to a member. */
  async function invite(actor: OrgActor, context: OrgContext, input: InviteInput) {
    const email = normalizeEmail(input.email);
    if (!isValidEmail(email)) throw AppError.validation({ email: ['Enter a valid email address.'] });
    if (input.role_code === OWNER) throw new AppError('INVALID_ROLE_FOR_OWNER');
    const role = await orgs.findOrgRoleByCode(db, input.role_code ?? 'member');
    if (!role) throw AppError.validation({ role_code: [`Unknown role: ${input.role_code}.`] });
    // An agent invites only to a role inside its grant (docs/agents.md); anyone only to a role up to its weight.
    const refusal = grantRefusal(context.role!, role, context.agent ? { allowed: context.permissions } : null);
    if (refusal) throw new AppError(refusal);
    const { organization } = context;
    const days = input.expires_in_days ?? DEFAULT_INVITATION_DAYS;
    const [recipient, inviter] = await Promise.all([repo.findAccountByEmail(db, email), repo.findInviter(db, actor.userId)]);
    // docs/organizations.md: Gatehouse sends invitations from its own address, so only an account that proved its
    // address sends them, and the email names that address.
    if (!inviter?.email || !inviter.is_email_verified) throw new AppError('EMAIL_NOT_VERIFIED');
    const inviterEmail = inviter.email;
    const token = newOpaqueToken();
    const now = clock.now();
    const expiresAt = addSeconds(now, days * DAY);
    const view = await db.transaction().execute(async (trx) => {
      // Under the organization's lock: a concurrent invitation to the same address cannot leave two pending.
      await orgs.lockOrganization(trx, organization.id);
      await countInvitation(trx, actor.userId, organization.id, now);
      if (await repo.isMemberByEmail(trx, organization.id, email)) throw new AppError('ALREADY_MEMBER');
      const replaced = await repo.expirePending(trx, organization.id, email);
      const { id } = await repo.insertInvitation(trx, {
        organization_id: organization.id, email, org_role_id: role.id, token_hash: token.hash, status: 'pending',
        invited_by: actor.userId, expires_at: expiresAt, created_at: now,
      });
      await audit.record({ event_type: 'organization_invitation_created', user_id: recipient?.id ?? null, ...auditOf(actor),
        details: { organization_id: organization.id, invitation_id: id, email, role: role.code, expires_at: expiresAt.toISOString(),
          replaced: replaced.map((r) => r.id) } }, trx);
      const inviterName = [inviter.first_name, inviter.last_name].join(' ').trim();
      await outbox.enqueue(trx, {
        channel: 'email', to: email, purpose: 'invitation', language: recipient?.language ?? null, expiresAt,
        vars: {
          organization: organization.name, role: role.name, days, inviter_email: inviterEmail,
          ...(inviterName ? { inviter: inviterName } : {}),
          ...(config.ORG_INVITATION_URL ? { link: linkWithToken(config.ORG_INVITATION_URL, token.raw) } : { token: token.raw }),
        },
        dedupKey: `org_invitation:${id}`,
      });
      return (await repo.findInvitationView(trx, organization.id, id, now))!;
    });
    outbox.kick();
    return toInvitation(view, summaryOf(organization), token.raw);
  }

  /** GET organizations/invitations/: newest first; a pending invitation past its expiry shows as `expired`. */
  async function list(context: OrgContext, query: InvitationListInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listInvitations(db, context.organization.id, query.status, clock.now(), page.pageSize, page.offset);
    return { results: rows.map((row) => toInvitation(row, summaryOf(context.organization))), count, page };
  }

  /** DELETE organizations/invitations/<id>/: another organization's invitation is not found; only a pending one is revoked. */
  async function revoke(actor: OrgActor, context: OrgContext, id: number) {
    const organizationId = context.organization.id;
    const invitation = await repo.findInvitation(db, organizationId, id);
    if (!invitation) throw new AppError('NOT_FOUND');
    await db.transaction().execute(async (trx) => {
      if (!await repo.respond(trx, id, 'revoked', clock.now())) throw new AppError('INVALID_INVITATION');
      await audit.record({ event_type: 'organization_invitation_revoked', ...auditOf(actor),
        details: { organization_id: organizationId, invitation_id: id, email: invitation.email } }, trx);
    });
    return { message: 'Invitation revoked' };
  }

  /**
   * The live invitation a token names, for the account presenting it: unknown, used, revoked or expired → 400
   * INVALID_INVITATION; sent to another address, or to this account's address while it is unverified → 403
   * INVITATION_EMAIL_MISMATCH (the token alone proves nothing about who holds it; the verified address does).
   */
  async function invitationFor(token: string, userId: number) {
    const invitation = await repo.findByTokenHash(db, sha256Hex(token));
    if (!invitation || invitation.status !== 'pending' || invitation.expires_at <= clock.now()) throw new AppError('INVALID_INVITATION');
    const account = await repo.findInvitee(db, userId);
    if (!account || account.email !== invitation.email || !account.is_email_verified) throw new AppError('INVITATION_EMAIL_MISMATCH');
    return invitation;
  }

  /**
   * Turns the invitation into a membership, in `trx`: the organization is locked first (as inviting and adding do),
   * then the invitation is claimed in one statement, so of concurrent acceptances one wins and the others find it
   * used. Over the member limit the transaction fails and the invitation stays pending. An invitee who is already
   * a member keeps its role; the invitation is still used.
   */
  async function acceptIn(trx: Executor, invitation: repo.InvitationRow, who: Invitee, automatic: boolean) {
    const now = clock.now();
    const { organization_id: organizationId, id } = invitation;
    if (!await orgs.lockOrganization(trx, organizationId) || !await repo.respond(trx, id, 'accepted', now, who.userId)) {
      throw new AppError('INVALID_INVITATION');
    }
    let isNewMember = true;
    try {
      await members.addMembership(trx, { organizationId, userId: who.userId, roleId: invitation.org_role_id, invitedBy: invitation.invited_by });
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'ALREADY_MEMBER')) throw err;
      isNewMember = false;
    }
    const member = (await memberRepo.findMember(trx, organizationId, who.userId))!;
    await audit.record({ event_type: 'organization_invitation_accepted', user_id: who.userId,
      ...(who.actor ? auditOf(who.actor) : { actor_id: who.userId }),
      details: { organization_id: organizationId, invitation_id: id, email: invitation.email, role: member.role_code,
        already_member: !isNewMember, automatic } }, trx);
    return member.role_code;
  }

  /** POST organizations/invitations/accept/. */
  async function accept(actor: OrgActor, token: string) {
    const invitation = await invitationFor(token, actor.userId);
    const role = await db.transaction().execute((trx) => acceptIn(trx, invitation, { userId: actor.userId, actor }, false));
    const organization = (await orgs.findSummary(db, invitation.organization_id))!;
    return { message: 'Invitation accepted', organization, role };
  }

  /** POST organizations/invitations/decline/: the same checks as accepting. */
  async function decline(actor: OrgActor, token: string) {
    const invitation = await invitationFor(token, actor.userId);
    await db.transaction().execute(async (trx) => {
      if (!await repo.respond(trx, invitation.id, 'declined', clock.now())) throw new AppError('INVALID_INVITATION');
      await audit.record({ event_type: 'organization_invitation_declined', user_id: actor.userId, ...auditOf(actor),
        details: { organization_id: invitation.organization_id, invitation_id: invitation.id, email: invitation.email } }, trx);
    });
    return { message: 'Invitation declined' };
  }

  /**
   * After a sign-in or an email verification: every pending invitation for the account's address, when that
   * address is verified, becomes a membership. One that cannot (member limit reached, used meanwhile) stays as it
   * is; other failures reach the caller, which reports them without failing the sign-in.
   */
  async function acceptPendingFor(user: { id: number }) {
    const pending = await repo.findPendingForVerifiedAccount(db, user.id, clock.now());
    for (const invitation of pending) {
      try {
        await db.transaction().execute((trx) => acceptIn(trx, invitation, { userId: user.id, actor: null }, true));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
  }

  return { invite, list, revoke, accept, decline, acceptPendingFor };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
