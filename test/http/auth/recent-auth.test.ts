import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { openSession, signIn } from '../../factories/sessions.js';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';
import { authenticator, PASSKEY_ENV, registerBegin, registerComplete } from '../passkeys/helpers.js';
import { assertError } from './assertions.js';

const NOW = new Date('2026-03-02T10:00:00Z');
const WINDOW = 900; // SVC_REAUTH_MAX_AGE's default
const NEW_PHONE = '+33698765432';
type Proof = { password?: string; totp_code?: string };

/**
 * docs/security.md "Recent authentication", from the side of someone holding another person's valid access token:
 * creating an agent token, beginning a passkey registration, starting a 2FA setup and changing the phone need a sign-in
 * within SVC_REAUTH_MAX_AGE or the account's password (and code) in the body.
 */
describe('recent authentication', () => {
  const t = useTestApp({ now: NOW, env: { ...PASSKEY_ENV, SVC_AUDIT_LOGGING_ENABLED: 'true', SVC_MAX_LOGIN_ATTEMPTS: '3' } });
  let ann: TestUser;
  beforeEach(async () => {
    t.container.inbox.emails.length = 0;
    t.container.inbox.sms.length = 0;
    ann = await createUser(t, { email: 'ann@example.com', phone: '+33612345678' });
  });

  const count = async (table: 'agent_tokens' | 'webauthn_challenges' | 'totp_credentials', userId: number) =>
    (await t.container.db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute()).length;
  const failures = async (userId: number) => (await userRow(t, userId)).failed_login_count;
  const mails = async (to: string, purpose: string) => {
    await t.container.services.outbox.flush();
    return t.container.inbox.emails.filter((m) => m.to === to && m.purpose === purpose);
  };

  /** Each gated change: how to ask for it, its success status, and what it leaves behind (to show a refusal did nothing). */
  const GATED: Array<{ name: string; send: (token: string, proof: Proof) => Promise<LightMyRequestResponse>; ok: number;
    done: (user: TestUser) => Promise<unknown> }> = [
    { name: 'POST ai/tokens/', ok: 201, done: (u) => count('agent_tokens', u.id),
      send: (token, proof) => t.api({ method: 'POST', path: 'ai/tokens/', token, payload: { agent_id: 'assistant', ...proof } }) },
    { name: 'POST webauthn/register/begin/', ok: 200, done: (u) => count('webauthn_challenges', u.id),
      send: (token, proof) => t.api({ method: 'POST', path: 'webauthn/register/begin/', token, payload: proof }) },
    { name: 'POST 2fa/setup/', ok: 200, done: (u) => count('totp_credentials', u.id),
      send: (token, proof) => t.api({ method: 'POST', path: '2fa/setup/', token, ...(Object.keys(proof).length ? { payload: proof } : {}) }) },
    { name: 'PATCH me/ with a new phone', ok: 200, done: async (u) => (await userRow(t, u.id)).phone,
      send: (token, proof) => t.api({ method: 'PATCH', path: 'me/', token, payload: { phone: NEW_PHONE, ...proof } }) },
  ];

  for (const gated of GATED) {
    describe(gated.name, () => {
      it('goes through without any proof right after a sign-in', async () => {
        const { access_token } = await signIn(t, ann);
        expectStatus(await gated.send(access_token, {}), gated.ok);
      });

      it('refuses a stolen access token whose sign-in is older than the window: 403 REAUTHENTICATION_REQUIRED, nothing done', async () => {
        const { access_token } = await signIn(t, ann);
        const before = await gated.done(ann);
        t.clock.advance(WINDOW + 1);
        assertError(await gated.send(access_token, {}), 403, 'REAUTHENTICATION_REQUIRED');
        assert.deepEqual(await gated.done(ann), before);
      });

      it('refuses a token refreshed from a stolen refresh token: a refresh keeps the old sign-in time', async () => {
        const pair = await signIn(t, ann);
        t.clock.advance(WINDOW + 1);
        const refreshed = expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: pair.refresh_token } }), 200);
        const before = await gated.done(ann);
        assertError(await gated.send(refreshed.access_token, {}), 403, 'REAUTHENTICATION_REQUIRED');
        assert.deepEqual(await gated.done(ann), before);
      });

      it('takes the account password in the body; a wrong one answers 403 and counts toward the lockout', async () => {
        const { access_token } = await signIn(t, ann);
        t.clock.advance(WINDOW + 1);
        const before = await gated.done(ann);
        assertError(await gated.send(access_token, { password: 'not the password' }), 403, 'REAUTHENTICATION_REQUIRED');
        assert.deepEqual(await gated.done(ann), before);
        assert.equal(await failures(ann.id), 1);
        expectStatus(await gated.send(access_token, { password: ann.password! }), gated.ok);
        assert.notDeepEqual(await gated.done(ann), before);
      });
    });
  }

  it('counts the window in seconds from the sign-in: at SVC_REAUTH_MAX_AGE it is still recent, one second later it is not', async () => {
    const { access_token } = await signIn(t, ann);
    t.clock.advance(WINDOW);
    expectStatus(await GATED[0]!.send(access_token, {}), 201);
    t.clock.advance(1);
    assertError(await GATED[0]!.send(access_token, {}), 403, 'REAUTHENTICATION_REQUIRED');
    const failed = await auditEvents(t, 'reauthentication_failed');
    assert.equal(failed.length, 0, 'a request without a proof is no failed check');
  });

  it('with 2FA on: the password alone is refused without being checked; a wrong code counts; password and code pass', async () => {
    const totp = await enableTotp(t, ann);
    t.clock.advance(30);
    const { access_token } = (await t.api({ method: 'POST', path: 'login/email/',
      payload: { email: ann.email, password: ann.password!, totp_code: totp.code() } })).json();
    t.clock.advance(WINDOW + 30);
    const create = (proof: Proof) => GATED[0]!.send(access_token, proof);

    assertError(await create({ password: ann.password! }), 403, 'REAUTHENTICATION_REQUIRED');
    assertError(await create({ password: 'not the password' }), 403, 'REAUTHENTICATION_REQUIRED');
    assert.equal(await failures(ann.id), 0, 'without a code the password is not even checked');

    assertError(await create({ password: ann.password!, totp_code: '000000' }), 403, 'REAUTHENTICATION_REQUIRED');
    assert.equal(await failures(ann.id), 1);
    // A wrong password is checked first: the backup code sent with it stays unspent.
    assertError(await create({ password: 'not the password', totp_code: totp.backupCodes[0]! }), 403, 'REAUTHENTICATION_REQUIRED');
    assert.equal(await failures(ann.id), 2);
    assert.deepEqual((await auditEvents(t, 'reauthentication_failed')).map((e) => (e.details as { reason: string }).reason),
      ['invalid_2fa_code', 'invalid_password']);
    assert.equal(await count('agent_tokens', ann.id), 0);

    expectStatus(await create({ password: ann.password!, totp_code: totp.code() }), 201);
    expectStatus(await create({ password: ann.password!, totp_code: totp.backupCodes[0]! }), 201);
  });

  it('a locked account answers 423, even to the right password; the failures that lock it are counted atomically', async () => {
    const { access_token } = await signIn(t, ann);
    t.clock.advance(WINDOW + 1);
    const statuses = await Promise.all(Array.from({ length: 3 }, () => GATED[0]!.send(access_token, { password: 'not the password' })));
    assert.deepEqual(statuses.map((r) => r.statusCode).sort(), [403, 403, 423]);
    const locked = await GATED[0]!.send(access_token, { password: ann.password! });
    assert.equal(locked.statusCode, 423, locked.body);
    assert.equal(locked.json().code, 'ACCOUNT_LOCKED');
    assert.equal(await count('agent_tokens', ann.id), 0);
  });

  it('a passwordless account satisfies it only by signing in again', async () => {
    const phoneOnly = await createUser(t, { email: null, phone: '+33611111111', password: null });
    const session = await openSession(t, phoneOnly.id);
    expectStatus(await GATED[0]!.send(session.access_token, {}), 201);
    t.clock.advance(WINDOW + 1);
    assertError(await GATED[0]!.send(session.access_token, { password: 'anything at all' }), 403, 'REAUTHENTICATION_REQUIRED');
    expectStatus(await GATED[0]!.send((await openSession(t, phoneOnly.id)).access_token, {}), 201);
  });

  describe('PATCH me/', () => {
    it('edits without a proof what does not change the phone: other fields, the same number spelt another way', async () => {
      const { access_token } = await signIn(t, ann);
      t.clock.advance(WINDOW + 1);
      const res = expectStatus(await t.api({ method: 'PATCH', path: 'me/', token: access_token,
        payload: { first_name: 'Annie', phone: '+33 6 12 34 56 78' } }), 200);
      assert.deepEqual(res.updated_fields, ['first_name']);
    });

    it('refuses removing the phone or setting a malformed one without a proof, and never stores the proof', async () => {
      const { access_token } = await signIn(t, ann);
      t.clock.advance(WINDOW + 1);
      for (const phone of [null, '', 'not a number']) {
        assertError(await t.api({ method: 'PATCH', path: 'me/', token: access_token, payload: { phone } }), 403, 'REAUTHENTICATION_REQUIRED');
      }
      assert.equal((await userRow(t, ann.id)).phone, '+33612345678');
      const res = expectStatus(await t.api({ method: 'PATCH', path: 'me/', token: access_token,
        payload: { phone: null, password: ann.password! } }), 200);
      assert.deepEqual(res.updated_fields, ['phone']);
      assert.equal((await userRow(t, ann.id)).phone, null);
    });

    it('takes the proof as a text part of a multipart body (the SDK\'s avatar upload)', async () => {
      const { access_token } = await signIn(t, ann);
      t.clock.advance(WINDOW + 1);
      const boundary = `----form${randomBytes(8).toString('hex')}`;
      const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const form = (fields: Record<string, string>) => ({ method: 'PATCH' as const, path: 'me/', token: access_token,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `${Object.entries(fields).map(([k, v]) => part(k, v)).join('')}--${boundary}--\r\n` });
      assertError(await t.api(form({ phone: NEW_PHONE })), 403, 'REAUTHENTICATION_REQUIRED');
      expectStatus(await t.api(form({ phone: NEW_PHONE, password: ann.password! })), 200);
      assert.equal((await userRow(t, ann.id)).phone, NEW_PHONE);
    });
  });

  it('passkeys: a stale token cannot begin, and a completion without a challenge of a gated begin adds nothing', async () => {
    const { access_token } = await signIn(t, ann);
    t.clock.advance(WINDOW + 1);
    assertError(await GATED[1]!.send(access_token, {}), 403, 'REAUTHENTICATION_REQUIRED');
    // The attacker makes up the creation options the begin would have answered.
    const forged = { rp: { name: 'Gatehouse', id: 'example.com' }, user: { id: randomBytes(32).toString('base64url'), name: ann.email!,
      displayName: ann.email! }, challenge: randomBytes(32).toString('base64url'), pubKeyCredParams: [{ alg: -7, type: 'public-key' as const }] };
    const credential = authenticator().create(forged);
    assertError(await registerComplete(t, access_token, { credential }), 400, 'INVALID_CREDENTIAL');
    assert.equal((await t.container.db.selectFrom('webauthn_credentials').select('id').execute()).length, 0);
    assert.equal((await mails(ann.email!, 'passkey_added')).length, 0);
  });

  describe('notices', () => {
    it('adding a passkey emails the account, without any secret', async () => {
      const { access_token } = await signIn(t, ann);
      const options = await registerBegin(t, access_token);
      const credential = authenticator().create(options.publicKey);
      expectStatus(await registerComplete(t, access_token, { credential, device_name: 'Work laptop' }), 201);
      const [mail, ...rest] = await mails(ann.email!, 'passkey_added');
      assert.ok(mail, 'a passkey_added email');
      assert.equal(rest.length, 0);
      assert.match(mail.subject, /passkey was added/);
      assert.match(mail.text, /2026-03-02 10:00 UTC/);
      for (const secret of [options.challenge, credential.id, access_token]) assert.ok(!mail.text.includes(secret) && !mail.html.includes(secret));
    });

    it('disabling 2FA emails the account', async () => {
      const totp = await enableTotp(t, ann);
      const { access_token } = await openSession(t, ann.id);
      expectStatus(await t.api({ method: 'POST', path: '2fa/disable/', token: access_token,
        payload: { code: totp.backupCodes[0], password: ann.password! } }), 200);
      const [mail] = await mails(ann.email!, 'two_factor_disabled');
      assert.ok(mail, 'a two_factor_disabled email');
      assert.match(mail.subject, /Two-factor authentication was disabled/);
      assert.ok(!mail.text.includes(totp.backupCodes[0]!));
    });

    it('creating an agent token emails its agent, permissions and expiry, never the token', async () => {
      await grantDirect(t, ann.id, ['users.view', 'roles.view']);
      const { access_token } = await signIn(t, ann);
      const created = expectStatus(await t.api({ method: 'POST', path: 'ai/tokens/', token: access_token,
        payload: { agent_id: 'ops-assistant', permissions: ['users.view', 'roles.view'], expires_in: 7200 } }), 201);
      const [mail] = await mails(ann.email!, 'agent_token_created');
      assert.ok(mail, 'an agent_token_created email');
      assert.match(mail.text, /"ops-assistant"/);
      assert.match(mail.text, /Permissions granted: roles\.view, users\.view\./);
      assert.match(mail.text, /expires on 2026-03-02 12:00 UTC/);
      assert.ok(!mail.text.includes(created.token) && !mail.html.includes(created.token) && !mail.text.includes('gha_'));
    });

    it('an agent name reaches the email as one plain line of at most 80 characters', async () => {
      const { access_token } = await signIn(t, ann);
      const name = `bot\r\nIgnore this message, it was you.\u202e${'x'.repeat(60)}`;
      expectStatus(await t.api({ method: 'POST', path: 'ai/tokens/', token: access_token, payload: { agent_id: name } }), 201);
      const [mail] = await mails(ann.email!, 'agent_token_created');
      const agent = /agent "([^"]*)"/.exec(mail!.text)?.[1];
      assert.ok(agent !== undefined);
      assert.ok(agent.length <= 80 && !/[\r\n\u202e]/.test(agent), agent);
      assert.match(mail!.text, /Permissions granted: none\./);
    });

    it('an account without an email gets the notice by SMS', async () => {
      const phoneOnly = await createUser(t, { email: null, phone: '+33611111111', password: null });
      expectStatus(await GATED[0]!.send((await openSession(t, phoneOnly.id)).access_token, {}), 201);
      await t.container.services.outbox.flush();
      const sms = t.container.inbox.sms.filter((m) => m.to === '+33611111111' && m.purpose === 'agent_token_created');
      assert.equal(sms.length, 1);
      assert.match(sms[0]!.body, /assistant/);
    });
  });
});
