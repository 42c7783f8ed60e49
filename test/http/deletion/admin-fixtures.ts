import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { addSeconds } from '../../../src/core/clock.js';
import type { DeletionStatus } from '../../../src/db/database.js';
import { sha256Hex } from '../../../src/security/random.js';
import { signIn } from '../../factories/sessions.js';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser, type TestUser } from '../../factories/users.js';
import type { TestApp } from '../../helpers/test-app.js';
import { grantDirect } from '../../factories/rbac.js';

const DAY = 86_400;

export interface RequestFixture {
  status: DeletionStatus;
  requestedAt?: Date;
  /** Default: 30 days after the request. */
  graceEndsAt?: Date;
  reason?: string | null;
  ip?: string | null;
}

/**
 * A deletion request in `status`, inserted directly. A `confirmed` one also deactivates the account and schedules its
 * deletion, as confirmation does.
 */
export async function deletionRequest(t: TestApp, user: Pick<TestUser, 'id' | 'email'>, f: RequestFixture) {
  const db = t.container.db;
  const requestedAt = f.requestedAt ?? t.clock.now();
  const graceEndsAt = f.graceEndsAt ?? addSeconds(requestedAt, 30 * DAY);
  const confirmed = f.status === 'confirmed' || f.status === 'completed';
  const row = await db.insertInto('account_deletion_requests').values({
    user_id: user.id, user_email: f.status === 'completed' ? null : user.email, status: f.status,
    reason: f.reason === undefined ? 'No longer needed' : f.reason, ip_address: f.ip === undefined ? '198.51.100.4' : f.ip,
    confirmation_hash: f.status === 'pending' || f.status === 'confirmation_sent' ? sha256Hex(randomUUID()) : null,
    confirmation_expires_at: addSeconds(requestedAt, DAY), cancellation_token: randomBytes(16).toString('hex'),
    requested_at: requestedAt, confirmed_at: confirmed ? addSeconds(requestedAt, 60) : null, grace_period_ends_at: graceEndsAt,
    completed_at: f.status === 'completed' ? graceEndsAt : null, cancelled_at: f.status === 'cancelled' ? addSeconds(requestedAt, 120) : null,
  }).returning('id').executeTakeFirstOrThrow();
  if (f.status === 'confirmed') {
    await db.updateTable('users').set({ is_active: false, deletion_scheduled_at: graceEndsAt }).where('id', '=', user.id).execute();
  }
  return row.id;
}

/** A confirmed request of a new account whose grace period ends `endsIn` seconds from now (negative: already ended). */
export async function confirmedRequest(t: TestApp, email: string, endsIn: number) {
  const user = await createUser(t, { email });
  const id = await deletionRequest(t, user, {
    status: 'confirmed', requestedAt: addSeconds(t.clock.now(), endsIn - 30 * DAY), graceEndsAt: addSeconds(t.clock.now(), endsIn),
  });
  return { id, user };
}

/** The person whose data the full anonymization tests look for everywhere afterwards. */
export const ERIN = {
  email: 'erin.quistgaard@example.com', phone: '+15555550123', username: 'erinq', firstName: 'Erinna', lastName: 'Quistgaard',
  ip: '203.0.113.77', userAgent: 'ErinBrowser/7.1',
} as const;

/**
 * An account with data in every table that can hold some, and a confirmed deletion request (plus an earlier
 * cancelled one). `other` is an unrelated account whose rows must stay as they are.
 */
