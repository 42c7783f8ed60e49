import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createUser, userRow } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import {
  clearInbox, lastMagicToken, loginCodeFor, MAGIC_LINK_ON, OTP_LOGIN_ON, phoneParts, requestMagicLink, verifyLoginCode,
  verifyMagicLink,
} from './helpers.js';

const PHONE = '+33612345678';
const EMAIL = 'victim@example.com';
const ATTACKER_EMAIL = 'intruder@example.net';
const ATTACKER_PASSWORD = 'mallory keeps a key';
const VICTIM_PASSWORD = 'violet submarine orchestra';
const REDIRECT_URI = 'http://localhost:3000/callback'; // the test application's redirect_uris

type Tokens = { access_token: string; refresh_token: string };

/**
 * docs/security.md "Pre-registration hijacking": someone registers another person's phone or email with a password of
 * their own; the first passwordless sign-in that proves that address removes the password and every earlier session
 * and access token, and tells the address.
 */
describe('pre-registration hijacking', () => {
  const t = useTestApp({ env: { ...OTP_LOGIN_ON, ...MAGIC_LINK_ON, SVC_AUDIT_LOGGING_ENABLED: 'false' } });
  beforeEach(async () => {
    clearInbox(t);
  });

  const ok = <T>(res: LightMyRequestResponse, status = 200): T => {
    assert.equal(res.statusCode, status, res.body);
    return res.json() as T;
  };
  const me = (token: string) => t.api({ method: 'GET', path: 'me/', token });
  const refresh = (token: string) => t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: token } });
  const phoneLogin = (phone: string, password: string) =>
    t.api({ method: 'POST', path: 'login/phone/', payload: { ...phoneParts(phone), password } });
  const emailLogin = (email: string, password: string) =>
    t.api({ method: 'POST', path: 'login/email/', payload: { email, password } });

  /** The attacker's registration, signed in at once: their first session. */
  async function attackerRegisters(contact: Record<string, string>) {
    const body = ok<Tokens & { user: { id: string } }>(await t.api({ method: 'POST', path: 'register/',
      payload: { ...contact, password: ATTACKER_PASSWORD, login: true } }), 201);
    return { id: Number(body.user.id), tokens: body as Tokens };
  }

  async function victimSignsInByCode(phone = PHONE) {
    return ok<Tokens & { user: { has_usable_password: boolean; is_phone_verified: boolean } }>(
      await verifyLoginCode(t, phone, await loginCodeFor(t, phone)));
  }

  async function victimSignsInByLink(email = EMAIL) {
    ok(await requestMagicLink(t, { email, validation_url: REDIRECT_URI }));
    return ok<Tokens & { user: { is_email_verified: boolean } }>(await verifyMagicLink(t, { token: await lastMagicToken(t, email) }));
  }

  const noticesTo = async (to: string) => {
    await t.container.services.outbox.flush();
    return [...t.container.inbox.sms.filter((m) => m.to === to).map((m) => ({ purpose: m.purpose, text: m.body })),
      ...t.container.inbox.emails.filter((m) => m.to === to).map((m) => ({ purpose: m.purpose, text: m.text }))]
      .filter((m) => m.purpose === 'password_revoked');
  };
  const revocations = (userId: number) => t.container.db.selectFrom('audit_events').select(['severity', 'details'])
    .where('event_type', '=', 'password_revoked').where('user_id', '=', userId).execute();
  const openSessions = (userId: number) => t.container.db.selectFrom('sessions').select('id')
    .where('user_id', '=', userId).where('revoked_at', 'is', null).execute();

  /** Everything the attacker held is refused, and the password they chose fails like any wrong one. */
  async function assertAttackerLocked(held: Tokens[], passwordLogin: () => Promise<LightMyRequestResponse>,
    unknownLogin: () => Promise<LightMyRequestResponse>) {
    for (const tokens of held) {
      assertError(await me(tokens.access_token), 401, 'TOKEN_BLACKLISTED');
      assertError(await refresh(tokens.refresh_token), 401, 'REFRESH_FAILED');
    }
    const refused = await passwordLogin();
    assertError(refused, 401, 'LOGIN_FAILED');
    assert.deepEqual(refused.json(), (await unknownLogin()).json(), 'the same answer as for an unknown account');
  }

  describe('a phone registered by someone else, then a login code', () => {
    it('removes the password, ends the attacker\'s sessions and tokens, and texts the phone', async () => {
      const attacker = await attackerRegisters(phoneParts(PHONE));
      const second = ok<Tokens>(await phoneLogin(PHONE, ATTACKER_PASSWORD));
      // An agent token the attacker delegated to themselves goes with the password (docs/agents.md).
      const delegated = ok<{ token: string }>(await t.api({ method: 'POST', path: 'ai/tokens/', token: second.access_token,
        payload: { agent_id: 'foothold' } }), 201);
      const asAgent = () => t.api({ method: 'GET', path: 'me/', headers: { authorization: `AgentBearer ${delegated.token}` } });
      ok(await asAgent());
      // Earlier access tokens are refused from the next whole second on (tokens_valid_after is kept in seconds).
      t.clock.advance(1);

      const victim = await victimSignsInByCode();
      assert.equal(victim.user.has_usable_password, false);
      assert.equal(victim.user.is_phone_verified, true);

      await assertAttackerLocked([attacker.tokens, second], () => phoneLogin(PHONE, ATTACKER_PASSWORD),
        () => phoneLogin('+33600000000', ATTACKER_PASSWORD));
      assertError(await asAgent(), 401, 'AGENT_TOKEN_REVOKED');
      assert.equal(ok<{ id: number }>(await me(victim.access_token)).id, attacker.id, 'the new session works');
      assert.equal((await openSessions(attacker.id)).length, 1);
      ok(await refresh(victim.refresh_token));

      const row = await userRow(t, attacker.id);
      assert.equal(row.password_hash, null);
      assert.equal(row.has_usable_password, false);
      assert.equal(row.is_phone_verified, true);
      const history = await t.container.db.selectFrom('password_history').select('id').where('user_id', '=', attacker.id).execute();
      assert.equal(history.length, 0, 'the removed password is not the person\'s own history');

      const [notice, ...more] = await noticesTo(PHONE);
      assert.equal(more.length, 0);
      assert.match(notice!.text, /password\/set-initial\//);
      assert.doesNotMatch(notice!.text, /\d{6}/, 'no code in the notice');
      assert.deepEqual(await revocations(attacker.id), [{ severity: 'warning', details: {
        reason: 'unverified_identifier_proven', identifier: 'phone', method: 'otp', sessions_revoked: 2,
      } }]);
    });

    it('lets the person set a password of their own afterwards with password/set-initial/', async () => {
      await attackerRegisters(phoneParts(PHONE));
      t.clock.advance(1);
      const victim = await victimSignsInByCode();
      assertError(await t.api({ method: 'POST', path: 'password/change/', token: victim.access_token,
        payload: { current_password: ATTACKER_PASSWORD, new_password: VICTIM_PASSWORD } }), 400, 'PASSWORDLESS_ACCOUNT_USE_SET_INITIAL_PASSWORD');
      ok(await t.api({ method: 'POST', path: 'password/set-initial/', token: victim.access_token,
        payload: { otp_code: await loginCodeFor(t, PHONE), new_password: VICTIM_PASSWORD } }));
      ok(await phoneLogin(PHONE, VICTIM_PASSWORD));
      assertError(await phoneLogin(PHONE, ATTACKER_PASSWORD), 401, 'LOGIN_FAILED');
    });

    it('tells the phone just proven, not an unverified email the account also has', async () => {
      await attackerRegisters({ ...phoneParts(PHONE), email: ATTACKER_EMAIL });
      t.clock.advance(1);
      await victimSignsInByCode();
      assert.equal((await noticesTo(PHONE)).length, 1);
      assert.equal((await noticesTo(ATTACKER_EMAIL)).length, 0);
    });
  });

  describe('an email registered by someone else, then a magic link', () => {
    it('removes the password, ends the attacker\'s sessions and tokens, and emails the address', async () => {
      const attacker = await attackerRegisters({ email: EMAIL });
      const second = ok<Tokens>(await emailLogin(EMAIL, ATTACKER_PASSWORD));
      t.clock.advance(1);

      const victim = await victimSignsInByLink();
      assert.equal(victim.user.is_email_verified, true);

      await assertAttackerLocked([attacker.tokens, second], () => emailLogin(EMAIL, ATTACKER_PASSWORD),
        () => emailLogin('nobody@example.com', ATTACKER_PASSWORD));
      ok(await me(victim.access_token));
      ok(await refresh(victim.refresh_token));
      const row = await userRow(t, attacker.id);
      assert.equal(row.password_hash, null);
      assert.equal(row.has_usable_password, false);
      assert.equal(row.is_email_verified, true);

      const [notice, ...more] = await noticesTo(EMAIL);
      assert.equal(more.length, 0);
      assert.match(notice!.text, /password reset/);
      assert.doesNotMatch(notice!.text, /https?:\/\//, 'no link in the notice');
      assert.deepEqual(await revocations(attacker.id), [{ severity: 'warning', details: {
        reason: 'unverified_identifier_proven', identifier: 'email', method: 'magic_link', sessions_revoked: 2,
      } }]);
    });
  });

  it('does it once: a second passwordless sign-in changes nothing more', async () => {
    const attacker = await attackerRegisters(phoneParts(PHONE));
    t.clock.advance(1);
    const first = await victimSignsInByCode();
    t.clock.advance(1);
    const second = await victimSignsInByCode();
    assert.equal(second.user.has_usable_password, false);
    ok(await me(first.access_token));
    ok(await me(second.access_token));
    assert.equal((await openSessions(attacker.id)).length, 2);
    assert.equal((await noticesTo(PHONE)).length, 1);
    assert.equal((await revocations(attacker.id)).length, 1);
  });

  it('leaves a password alone once the phone was verified, by login code or by otp/verify/phone/', async () => {
    const verified = await createUser(t, { phone: PHONE, verified: true });
    const held = ok<Tokens>(await phoneLogin(PHONE, verified.password!));
    t.clock.advance(1);
    const res = await victimSignsInByCode();
    assert.equal(res.user.has_usable_password, true);
    ok(await me(held.access_token));
    ok(await phoneLogin(PHONE, verified.password!));

    // A signed-in person who verifies their own phone already holds the password: no sign-in, nothing removed.
    const other = '+33698765432';
    const owner = await createUser(t, { phone: other });
    const session = ok<Tokens>(await phoneLogin(other, owner.password!));
    ok(await t.api({ method: 'POST', path: 'otp/request/', token: session.access_token, payload: { otp_type: 'phone' } }));
    const code = (await (async () => {
      await t.container.services.outbox.flush();
      return t.container.inbox.sms.filter((m) => m.to === other).at(-1)!.body;
    })()).match(/\d{6}/)![0];
    ok(await t.api({ method: 'POST', path: 'otp/verify/phone/', token: session.access_token, payload: { code } }));
    t.clock.advance(1);
    await victimSignsInByCode(other);
    ok(await phoneLogin(other, owner.password!));
    ok(await me(session.access_token));
    assert.equal((await noticesTo(PHONE)).length + (await noticesTo(other)).length, 0);
  });

  it('only marks the phone verified on an account without a password', async () => {
    const user = await createUser(t, { email: null, phone: PHONE, password: null });
    const first = await victimSignsInByCode();
    t.clock.advance(1);
    await victimSignsInByCode();
    ok(await me(first.access_token));
    assert.equal((await userRow(t, user.id)).is_phone_verified, true);
    assert.equal((await noticesTo(PHONE)).length, 0);
    assert.equal((await revocations(user.id)).length, 0);
  });

  it('removes the password once when the phone and the email are proven at the same time', async () => {
    const attacker = await attackerRegisters({ ...phoneParts(PHONE), email: EMAIL });
    t.clock.advance(1);
    const code = await loginCodeFor(t, PHONE);
    ok(await requestMagicLink(t, { email: EMAIL, validation_url: REDIRECT_URI }));
    const token = await lastMagicToken(t, EMAIL);
    const [byCode, byLink] = await Promise.all([verifyLoginCode(t, PHONE, code), verifyMagicLink(t, { token })]);
    const sessions = [ok<Tokens>(byCode), ok<Tokens>(byLink)];
    assertError(await me(attacker.tokens.access_token), 401, 'TOKEN_BLACKLISTED');
    for (const s of sessions) ok(await me(s.access_token));
    assert.equal((await revocations(attacker.id)).length, 1);
    assert.equal((await noticesTo(PHONE)).length + (await noticesTo(EMAIL)).length, 1);
    const row = await userRow(t, attacker.id);
    assert.deepEqual([row.is_phone_verified, row.is_email_verified, row.has_usable_password], [true, true, false]);
  });
});
