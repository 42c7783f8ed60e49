import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { assignRole, createRole } from '../../factories/rbac.js';
import { decodeJwt, deviceInfo, openSession, signIn } from '../../factories/sessions.js';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { agentApi, delegate, expectError, expectStatus, grantDirect } from '../agents/helpers.js';
import { assertError, assertValidation } from '../auth/assertions.js';
import { requestAndConfirm } from '../deletion/helpers.js';
import { createOrg, join } from '../organizations/helpers.js';
import { account } from '../../factories/accounts.js';
import { auditEvents } from '../../helpers/audit.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

/** The export's top-level keys (docs/privacy.md "Top-level keys"). */
const EXPORT_KEYS = ['user_info', 'roles', 'permissions', 'applications', 'audit_logs', 'export_metadata',
  'sessions', 'devices', 'login_attempts', 'organizations', 'passkeys', 'social_accounts', 'agent_tokens', 'deletion_requests'];
const LISTS = EXPORT_KEYS.filter((k) => k !== 'user_info' && k !== 'export_metadata');

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) keysOf(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) { out.push(k); keysOf(v, out); }
  }
  return out;
}

describe('POST export-user-data/', () => {
  // Audit logging stays off (the development preset's value): the data_exported row must be written all the same.
  const t = useTestApp({ now: NOW, env: { SVC_ORGANIZATIONS_ENABLED: 'true', SVC_MAX_LOGIN_ATTEMPTS: '3' } });
  let ann: TestUser;
  beforeEach(async () => {
    ann = await createUser(t, { email: 'ann@example.com', first_name: 'Ann', last_name: 'Archer' });
  });

  const exportData = (token: string, payload: object = { password: ann.password }) =>
    t.api({ method: 'POST', path: 'export-user-data/', token, payload });
  const exported = (t2: TestApp) => auditEvents(t2, 'data_exported');

  it('answers 200 with the documented keys, lists and export_metadata', async () => {
    const { access_token: token } = await signIn(t, ann);
    const body = expectStatus(await exportData(token), 200);
    assert.deepEqual(Object.keys(body).sort(), [...EXPORT_KEYS].sort());
    for (const list of LISTS) assert.ok(Array.isArray(body[list]), list);
    assert.deepEqual(Object.keys(body.export_metadata).sort(),
      ['data_retention_policy', 'export_format', 'exported_at', 'record_limits', 'total_records']);
    const meta = body.export_metadata;
    assert.equal(meta.exported_at, NOW.toISOString());
    assert.equal(meta.export_format, 'json');
    assert.equal(meta.total_records, 1 + LISTS.reduce((n, list) => n + body[list].length, 0));
    assert.deepEqual({ ...meta.data_retention_policy, description: '' }, {
      description: '', deletion_grace_period_days: 30, ended_sessions_days: 30, login_attempts_days: 90,
      audit_ip_addresses_purged_on_deletion: false,
    });
    assert.deepEqual(meta.record_limits, { audit_logs: { limit: 1000, truncated: false }, login_attempts: { limit: 1000, truncated: false } });
    // This account has no passkey and no social identity.
    assert.deepEqual([body.passkeys, body.social_accounts], [[], []]);
  });

  it('exports the registered passkeys\' names and dates, never their keys', async () => {
    await t.container.db.insertInto('webauthn_credentials').values({ user_id: ann.id, credential_id: 'ann-key', public_key: Buffer.from('cose'),
      user_handle: 'ann-handle', device_name: 'Laptop', device_type: 'singleDevice', authenticator_type: 'platform', aaguid: null,
      created_at: new Date('2026-01-03T00:00:00Z') }).execute();
    const { access_token: token } = await signIn(t, ann);
    const body = expectStatus(await exportData(token), 200);
    assert.deepEqual(body.passkeys.map((p: Record<string, unknown>) => ({ ...p, id: 0 })),
      [{ id: 0, name: 'Laptop', created_at: '2026-01-03T00:00:00.000Z', last_used_at: null }]);
    assert.equal(JSON.stringify(body).includes('ann-handle'), false);
  });

  it('exports the linked social-login identities, oldest first', async () => {
    const db = t.container.db;
    await db.insertInto('social_accounts').values([
      { user_id: ann.id, provider: 'github', subject: '4242', email: ann.email, linked_at: new Date('2026-01-02T00:00:00Z'),
        last_login_at: new Date('2026-02-01T00:00:00Z') },
      { user_id: ann.id, provider: 'google', subject: 'g-17', email: null, linked_at: new Date('2026-01-01T00:00:00Z') },
    ]).execute();
    const { access_token: token } = await signIn(t, ann);
    const body = expectStatus(await exportData(token), 200);
    assert.deepEqual(body.social_accounts.map((s: Record<string, unknown>) => ({ ...s, id: 0 })), [
      { id: 0, provider: 'google', subject: 'g-17', email: null, linked_at: '2026-01-01T00:00:00.000Z', last_login_at: null },
      { id: 0, provider: 'github', subject: '4242', email: ann.email, linked_at: '2026-01-02T00:00:00.000Z',
        last_login_at: '2026-02-01T00:00:00.000Z' },
    ]);
  });

  it('exports the account\'s history: profile, roles and permissions, sessions on two devices, logins, memberships, agent tokens', async () => {
    const db = t.container.db;
    await createRole(db, 'editor', ['roles.view']);
    await assignRole(db, ann.id, 'editor');
    await grantDirect(t, ann.id, ['users.view']);
    assert.equal((await t.api({ method: 'POST', path: 'login/email/', payload: { email: ann.email, password: 'not the password' } })).statusCode, 401);
    t.clock.advance(60);
    const first = await signIn(t, ann, { device_info: deviceInfo(1) });
    t.clock.advance(60);
    const second = await signIn(t, ann, { device_info: deviceInfo(2) });
    t.clock.advance(60);
    const third = await signIn(t, ann, { device_info: deviceInfo(1) });
    const owner = { ...ann, token: third.access_token };
    await createOrg(t, owner, 'acme');
    const bob = await createUser(t, { email: 'bob@example.com' });
    await createOrg(t, { ...bob, token: (await signIn(t, bob)).access_token }, 'globex');
    await join(t, 'globex', owner, 'member');
    const agent = await delegate(t, owner, { agent_id: 'planner', permissions: ['users.view'] });

    const body = expectStatus(await exportData(third.access_token), 200);
    assert.equal(body.user_info.id, ann.id);
    assert.equal(body.user_info.email, 'ann@example.com');
    assert.equal(body.user_info.first_name, 'Ann');
    assert.equal(body.user_info.last_name, 'Archer');
    assert.equal(body.user_info.is_2fa_enabled, false);
    assert.deepEqual(body.roles.map((r: { code: string }) => r.code), ['editor', 'user']);
    assert.deepEqual(body.permissions.map((p: { code: string; is_direct: boolean }) => [p.code, p.is_direct]),
      [['roles.view', false], ['users.view', true]]);

    assert.deepEqual(body.sessions.map((s: { id: string }) => s.id), [third.session_id, second.session_id, first.session_id]);
    assert.ok(body.sessions.every((s: { is_active: boolean; application: number }) => s.is_active && s.application === t.credentials.id));
    assert.deepEqual(body.devices.map((d: { device_id: string; sessions: number; active_sessions: number }) =>
      [d.device_id, d.sessions, d.active_sessions]), [[third.device_id, 2, 2], [second.device_id, 1, 1]]);
    assert.equal(body.devices[0].device_summary, 'Acme 2.1 on Phone 1 (Android 1)');
    assert.equal(body.devices[0].first_seen_at, new Date(NOW.getTime() + 60_000).toISOString());
    assert.deepEqual(body.applications, [{ id: t.credentials.id, name: 'Test App', first_signed_in_at: body.devices[0].first_seen_at,
      last_used_at: body.sessions[0].last_used_at, active_sessions: 3 }]);

    assert.deepEqual(body.login_attempts.map((a: { success: boolean }) => a.success), [true, true, true, false]);
    assert.equal(body.login_attempts[3].identifier, 'ann@example.com');
    assert.deepEqual(body.organizations.map((m: { organization: { slug: string; name: string }; role: { code: string; name: string } }) =>
      [m.organization.slug, m.organization.name, m.role.code, m.role.name]), [['acme', 'ACME', 'owner', 'Owner'], ['globex', 'GLOBEX', 'member', 'Member']]);
    assert.equal(body.agent_tokens.length, 1);
    assert.deepEqual({ id: body.agent_tokens[0].id, agent_id: body.agent_tokens[0].agent_id, status: body.agent_tokens[0].status,
      granted_permissions: body.agent_tokens[0].granted_permissions }, { id: agent.id, agent_id: 'planner', status: 'ACTIVE',
      granted_permissions: ['users.view'] });
    assert.equal(body.export_metadata.total_records, 1 + LISTS.reduce((n, list) => n + body[list].length, 0));
  });

  it('answers no hash, secret, code or token: neither the stored ones nor the raw ones the client holds', async () => {
    const db = t.container.db;
    const first = await signIn(t, ann, { device_info: deviceInfo(1) });
    const second = await signIn(t, ann, { device_info: deviceInfo(2) });
    const refreshed = expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: second.refresh_token } }), 200);
    const agent = await delegate(t, { ...ann, token: first.access_token });
    const totp = await enableTotp(t, ann);
    await db.insertInto('account_deletion_requests').values({ user_id: ann.id, user_email: ann.email, status: 'cancelled',
      reason: 'trying it out', confirmation_hash: 'c'.repeat(64), cancellation_token: 'cancel-reference-0123456789abcdef',
      grace_period_ends_at: NOW, cancelled_at: NOW }).execute();

    const res = await exportData(first.access_token);
    const body = expectStatus(res, 200);
    assert.equal(body.deletion_requests.length, 1);
    assert.equal(body.deletion_requests[0].reason, 'trying it out');

    const user = await userRow(t, ann.id);
    const stored = [
      user.password_hash!,
      ...(await db.selectFrom('refresh_tokens').select('token_hash').where('user_id', '=', ann.id).execute()).map((r) => r.token_hash),
      ...(await db.selectFrom('agent_tokens').select('token_hash').where('user_id', '=', ann.id).execute()).map((r) => r.token_hash),
      ...(await db.selectFrom('totp_credentials').select('secret_sealed').where('user_id', '=', ann.id).execute()).map((r) => r.secret_sealed!),
      ...(await db.selectFrom('backup_codes').select('code_hash').where('user_id', '=', ann.id).execute()).map((r) => r.code_hash),
      ...(await db.selectFrom('applications').select(['secret_hash', 'access_key']).execute()).flatMap((a) => [a.secret_hash, a.access_key]),
      'c'.repeat(64), 'cancel-reference-0123456789abcdef',
    ];
    const held = [first.access_token, first.refresh_token, second.access_token, second.refresh_token, refreshed.access_token,
      ...(refreshed.refresh_token ? [refreshed.refresh_token] : []), agent.token, totp.secret, ...totp.backupCodes, t.credentials.access_secret,
      ...[first.access_token, second.access_token].map((jwt) => String(decodeJwt(jwt).payload.jti))];
    assert.ok(stored.length >= 10 && held.length >= 20);
    for (const secret of [...stored, ...held]) {
      assert.ok(secret.length >= 10, 'a value long enough to be searched for');
      assert.ok(!res.body.includes(secret), `the export holds a secret (${secret.slice(0, 6)}…)`);
    }
    const suspicious = keysOf(body).filter((k) => /hash|secret|token$|jti|^password$|otp|code$/i.test(k));
    // The one documented exception: `code` is a role's or permission's code (its name), not a one-time code.
    assert.deepEqual([...new Set(suspicious)], ['code']);
  });

  it('answers 400 VALIDATION_ERROR with details.password for a wrong password, counts it toward the lockout and exports nothing', async () => {
    const { access_token: token } = await signIn(t, ann);
    for (let i = 0; i < 2; i++) assertValidation(await exportData(token, { password: 'not the password' }), 'password');
    assert.equal((await userRow(t, ann.id)).failed_login_count, 2);
    const failures = await auditEvents(t, 'data_export_failed');
    assert.deepEqual(failures.map((e) => [e.user_id, e.severity]), [[ann.id, 'warning'], [ann.id, 'warning']]);
    const locked = await exportData(token, { password: 'not the password' });
    assert.equal(locked.statusCode, 423, locked.body);
    assert.equal(locked.json().code, 'ACCOUNT_LOCKED');
    assert.equal((await exportData(token)).statusCode, 423);
    assert.deepEqual(await exported(t), []);
  });

  it('answers 400 with details.password when the password is missing, or the account has none (not counted)', async () => {
    const { access_token: token } = await signIn(t, ann);
    assertValidation(await exportData(token, {}), 'password');
    assertValidation(await exportData(token, { password: ann.password, extra: 1 }), 'extra');
    const passwordless = await createUser(t, { email: 'pat@example.com', password: null });
    const { access_token: patToken } = await openSession(t, passwordless.id);
    assertValidation(await exportData(patToken, { password: 'anything at all' }), 'password');
    assert.equal((await userRow(t, passwordless.id)).failed_login_count, 0);
    assert.deepEqual(await exported(t), []);
  });

  it('answers 401 UNAUTHORIZED without a bearer and 403 INSUFFICIENT_SCOPE for a password_change_only token', async () => {
    assertError(await t.api({ method: 'POST', path: 'export-user-data/', payload: { password: ann.password } }), 401, 'UNAUTHORIZED');
    const { access_token: restricted } = await openSession(t, ann.id, 'password_change_only');
    assertError(await exportData(restricted), 403, 'INSUFFICIENT_SCOPE');
    assert.deepEqual(await exported(t), []);
  });

  it('accepts a deletion_pending token: an account whose deletion is confirmed exports its data during the grace period', async () => {
    const { access_token: token } = await signIn(t, ann);
    await requestAndConfirm(t, { ...ann, token });
    const pending = expectStatus(await t.api({ method: 'POST', path: 'login/email/', payload: { email: ann.email, password: ann.password } }), 200);
    assert.equal(pending.token_scope, 'deletion_pending');
    const body = expectStatus(await exportData(pending.access_token), 200);
    assert.equal(body.user_info.is_active, false);
    assert.deepEqual(body.deletion_requests.map((r: { status: string }) => r.status), ['confirmed']);
    assert.equal((await exported(t)).length, 1);
  });

  it('answers 403 AGENT_NOT_ALLOWED to an agent, whatever it was granted', async () => {
    const { access_token: token } = await signIn(t, ann);
    await grantDirect(t, ann.id, ['users.view']);
    const agent = await delegate(t, { ...ann, token }, { permissions: ['users.view'] });
    expectError(await agentApi(t)('POST', 'export-user-data/', agent.token, { password: ann.password }), 403, 'AGENT_NOT_ALLOWED');
    assert.deepEqual(await exported(t), []);
  });

  it('documents the request and the answer in the OpenAPI schema, Bearer only', async () => {
    const doc = expectStatus(await t.api({ method: 'GET', path: 'docs/schema/' }), 200);
    const op = doc.paths[`${t.container.config.API_PREFIX}export-user-data/`]?.post;
    assert.ok(op, 'POST export-user-data/ is documented');
    assert.deepEqual(op.requestBody.content['application/json'].schema.required, ['password']);
    const answer = op.responses['200'].content['application/json'].schema;
    assert.deepEqual(Object.keys(answer.properties).sort(), [...EXPORT_KEYS].sort());
    assert.ok(!JSON.stringify(op.security).includes('AgentBearer'));
  });

  it('writes one data_exported audit row per export, even with audit logging off, and the next export lists it', async () => {
    assert.equal(t.container.config.AUDIT_LOGGING_ENABLED, false);
    const { access_token: token } = await signIn(t, ann);
    const firstExport = expectStatus(await exportData(token), 200);
    const rows = await exported(t);
    assert.deepEqual(rows, [{ event_type: 'data_exported', severity: 'info', user_id: ann.id, actor_id: null,
      details: { total_records: firstExport.export_metadata.total_records } }]);
    t.clock.advance(1);
    const next = expectStatus(await exportData(token), 200);
    assert.equal((await exported(t)).length, 2);
    assert.equal(next.audit_logs[0].event_type, 'data_exported');
    assert.equal(next.audit_logs[0].application, t.credentials.id);
  });

  it('exports the 1000 most recent audit events, newest first, and says the list was cut', async () => {
    const { access_token: token } = await signIn(t, ann);
    await t.container.db.insertInto('audit_events').values(Array.from({ length: 1005 }, (_, i) => ({
      event_type: 'profile_updated', user_id: ann.id, details: JSON.stringify({ n: i }), created_at: new Date(NOW.getTime() - (1005 - i) * 1000),
    }))).execute();
    const body = expectStatus(await exportData(token), 200);
    assert.equal(body.audit_logs.length, 1000);
    assert.deepEqual(body.audit_logs[0].details, { n: 1004 });
    assert.deepEqual(body.audit_logs[999].details, { n: 5 });
    assert.deepEqual(body.export_metadata.record_limits.audit_logs, { limit: 1000, truncated: true });
  });

  // docs/privacy.md "Export": another person's address and browser are that person's data, not the exported one's.
  it('keeps the events an administrator wrote about the person without the administrator\'s IP address and user agent', async () => {
    const admin = await account(t, { roles: ['admin'], email: 'admin@example.com' });
    const asAdmin = { remoteAddress: '203.0.113.77', headers: { 'user-agent': 'AdminConsole/9.1' }, token: admin.token };
    expectStatus(await t.api({ method: 'POST', path: `admin/users/${ann.id}/ban/`, payload: { reason: 'spam' }, ...asAdmin }), 200);
    expectStatus(await t.api({ method: 'POST', path: `admin/users/${ann.id}/unban/`, ...asAdmin }), 200);
    expectStatus(await t.api({ method: 'POST', path: `admin/users/${ann.id}/lock/`, payload: { duration_minutes: 1 }, ...asAdmin }), 200);
    expectStatus(await t.api({ method: 'POST', path: `admin/users/${ann.id}/unlock/`, ...asAdmin }), 200);
    // An event the person wrote as its actor keeps her address too.
    await t.container.db.insertInto('audit_events').values({ event_type: 'organization_invitation_accepted', user_id: ann.id,
      actor_id: ann.id, ip_address: '198.51.100.24', user_agent: 'AnnLaptop/1.0', details: '{}', created_at: NOW }).execute();

    const asAnn = { remoteAddress: '198.51.100.23', headers: { 'user-agent': 'AnnPhone/2.0' } };
    const login = await t.api({ method: 'POST', path: 'login/email/', payload: { email: ann.email, password: ann.password }, ...asAnn });
    const token = expectStatus(login, 200).access_token as string;
    // A wrong password is an event she caused: it keeps her address and browser.
    expectStatus(await t.api({ method: 'POST', path: 'export-user-data/', token, payload: { password: 'not hers' }, ...asAnn }), 400);
    const body = expectStatus(await t.api({ method: 'POST', path: 'export-user-data/', token, payload: { password: ann.password }, ...asAnn }), 200);

    const byType = (type: string) => body.audit_logs.find((e: { event_type: string }) => e.event_type === type);
    for (const type of ['user_banned', 'user_locked']) {
      const event = byType(type);
      assert.ok(event, `${type} is exported`);
      assert.deepEqual([event.actor, event.ip_address, event.user_agent], [admin.id, null, null], type);
    }
    assert.deepEqual(byType('user_banned').details, { reason: 'spam', sessions_revoked: 0 });
    const failed = byType('data_export_failed');
    assert.deepEqual([failed.actor, failed.ip_address, failed.user_agent], [null, '198.51.100.23', 'AnnPhone/2.0']);
    const accepted = byType('organization_invitation_accepted');
    assert.deepEqual([accepted.actor, accepted.ip_address, accepted.user_agent], [ann.id, '198.51.100.24', 'AnnLaptop/1.0']);
    assert.deepEqual(body.login_attempts.map((a: { ip_address: string }) => a.ip_address), ['198.51.100.23']);
    const text = JSON.stringify(body);
    assert.ok(!text.includes('203.0.113.77') && !text.includes('AdminConsole'), 'nothing of the administrator\'s request');
    // The administrator's own view of the trail still has them.
    const [row] = await t.container.db.selectFrom('audit_events').select(['ip_address', 'user_agent']).where('event_type', '=', 'user_banned').execute();
    assert.deepEqual(row, { ip_address: '203.0.113.77', user_agent: 'AdminConsole/9.1' });
  });
});

describe('POST export-user-data/ rate limit (outside debug)', () => {
  // Its one test resets the database itself.
  const t = useTestApp({ env: { SVC_DEBUG: 'false', SVC_RATE_LIMITING_ENABLED: 'true' }, reset: false });

  it('answers 429 RATE_LIMITED with retry_after on the fourth export within an hour', async () => {
    await t.reset();
    const user = await createUser(t, { email: 'ann@example.com' });
    const { access_token: token } = await signIn(t, user);
    const call = () => t.api({ method: 'POST', path: 'export-user-data/', token, payload: { password: user.password } });
    for (let i = 0; i < 3; i++) expectStatus(await call(), 200);
    const res = await call();
    assert.equal(res.statusCode, 429, res.body);
    assert.equal(res.json().code, 'RATE_LIMITED');
    assert.ok(res.json().retry_after > 60 && res.json().retry_after <= 3600);
    assert.equal((await auditEvents(t, 'data_exported')).length, 3);
  });
});
