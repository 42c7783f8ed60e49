import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { sha256Hex } from '../../../src/security/random.js';
import { clearInbox, lastEmailCode } from '../otp/helpers.js';
import { accounts, auditEvents, createOrg, expectStatus, join, ORG_ENV, orgApi, verifyEmails, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const DAY = 86_400;

describe('organization invitations', () => {
  const t = useTestApp({ now: NOW, env: ORG_ENV });
  const api = orgApi(t);
  let ann: Account;
  let bob: Account;
  let carol: Account;
  let eve: Account;
  beforeEach(async () => {
    clearInbox(t);
    [ann, bob, carol, eve] = await accounts(t, 'ann', 'bob', 'carol', 'eve');
    await verifyEmails(t, ann, eve); // the inviters (carol and bob are invitees, unverified until a test verifies them)
    await createOrg(t, ann, 'acme');
  });

  const invite = async (payload: object, who: Account = ann, slug = 'acme') =>
    api('POST', 'organizations/invitations/', who, { slug, payload });
  const invited = async (payload: object, who: Account = ann, slug = 'acme') => expectStatus(await invite(payload, who, slug), 201);
  const accept = (token: string, who: Account) => api('POST', 'organizations/invitations/accept/', who, { payload: { token } });
  const decline = (token: string, who: Account) => api('POST', 'organizations/invitations/decline/', who, { payload: { token } });
  const list = async (query = '', who: Account = ann, slug = 'acme') =>
    expectStatus(await api('GET', `organizations/invitations/${query}`, who, { slug }), 200);
  const codeOf = (res: { json(): { code?: string } }) => res.json().code;
  const verifyEmail = (who: Account, app = t) =>
    app.container.db.updateTable('users').set({ is_email_verified: true }).where('id', '=', who.id).execute();
  const memberRole = async (slug: string, who: Account, app = t) => (await app.container.db.selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id').innerJoin('org_roles as r', 'r.id', 'm.org_role_id')
    .select('r.code').where('o.slug', '=', slug).where('m.user_id', '=', who.id).executeTakeFirst())?.code;
  const statusOf = async (id: number) => (await t.container.db.selectFrom('organization_invitations').select('status')
    .where('id', '=', id).executeTakeFirstOrThrow()).status;
  /** The account with a fresh access token (after the clock moved past the old one's lifetime). */
  const again = async (who: Account): Promise<Account> => ({ ...who, token: (await signIn(t, who)).access_token });
  const emailsTo = async (to: string, app = t) => {
    await app.container.services.outbox.flush();
    return app.container.inbox.emails.filter((m) => m.to === to);
  };

  describe('POST organizations/invitations/', () => {
    it('answers 201 Organization invitation with the token shown once; only its SHA-256 is stored', async () => {
      const body = await invited({ email: ' Carol@Example.com ', role_code: 'admin' });
      const acme = await t.container.db.selectFrom('organizations').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
      assert.deepEqual(body, {
        id: body.id, email: 'carol@example.com', role: 'admin', role_display: body.role_display, token: body.token,
        expires_at: new Date(NOW.getTime() + 7 * DAY * 1000).toISOString(),
        invited_by: { id: ann.id, email: 'ann@example.com', first_name: 'ann', last_name: '' },
        organization: { id: acme.id, name: 'ACME', slug: 'acme' }, status: 'pending', created_at: NOW.toISOString(),
      });
      assert.match(body.token, /^[A-Za-z0-9_-]{43}$/);
      const row = await t.container.db.selectFrom('organization_invitations').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
      assert.equal(row.token_hash, sha256Hex(body.token));
      assert.ok(!JSON.stringify(row).includes(body.token));
      const listed = await list();
      assert.equal(listed.results[0].token, null);
      const [event] = await auditEvents(t, 'organization_invitation_created');
      assert.equal(event?.actor_id, ann.id);
      assert.equal(event?.user_id, carol.id);
      assert.deepEqual({ ...(event?.details as object), expires_at: undefined, replaced: undefined },
        { organization_id: acme.id, invitation_id: body.id, email: 'carol@example.com', role: 'admin', expires_at: undefined, replaced: undefined });
      assert.ok(!JSON.stringify(event).includes(body.token));
    });

    it('emails the token and how to accept, in the invitee account\'s language, else in English', async () => {
      await t.container.db.updateTable('users').set({ language: 'fr', first_name: 'Carole' }).where('id', '=', carol.id).execute();
      await t.container.db.updateTable('users').set({ first_name: 'Ann', last_name: 'Smith' }).where('id', '=', ann.id).execute();
      const french = await invited({ email: carol.email });
      const english = await invited({ email: 'dave@example.com', role_code: 'admin', expires_in_days: 3 });
      const [toCarol] = await emailsTo(carol.email!);
      assert.equal(toCarol?.subject, 'Vous êtes invité à rejoindre ACME');
      assert.ok(toCarol?.text.includes(`Votre jeton d'invitation : ${french.token}`), toCarol?.text);
      assert.ok(toCarol?.text.includes('Ann Smith (ann@example.com) vous invite à rejoindre ACME'), toCarol?.text);
      const [toDave, ...more] = await emailsTo('dave@example.com');
      assert.equal(more.length, 0);
      assert.equal(toDave?.subject, 'You are invited to join ACME');
      assert.ok(toDave?.text.includes(`Your invitation token: ${english.token}`), toDave?.text);
      assert.ok(toDave?.text.includes('organizations/invitations/accept/'), toDave?.text);
      assert.ok(toDave?.text.includes('as Admin') && toDave.text.includes('It expires in 3 days'), toDave?.text);
    });

    it('links to SVC_ORG_INVITATION_URL?token=… when that setting is set', async () => {
      const linked = await createTestApp({ now: NOW, env: { ...ORG_ENV, SVC_ORG_INVITATION_URL: 'https://app.example.com/join' } });
      try {
        await linked.reset();
        const [owner] = await accounts(linked, 'owner');
        await verifyEmails(linked, owner);
        await createOrg(linked, owner, 'linked');
        const body = expectStatus(await orgApi(linked)('POST', 'organizations/invitations/', owner,
          { slug: 'linked', payload: { email: 'zoe@example.com' } }), 201);
        const [mail] = await emailsTo('zoe@example.com', linked);
        assert.ok(mail?.text.includes(`https://app.example.com/join?token=${body.token}`), mail?.text);
        assert.ok(mail?.html.includes(`href="https://app.example.com/join?token=${body.token}"`), mail?.html);
        assert.ok(!mail?.text.includes('Your invitation token'), mail?.text);
      } finally {
        await linked.close();
      }
    });

    it('re-inviting an address expires its older pending invitation to the organization', async () => {
      const first = await invited({ email: carol.email });
      const second = await invited({ email: carol.email, role_code: 'admin' });
      assert.equal(await statusOf(first.id), 'expired');
      assert.deepEqual((await list('?status=pending')).results.map((r: { id: number }) => r.id), [second.id]);
      assert.deepEqual((await list('?status=expired')).results.map((r: { id: number }) => r.id), [first.id]);
      await verifyEmail(carol);
      assert.equal(codeOf(await accept(first.token, carol)), 'INVALID_INVITATION');
      assert.equal(expectStatus(await accept(second.token, carol), 200).role, 'admin');
    });

    it('refuses owner (400 INVALID_ROLE_FOR_OWNER), unknown roles, bad addresses and lifetimes outside 1..30 days', async () => {
      assert.equal(codeOf(await invite({ email: carol.email, role_code: 'owner' })), 'INVALID_ROLE_FOR_OWNER');
      assert.deepEqual(Object.keys(expectStatus(await invite({ email: carol.email, role_code: 'boss' }), 400).details), ['role_code']);
      assert.deepEqual(Object.keys(expectStatus(await invite({ email: 'not-an-address' }), 400).details), ['email']);
      assert.equal(codeOf(await invite({})), 'VALIDATION_ERROR');
      for (const days of [0, 31, 1.5]) assert.equal(codeOf(await invite({ email: carol.email, expires_in_days: days })), 'VALIDATION_ERROR');
      assert.equal((await invited({ email: carol.email, expires_in_days: 30 })).expires_at, new Date(NOW.getTime() + 30 * DAY * 1000).toISOString());
    });

    it('answers 400 ALREADY_MEMBER for an address of a direct member', async () => {
      await join(t, 'acme', bob, 'member');
      assert.equal(codeOf(await invite({ email: 'BOB@example.com' })), 'ALREADY_MEMBER');
      assert.equal(codeOf(await invite({ email: ann.email })), 'ALREADY_MEMBER');
    });

    it('needs org.members.invite, and invites only with a role the caller may grant (403 INSUFFICIENT_PERMISSIONS)', async () => {
      await join(t, 'acme', bob, 'member');
      await join(t, 'acme', eve, 'admin');
      assert.equal(codeOf(await invite({ email: carol.email }, bob)), 'INSUFFICIENT_PERMISSIONS');
      assert.equal((await invited({ email: carol.email, role_code: 'admin' }, eve)).role, 'admin');
      const db = t.container.db;
      await db.insertInto('org_roles').values({ code: 'director', name: 'Director', weight: 90 }).execute();
      assert.equal(codeOf(await invite({ email: carol.email, role_code: 'director' }, eve)), 'INSUFFICIENT_PERMISSIONS');
      assert.equal((await invited({ email: carol.email, role_code: 'director' })).role, 'director');
      assert.equal(codeOf(await api('POST', 'organizations/invitations/', ann, { payload: { email: carol.email } })), 'ORG_SLUG_REQUIRED');
    });
  });

  describe('GET and DELETE organizations/invitations/', () => {
    it('lists newest first, paged, with the status filter; a pending invitation past its expiry shows as expired', async () => {
      const older = await invited({ email: 'one@example.com', expires_in_days: 1 });
      t.clock.advance(60);
      const newer = await invited({ email: 'two@example.com' });
      const page = await list('?page_size=1');
      assert.equal(page.count, 2);
      assert.deepEqual(page.results.map((r: { id: number }) => r.id), [newer.id]);
      assert.ok(page.next);
      t.clock.advance(DAY);
      ann = await again(ann);
      assert.deepEqual((await list()).results.map((r: { status: string }) => r.status), ['pending', 'expired']);
      assert.deepEqual((await list('?status=expired')).results.map((r: { id: number }) => r.id), [older.id]);
      assert.deepEqual((await list('?status=pending')).results.map((r: { id: number }) => r.id), [newer.id]);
      assert.equal((await list('?status=accepted')).count, 0);
      assert.equal(codeOf(await api('GET', 'organizations/invitations/?status=lost', ann, { slug: 'acme' })), 'VALIDATION_ERROR');
    });

    it('revokes a pending invitation: 200 {message}; then 400 INVALID_INVITATION, and its token no longer works', async () => {
      const body = await invited({ email: carol.email });
      const revoke = (id: number | string, slug = 'acme', who = ann) => api('DELETE', `organizations/invitations/${id}/`, who, { slug });
      assert.deepEqual(expectStatus(await revoke(body.id), 200), { message: 'Invitation revoked' });
      assert.equal((await list('?status=revoked')).count, 1);
      assert.equal(codeOf(await revoke(body.id)), 'INVALID_INVITATION');
      assert.equal(expectStatus(await revoke(999999), 404).code, 'NOT_FOUND');
      assert.equal(expectStatus(await revoke('abc'), 404).code, 'NOT_FOUND');
      await verifyEmail(carol);
      assert.equal(codeOf(await accept(body.token, carol)), 'INVALID_INVITATION');
      const [event] = await auditEvents(t, 'organization_invitation_revoked');
      assert.equal(event?.actor_id, ann.id);
    });

    it('keeps organizations apart: another organization\'s list is NOT_MEMBER, its invitation ids are NOT_FOUND', async () => {
      await createOrg(t, eve, 'beta');
      const theirs = await invited({ email: carol.email }, eve, 'beta');
      assert.equal(expectStatus(await api('GET', 'organizations/invitations/', ann, { slug: 'beta' }), 403).code, 'NOT_MEMBER');
      assert.equal(expectStatus(await api('DELETE', `organizations/invitations/${theirs.id}/`, ann, { slug: 'beta' }), 403).code, 'NOT_MEMBER');
      assert.equal(expectStatus(await api('DELETE', `organizations/invitations/${theirs.id}/`, ann, { slug: 'acme' }), 404).code, 'NOT_FOUND');
      assert.equal((await list()).count, 0);
      assert.equal(await statusOf(theirs.id), 'pending');
    });
  });

  describe('accept/ and decline/', () => {
    it('accepts with the verified matching email and no organization context: the membership, the audit event', async () => {
      const body = await invited({ email: carol.email, role_code: 'admin' });
      await verifyEmail(carol);
      assert.deepEqual(expectStatus(await accept(body.token, carol), 200),
        { message: 'Invitation accepted', organization: body.organization, role: 'admin' });
      assert.equal(await memberRole('acme', carol), 'admin');
      const [row] = (await list('?status=accepted')).results;
      assert.equal(row.id, body.id);
      const stored = await t.container.db.selectFrom('organization_invitations').select(['accepted_by', 'responded_at'])
        .where('id', '=', body.id).executeTakeFirstOrThrow();
      assert.equal(stored.accepted_by, carol.id);
      assert.equal(stored.responded_at?.toISOString(), NOW.toISOString());
      const [event] = await auditEvents(t, 'organization_invitation_accepted');
      assert.equal(event?.user_id, carol.id);
      assert.equal((event?.details as { automatic: boolean }).automatic, false);
      assert.equal(codeOf(await accept(body.token, carol)), 'INVALID_INVITATION');
    });

    it('answers 403 INVITATION_EMAIL_MISMATCH to another account, and to the invitee while its email is unverified', async () => {
      const body = await invited({ email: carol.email });
      await verifyEmail(bob);
      assert.equal(expectStatus(await accept(body.token, bob), 403).code, 'INVITATION_EMAIL_MISMATCH');
      assert.equal(expectStatus(await accept(body.token, carol), 403).code, 'INVITATION_EMAIL_MISMATCH');
      assert.equal(expectStatus(await decline(body.token, bob), 403).code, 'INVITATION_EMAIL_MISMATCH');
      assert.equal(await statusOf(body.id), 'pending');
      assert.equal(await memberRole('acme', carol), undefined);
    });

    it('answers 400 INVALID_INVITATION for an unknown or expired token', async () => {
      const body = await invited({ email: carol.email, expires_in_days: 1 });
      await verifyEmail(carol);
      assert.equal(expectStatus(await accept('no-such-token', carol), 400).code, 'INVALID_INVITATION');
      t.clock.advance(DAY);
      carol = await again(carol);
      assert.equal(codeOf(await accept(body.token, carol)), 'INVALID_INVITATION');
      assert.equal(codeOf(await decline(body.token, carol)), 'INVALID_INVITATION');
      assert.equal(codeOf(await api('POST', 'organizations/invitations/accept/', carol, { payload: {} })), 'VALIDATION_ERROR');
      assert.equal(expectStatus(await api('POST', 'organizations/invitations/accept/', null, { payload: { token: body.token } }), 401).code,
        'UNAUTHORIZED');
    });

    it('declines: 200 {message}, the invitation is declined and can no longer be accepted', async () => {
      const body = await invited({ email: carol.email });
      await verifyEmail(carol);
      assert.deepEqual(expectStatus(await decline(body.token, carol), 200), { message: 'Invitation declined' });
      assert.equal((await list('?status=declined')).results[0].id, body.id);
      assert.equal(codeOf(await accept(body.token, carol)), 'INVALID_INVITATION');
      assert.equal(await memberRole('acme', carol), undefined);
      assert.equal((await auditEvents(t, 'organization_invitation_declined')).length, 1);
    });

    it('uses a token once: of parallel acceptances exactly one creates the membership', async () => {
      const body = await invited({ email: carol.email });
      await verifyEmail(carol);
      const answers = await Promise.all(Array.from({ length: 5 }, () => accept(body.token, carol)));
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 400, 400, 400, 400]);
      const rows = await t.container.db.selectFrom('organization_members').select('id').where('user_id', '=', carol.id).execute();
      assert.equal(rows.length, 1);
      assert.equal((await auditEvents(t, 'organization_invitation_accepted')).length, 1);
    });

    it('marks the invitation accepted without changing the role of an invitee who is already a member', async () => {
      const body = await invited({ email: carol.email, role_code: 'admin' });
      await join(t, 'acme', carol, 'member');
      await verifyEmail(carol);
      assert.equal(expectStatus(await accept(body.token, carol), 200).role, 'member');
      assert.equal(await memberRole('acme', carol), 'member');
      assert.equal(await statusOf(body.id), 'accepted');
    });

    it('answers 400 MEMBER_LIMIT_EXCEEDED when the organization is full, and leaves the invitation pending', async () => {
      await createOrg(t, eve, 'tiny', undefined, { max_members: 1 });
      const body = await invited({ email: carol.email }, eve, 'tiny');
      await verifyEmail(carol);
      assert.equal(codeOf(await accept(body.token, carol)), 'MEMBER_LIMIT_EXCEEDED');
      assert.equal(await statusOf(body.id), 'pending');
      expectStatus(await api('PATCH', 'organizations/update/', eve, { slug: 'tiny', payload: { max_members: 2 } }), 200);
      assert.equal(expectStatus(await accept(body.token, carol), 200).role, 'member');
    });
  });

  describe('automatic acceptance', () => {
    it('accepts every pending invitation for a verified email at password login; an expired one or a full organization stays', async () => {
      await createOrg(t, eve, 'beta');
      await createOrg(t, eve, 'tiny', undefined, { max_members: 1 });
      const toAcme = await invited({ email: carol.email });
      const toBeta = await invited({ email: carol.email, role_code: 'admin' }, eve, 'beta');
      const toTiny = await invited({ email: carol.email }, eve, 'tiny');
      await verifyEmail(carol);
      await signIn(t, carol);
      assert.equal(await memberRole('acme', carol), 'member');
      assert.equal(await memberRole('beta', carol), 'admin');
      assert.equal(await memberRole('tiny', carol), undefined);
      assert.deepEqual([await statusOf(toAcme.id), await statusOf(toBeta.id), await statusOf(toTiny.id)], ['accepted', 'accepted', 'pending']);
      const events = await auditEvents(t, 'organization_invitation_accepted');
      assert.deepEqual(events.map((e) => [e.user_id, e.actor_id, (e.details as { automatic: boolean }).automatic]),
        [[carol.id, carol.id, true], [carol.id, carol.id, true]]);
    });

    it('accepts nothing at login while the email is unverified, or once the invitation expired', async () => {
      const body = await invited({ email: carol.email, expires_in_days: 1 });
      await signIn(t, carol);
      assert.equal(await statusOf(body.id), 'pending');
      t.clock.advance(DAY);
      await verifyEmail(carol);
      await signIn(t, carol);
      assert.equal(await statusOf(body.id), 'pending');
      assert.equal(await memberRole('acme', carol), undefined);
    });

    it('accepts when the invitee verifies that email (otp/request + otp/verify/email)', async () => {
      const body = await invited({ email: carol.email });
      await emailsTo(carol.email!);
      expectStatus(await t.api({ method: 'POST', path: 'otp/request/', token: carol.token, payload: { otp_type: 'email' } }), 200);
      const code = await lastEmailCode(t, carol.email!);
      expectStatus(await t.api({ method: 'POST', path: 'otp/verify/email/', token: carol.token, payload: { code } }), 200);
      assert.equal(await statusOf(body.id), 'accepted');
      assert.equal(await memberRole('acme', carol), 'member');
    });

    it('accepts nothing with organizations off', async () => {
      const off = await createTestApp({ now: NOW, env: { SVC_ORGANIZATIONS_ENABLED: 'false' } });
      try {
        await off.reset();
        const [owner, invitee] = await accounts(off, 'owner', 'invitee');
        const db = off.container.db;
        const org = await db.insertInto('organizations').values({ name: 'Off', slug: 'off', created_by: owner.id })
          .returning('id').executeTakeFirstOrThrow();
        const member = await db.selectFrom('org_roles').select('id').where('code', '=', 'member').executeTakeFirstOrThrow();
        const { id } = await db.insertInto('organization_invitations').values({ organization_id: org.id, email: invitee.email!,
          org_role_id: member.id, token_hash: sha256Hex('off-token'), invited_by: owner.id, expires_at: new Date(NOW.getTime() + DAY * 1000) })
          .returning('id').executeTakeFirstOrThrow();
        await verifyEmail(invitee, off);
        await signIn(off, invitee);
        assert.equal(await memberRole('off', invitee, off), undefined);
        const stored = await db.selectFrom('organization_invitations').select('status').where('id', '=', id).executeTakeFirstOrThrow();
        assert.equal(stored.status, 'pending');
        assert.equal(expectStatus(await orgApi(off)('POST', 'organizations/invitations/accept/', invitee, { payload: { token: 'off-token' } }), 404).code,
          'FEATURE_DISABLED');
      } finally {
        await off.close();
      }
    });
  });
});
