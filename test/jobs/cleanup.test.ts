import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { addSeconds } from '../../src/core/clock.js';
import { cleanupJob } from '../../src/jobs/cleanup.job.js';
import { createUser } from '../factories/users.js';
import { useTestApp } from '../helpers/test-app.js';

describe('the cleanup job', () => {
  const t = useTestApp();

  it('removes one-time codes and sign-in links expired more than a day ago, and keeps the others', async () => {
    const user = await createUser(t);
    const now = t.clock.now();
    const code = (expiresAt: Date) => ({ id: randomUUID(), user_id: user.id, purpose: 'verify_email' as const, channel: 'email' as const,
      recipient: 'a@example.com', code_hmac: 'x', expires_at: expiresAt, created_at: addSeconds(expiresAt, -600) });
    await t.container.db.insertInto('otp_codes').values([code(addSeconds(now, -2 * 86_400)), code(addSeconds(now, -3600)), code(addSeconds(now, 600))]).execute();
    const lines: string[] = [];
    const result = await cleanupJob(t.container, (l) => lines.push(l));
    const left = await t.container.db.selectFrom('otp_codes').select('expires_at').execute();
    assert.equal(left.length, 2);
    assert.ok(left.every((r) => r.expires_at > addSeconds(now, -86_400)));
    assert.ok(lines.some((l) => /^1 one-time codes and 0 sign-in links/.test(l)), lines.join('\n'));
    assert.match(result.summary, /rows removed/);
  });

  it('removes social-login states and second-factor hand-overs expired more than a day ago, and keeps the others', async () => {
    const user = await createUser(t);
    const now = t.clock.now();
    const state = (expiresAt: Date) => ({ state_hash: randomUUID(), cookie_hash: 'c', provider: 'google', application_id: t.credentials.id,
      redirect_uri: 'http://localhost:3000/callback', code_verifier_sealed: 'x', expires_at: expiresAt });
    await t.container.db.insertInto('social_login_states').values([state(addSeconds(now, -2 * 86_400)), state(addSeconds(now, 300))]).execute();
    await t.container.db.insertInto('social_mfa_tokens').values([
      { token_hash: randomUUID(), user_id: user.id, provider: 'google', expires_at: addSeconds(now, -2 * 86_400) },
      { token_hash: randomUUID(), user_id: user.id, provider: 'google', expires_at: addSeconds(now, 300) },
    ]).execute();
    const lines: string[] = [];
    await cleanupJob(t.container, (l) => lines.push(l));
    assert.equal((await t.container.db.selectFrom('social_login_states').select('id').execute()).length, 1);
    assert.equal((await t.container.db.selectFrom('social_mfa_tokens').select('id').execute()).length, 1);
    assert.ok(lines.some((l) => /^2 social-login states and second-factor hand-overs/.test(l)), lines.join('\n'));
  });

  it('removes invitation sends older than a day, the longest window the invitation limits count, and keeps the others', async () => {
    const now = t.clock.now();
    const send = (seconds: number) => ({ inviter_id: 1, organization_id: 1, sent_at: addSeconds(now, -seconds) });
    await t.container.db.insertInto('invitation_sends').values([send(86_401), send(86_399), send(60)]).execute();
    const lines: string[] = [];
    await cleanupJob(t.container, (l) => lines.push(l));
    assert.equal((await t.container.db.selectFrom('invitation_sends').select('sent_at').execute()).length, 2);
    assert.ok(lines.some((l) => /^1 invitation sends older than a day removed/.test(l)), lines.join('\n'));
  });

  it('removes the authorization server\'s expired records and keeps the live ones (docs/oauth.md "Storage")', async () => {
    const now = t.clock.now();
    const record = (id: string, expiresAt: Date | null) => ({ model: 'AuthorizationCode', id_hash: id, payload: '{}', grant_id: null,
      uid: null, account_id: null, expires_at: expiresAt });
    await t.container.db.insertInto('oauth_records')
      .values([record('gone', addSeconds(now, -1)), record('live', addSeconds(now, 60)), record('kept', null)]).execute();
    const lines: string[] = [];
    await cleanupJob(t.container, (l) => lines.push(l));
    const left = await t.container.db.selectFrom('oauth_records').select('id_hash').orderBy('id_hash').execute();
    assert.deepEqual(left.map((r) => r.id_hash), ['kept', 'live']);
    assert.ok(lines.some((l) => /^1 expired authorization-server records/.test(l)), lines.join('\n'));
  });
});