export async function personWithData(t: TestApp) {
  const db = t.container.db;
  const now = t.clock.now();
  const later = addSeconds(now, DAY);
  const user = await createUser(t, { email: ERIN.email, first_name: ERIN.firstName, last_name: ERIN.lastName, username: ERIN.username });
  const other = await createUser(t, { email: 'olaf@example.com' });
  await signIn(t, user);
  await enableTotp(t, user);
  await grantDirect(t, user.id, ['users.view']);
  await db.updateTable('users').set({
    phone: ERIN.phone, avatar: 'https://cdn.example.com/erin.png', bio: `${ERIN.firstName} from Aarhus`, timezone: 'Europe/Copenhagen',
    language: 'fr', custom_fields: JSON.stringify({ employee: ERIN.lastName }), is_email_verified: true, is_phone_verified: true,
    last_login: now,
  }).where('id', '=', user.id).execute();

  await db.insertInto('sessions').values({ user_id: user.id, device_id: 'erin-phone', device_info: 'v=1|os=Android|device=Erin phone',
    device_summary: 'Erin phone', ip_address: ERIN.ip, user_agent: ERIN.userAgent, expires_at: later }).execute();
  await db.insertInto('password_history').values({ user_id: user.id, password_hash: 'old-hash' }).execute();
  await db.insertInto('otp_codes').values({ id: randomUUID(), user_id: user.id, purpose: 'verify_email', channel: 'email',
    recipient: ERIN.email, code_hmac: 'hmac', expires_at: later }).execute();
  await db.insertInto('magic_links').values({ user_id: user.id, email: ERIN.email, token_hash: sha256Hex('erin-link'), expires_at: later }).execute();
  await db.insertInto('social_accounts').values({ user_id: user.id, provider: 'github', subject: 'erin-gh-1', email: ERIN.email }).execute();
  await db.insertInto('social_mfa_tokens').values({ user_id: user.id, provider: 'github', token_hash: sha256Hex('erin-mfa'),
    expires_at: later }).execute();
  await db.insertInto('webauthn_credentials').values({ user_id: user.id, credential_id: 'erin-passkey', public_key: Buffer.from('cose'),
    user_handle: 'erin-handle', device_type: 'multiDevice', authenticator_type: 'platform', aaguid: null }).execute();
  await db.insertInto('webauthn_challenges').values({ user_id: user.id, challenge_hash: sha256Hex('erin-challenge'), purpose: 'register',
    user_handle: 'erin-handle', user_verification: 'preferred', application_id: null, expires_at: later }).execute();
  const agent = await db.insertInto('agent_tokens').values({ user_id: user.id, agent_id: 'erin-bot', token_hash: sha256Hex('erin-bot'),
    granted_permissions: ['users.view'], expires_at: later, max_requests_per_minute: 60, max_requests_total: 1000, max_failed_requests: 10,
    spend_usd: '0' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('agent_pending_actions').values({ agent_token_id: agent.id, user_id: user.id, confirmation_hash: sha256Hex('erin-action'),
    token_nonce: 'n', method: 'GET', path: '/admin/users/', body_sha256: sha256Hex(''), payload: JSON.stringify({ note: ERIN.email }),
    expires_at: later }).execute();

  const org = await db.insertInto('organizations').values({ name: 'Acme', slug: 'acme' }).returning('id').executeTakeFirstOrThrow();
  const roleId = async (code: string) => (await db.selectFrom('org_roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  await db.insertInto('organization_members').values({ organization_id: org.id, user_id: user.id, org_role_id: await roleId('admin'), invited_by: null })
    .execute();
  await db.insertInto('organization_members').values({ organization_id: org.id, user_id: other.id, org_role_id: await roleId('owner'), invited_by: null })
    .execute();
  const member = await roleId('member');
  const invitation = (email: string, status: string, invitedBy: number, acceptedBy: number | null = null) => db.insertInto('organization_invitations')
    .values({ organization_id: org.id, email, org_role_id: member, token_hash: sha256Hex(randomUUID()), status, invited_by: invitedBy,
      accepted_by: acceptedBy, expires_at: later })
    .returning('id');
  const ids = {
    toErinAccepted: (await invitation(ERIN.email, 'accepted', other.id, user.id).executeTakeFirstOrThrow()).id,
    toErinPending: (await invitation(ERIN.email, 'pending', other.id).executeTakeFirstOrThrow()).id,
    fromErinPending: (await invitation('guest@example.com', 'pending', user.id).executeTakeFirstOrThrow()).id,
    fromErinAccepted: (await invitation('member@example.com', 'accepted', user.id).executeTakeFirstOrThrow()).id,
  };

  await db.insertInto('login_attempts').values([
    { identifier: ERIN.email, method: 'email', user_id: user.id, ip_address: ERIN.ip, success: true },
    { identifier: ERIN.phone, method: 'phone', user_id: null, ip_address: ERIN.ip, success: false, failure_reason: 'unknown' },
    { identifier: ERIN.email, method: 'email', user_id: null, ip_address: ERIN.ip, success: false, failure_reason: 'unknown' },
    { identifier: 'olaf@example.com', method: 'email', user_id: other.id, ip_address: '192.0.2.50', success: true },
  ]).execute();
  await db.insertInto('identifier_lockouts').values([{ identifier: ERIN.email, failed_count: 2 }, { identifier: 'nobody@example.com', failed_count: 1 }])
    .execute();
  await db.insertInto('outbox_messages').values([
    { channel: 'email', recipient: ERIN.email, purpose: 'otp', payload: '', status: 'sent', next_attempt_at: now, expires_at: later },
    { channel: 'sms', recipient: ERIN.phone, purpose: 'otp', payload: 'sealed', next_attempt_at: later, expires_at: later },
    { channel: 'email', recipient: 'olaf@example.com', purpose: 'otp', payload: 'sealed', next_attempt_at: later, expires_at: later },
  ]).execute();
  await db.insertInto('audit_events').values([
    { event_type: 'login', user_id: user.id, ip_address: ERIN.ip, user_agent: ERIN.userAgent, details: JSON.stringify({ method: 'email' }) },
    { event_type: 'role_created', actor_id: user.id, ip_address: ERIN.ip, user_agent: ERIN.userAgent, details: JSON.stringify({ code: 'x' }) },
    { event_type: 'organization_invitation_created', user_id: null, actor_id: other.id, ip_address: '192.0.2.50', user_agent: 'OlafBrowser',
      details: JSON.stringify({ invitation_id: ids.toErinPending, email: ERIN.email, note: `invited ${ERIN.email.toUpperCase()} by phone ${ERIN.phone}` }) },
    { event_type: 'login', user_id: other.id, ip_address: '192.0.2.50', user_agent: 'OlafBrowser', details: JSON.stringify({ method: 'email' }) },
  ]).execute();

  const cancelled = await deletionRequest(t, user, { status: 'cancelled', requestedAt: addSeconds(now, -90 * DAY), ip: ERIN.ip });
  const request = await deletionRequest(t, user, { status: 'confirmed', requestedAt: addSeconds(now, -31 * DAY), graceEndsAt: addSeconds(now, -DAY),
    ip: ERIN.ip, reason: 'Moving on' });
  return { user, other, org: org.id, invitations: ids, request, cancelled };
}

/** `table.column` of every column whose text contains `needle` (any case), in every table of the schema. */
export async function columnsContaining(t: TestApp, needle: string): Promise<string[]> {
  const db = t.container.db;
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and table_name not like 'gatehouse_migrations%' and data_type <> 'bytea'
    order by table_name, column_name`.execute(db);
  const found: string[] = [];
  for (const c of columns) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(c.table_name)}
      where ${sql.ref(c.column_name)}::text ilike ${`%${needle}%`}`.execute(db);
    if (rows[0]!.n > 0) found.push(`${c.table_name}.${c.column_name}`);
  }
  return found;
}
