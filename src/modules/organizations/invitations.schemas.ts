import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { ListQuery } from '../../core/listing.js';
import { Body, Nullable } from '../../http/schema.js';
import type { InvitationView } from './invitations.repo.js';
import { MemberUser } from './members.schemas.js';
import { OrganizationRef } from './organizations.schemas.js';

/** docs/organizations.md "Inviting": invitations last 7 days unless the inviter says otherwise (1 to 30). */
export const DEFAULT_INVITATION_DAYS = 7;
export const MAX_INVITATION_DAYS = 30;

export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'expired', 'revoked'] as const;

export const InviteBody = Body({
  email: Type.String({ minLength: 3, maxLength: 254 }),
  role_code: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: '`admin` or `member` (default); `owner` cannot be invited' })),
  expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INVITATION_DAYS, default: DEFAULT_INVITATION_DAYS })),
});
export type InviteInput = Static<typeof InviteBody>;

/** accept/ and decline/: the token from the invitation email or the 201 answer. */
export const InvitationTokenBody = Body({ token: Type.String({ minLength: 1, maxLength: 512 }) });
export type InvitationTokenInput = Static<typeof InvitationTokenBody>;

export const InvitationListQuery = ListQuery({
  status: Type.Optional(Type.Enum([...INVITATION_STATUSES], { type: 'string', description: 'A pending invitation past its expiry is `expired`' })),
});
export type InvitationListInput = Static<typeof InvitationListQuery>;

/** `<id>` in invitation paths: any text, so a malformed id answers 404 NOT_FOUND like an unknown one. */
export const InvitationParams = Type.Object({ id: Type.String() });

/** An invitation (docs/organizations.md "Invitations"). `token` is shown once, in the 201 answer; only its hash is kept, so lists show null. */
export const InvitationResponse = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Type.String(),
  role_display: Type.String(),
  token: Nullable(Type.String()),
  expires_at: Type.String({ format: 'date-time' }),
  invited_by: Nullable(MemberUser),
  organization: OrganizationRef,
  status: Type.Enum([...INVITATION_STATUSES], { type: 'string' }),
  created_at: Type.String({ format: 'date-time' }),
});
export type InvitationBody = Static<typeof InvitationResponse>;

/** accept/: the organization joined and the role held there (the existing one when the caller was already a member). */
export const InvitationAcceptedResponse = Type.Object({
  message: Type.String(),
  organization: OrganizationRef,
  role: Type.String(),
});

export const toInvitation = (row: InvitationView, organization: Static<typeof OrganizationRef>, token: string | null = null): InvitationBody => ({
  id: row.id, email: row.email, role: row.role_code, role_display: row.role_name, token, expires_at: toIso(row.expires_at)!,
  invited_by: row.inviter_id === null ? null : {
    id: row.inviter_id, email: row.inviter_email, first_name: row.inviter_first_name ?? '', last_name: row.inviter_last_name ?? '',
  },
  organization, status: row.status, created_at: toIso(row.created_at)!,
});

/** An invitation path's id, or 404 NOT_FOUND when it cannot name one. */
export function invitationId(params: Static<typeof InvitationParams>): number {
  const raw = params.id;
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new AppError('NOT_FOUND');
  return Number(raw);
}
