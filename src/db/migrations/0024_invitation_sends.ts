// Invitation limits: a log of sent invitations that outlives them, so deleting an organization or an invitation frees no quota.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // No foreign keys on purpose: a row must stay when its organization goes. Rows older than a day are pruned.
  await sql`
    create table invitation_sends (
      inviter_id bigint not null,
      organization_id bigint not null,
      sent_at timestamptz not null
    )`.execute(db);
  await sql`create index invitation_sends_inviter_idx on invitation_sends (inviter_id, sent_at)`.execute(db);
  await sql`create index invitation_sends_organization_idx on invitation_sends (organization_id, sent_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists invitation_sends`.execute(db);
}
