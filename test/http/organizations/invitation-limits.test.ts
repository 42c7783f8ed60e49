import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { useTestApp } from '../../helpers/test-app.js';
import { signIn } from '../../factories/sessions.js';
import { clearInbox } from '../otp/helpers.js';
import { agentApi, AGENT_ENV, delegate } from '../agents/helpers.js';
import { account, accounts, createOrg, expectStatus, join, ORG_ENV, orgApi, verifyEmails, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const HOUR = 3_600;

/**
 * docs/organizations.md "Who may invite, and how often": Gatehouse sends invitations from its own address, so
 * only an account with a verified address invites, at most 20 an hour per inviter and 200 a day per organization,
 * and what users wrote reaches the email on one line, cut to 80 characters.
 */
describe('invitation limits, seen from an inviter who would send spam', () => {
  const t = useTestApp({ now: NOW, env: { ...ORG_ENV, ...AGENT_ENV } });
  const api = orgApi(t);
  let ann: Account;
  beforeEach(async () => {
    clearInbox(t);
    [ann] = await accounts(t, 'ann');
    await createOrg(t, ann, 'acme');
  });

  const invite = (email: string, who: Account = ann, slug = 'acme') =>
    api('POST', 'organizations/invitations/', who, { slug, payload: { email } });
  const invitationCount = async () =>
    Number((await t.container.db.selectFrom('organization_invitations').select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()).n);
  const sentEmails = async () => {
    await t.container.services.outbox.flush();
    return t.container.inbox.emails.filter((m) => m.purpose === 'invitation');
  };
  const statuses = (answers: LightMyRequestResponse[]) => answers.map((r) => r.statusCode);
  const expectThrottled = (res: LightMyRequestResponse, retryAfter: number) => {
    assert.deepEqual(expectStatus(res, 429), { error: 'Too many requests, try again later', code: 'RATE_LIMITED', retry_after: retryAfter });
    assert.equal(res.headers['retry-after'], String(retryAfter));
  };
  /** The account with a fresh access token (after the clock moved past the old one's lifetime). */
  const again = async (who: Account): Promise<Account> => ({ ...who, token: (await signIn(t, who)).access_token });

  describe('an account whose email is not verified', () => {
    it('answers 403 EMAIL_NOT_VERIFIED on both invitation routes: no invitation, no email, no audit event', async () => {
      const refused = await invite('victim@example.com');
      assert.deepEqual(expectStatus(refused, 403),
        { error: 'Verify your email address before inviting anyone', code: 'EMAIL_NOT_VERIFIED' });
      const inPath = await t.api({ method: 'POST', path: 'organizations/acme/invitations/', token: ann.token,
        payload: { email: 'victim@example.com' } });
      assert.equal(expectStatus(inPath, 403).code, 'EMAIL_NOT_VERIFIED');
      assert.equal(await invitationCount(), 0);
      assert.deepEqual(await sentEmails(), []);
      const events = await t.container.db.selectFrom('audit_events').select('id')
        .where('event_type', '=', 'organization_invitation_created').execute();
      assert.equal(events.length, 0);
      await verifyEmails(t, ann);
      expectStatus(await invite('victim@example.com'), 201);
    });

    it('refuses an agent acting for that account too', async () => {
      const { token } = await delegate(t, ann, { organization: 'acme', permissions: ['org.members.invite', 'org.view'] });
      const res = await agentApi(t)('POST', 'organizations/invitations/', token, { email: 'victim@example.com' }, { 'x-org-slug': 'acme' });
      assert.equal(expectStatus(res, 403).code, 'EMAIL_NOT_VERIFIED');
      assert.equal(await invitationCount(), 0);
    });
  });

  describe('20 an hour per inviter', () => {
    beforeEach(async () => { await verifyEmails(t, ann); });

    it('answers the 21st 429 RATE_LIMITED with retry_after and Retry-After; re-invitations count; an hour on, it works again', async () => {
      expectStatus(await invite('first@example.com'), 201);
      t.clock.advance(600);
      // A re-invitation expires the older pending one, and still counts.
      for (let i = 0; i < 9; i++) expectStatus(await invite('same@example.com'), 201);
      for (let i = 0; i < 10; i++) expectStatus(await invite(`guest${i}@example.com`), 201);
      expectThrottled(await invite('one-more@example.com'), HOUR - 600);
      expectThrottled(await invite('same@example.com'), HOUR - 600);
      assert.equal(await invitationCount(), 20);
      assert.equal((await sentEmails()).length, 20);

      t.clock.advance(HOUR - 600 - 1);
      ann = await again(ann);
      expectThrottled(await invite('one-more@example.com'), 1);
      t.clock.advance(1);
      // The first invitation left the window: room for exactly one.
      expectStatus(await invite('one-more@example.com'), 201);
      expectThrottled(await invite('two-more@example.com'), 600);
    });

    it('counts across organizations, and deleting an organization gives nothing back', async () => {
      for (let i = 0; i < 20; i++) expectStatus(await invite(`guest${i}@example.com`), 201);
      await createOrg(t, ann, 'beta');
      expectThrottled(await invite('other@example.com', ann, 'beta'), HOUR);
      expectStatus(await api('DELETE', 'organizations/delete/', ann, { slug: 'acme' }), 200);
      assert.equal(await invitationCount(), 0);
      expectThrottled(await invite('other@example.com', ann, 'beta'), HOUR);
    });

    it('of 25 parallel invitations, into two organizations, creates exactly 20 and sends exactly 20 emails', async () => {
      await createOrg(t, ann, 'beta');
      const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => invite(`guest${i}@example.com`, ann, i % 2 ? 'acme' : 'beta')));
      assert.deepEqual(statuses(answers).sort(), [...Array(20).fill(201), ...Array(5).fill(429)]);
      assert.equal(await invitationCount(), 20);
      assert.equal((await sentEmails()).length, 20);
    });

    it('counts an agent\'s invitations against the person it acts for', async () => {
      const { token } = await delegate(t, ann, { organization: 'acme', permissions: ['org.members.invite', 'org.view'] });
      const byAgent = (email: string) =>
        agentApi(t)('POST', 'organizations/invitations/', token, { email }, { 'x-org-slug': 'acme' });
      for (let i = 0; i < 10; i++) expectStatus(await byAgent(`agent${i}@example.com`), 201);
      for (let i = 0; i < 10; i++) expectStatus(await invite(`person${i}@example.com`), 201);
      expectThrottled(await byAgent('one-more@example.com'), HOUR);
      expectThrottled(await invite('one-more@example.com'), HOUR);
    });
  });

  it('allows 200 a day per organization, whoever invites: the 201st answers 429 until a day has passed', async () => {
    const inviters = await Promise.all(Array.from({ length: 11 }, (_, i) => account(t, { email: `inviter${i}@example.com` })));
    await verifyEmails(t, ...inviters);
    for (const inviter of inviters) await join(t, 'acme', inviter, 'admin');
    for (const [n, inviter] of inviters.slice(0, 10).entries()) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => invite(`guest${n}-${i}@example.com`, inviter)));
      assert.deepEqual([...new Set(statuses(answers))], [201]);
      t.clock.advance(60);
    }
    const last = inviters[10]!;
    expectThrottled(await invite('one-more@example.com', last), 86_400 - 600);
    assert.equal(await invitationCount(), 200);
    // The same inviter is still free to invite elsewhere.
    await createOrg(t, last, 'beta');
    expectStatus(await invite('one-more@example.com', last, 'beta'), 201);
    t.clock.advance(86_400 - 600);
    expectStatus(await invite('one-more@example.com', await again(last)), 201);
  });

  describe('the email', () => {
    it('names the inviter\'s address, and shows what users wrote on one line, without control characters, cut to 80 characters', async () => {
      await verifyEmails(t, ann);
      const orgName = `Acme\r\nBcc: everyone@example.com\u2028\u202Egro.live${'x'.repeat(200)}`.slice(0, 200);
      expectStatus(await api('PATCH', 'organizations/update/', ann, { slug: 'acme', payload: { name: orgName } }), 200);
      const firstName = `Ann\r\n\r\nYour account is suspended, call +1 555 0100\u0007${'y'.repeat(150)}`.slice(0, 150);
      expectStatus(await api('PATCH', 'me/', ann, { payload: { first_name: firstName, last_name: 'Smith\u202E' } }), 200);

      expectStatus(await invite('carol@example.com'), 201);
      const [mail, ...more] = await sentEmails();
      assert.equal(more.length, 0);
      const shownOrg = `Acme Bcc: everyone@example.com gro.live${'x'.repeat(80)}`.slice(0, 80);
      const shownInviter = `Ann Your account is suspended, call +1 555 0100${'y'.repeat(80)}`.slice(0, 80);
      assert.equal(mail?.subject, `You are invited to join ${shownOrg}`);
      const lines = mail!.text.split('\n');
      assert.equal(lines[0], `${shownInviter} (ann@example.com) invited you to join ${shownOrg} as Member.`);
      assert.equal(lines.length, 5, mail!.text);
      assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(mail!.text + mail!.subject + mail!.html),
        'a control character reached the email');
      assert.ok(mail!.html.includes(`<p>${shownInviter} (ann@example.com) invited you to join ${shownOrg} as Member.</p>`), mail!.html);
    });

    it('names the address alone when the inviter has no name', async () => {
      await verifyEmails(t, ann);
      expectStatus(await api('PATCH', 'me/', ann, { payload: { first_name: '', last_name: '' } }), 200);
      expectStatus(await invite('carol@example.com'), 201);
      const [mail] = await sentEmails();
      assert.ok(mail?.text.startsWith('ann@example.com invited you to join ACME as Member.'), mail?.text);
    });
  });
});
