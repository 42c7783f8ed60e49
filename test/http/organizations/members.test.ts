import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { accounts, auditEvents, createOrg, expectStatus, join, ORG_ENV, orgApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('organization members', () => {
  const t = useTestApp({ now: NOW, env: ORG_ENV });
  const api = orgApi(t);
  let owner: Account;
  let admin: Account;
  let member: Account;
  let outsider: Account;
  beforeEach(async () => {
    [owner, admin, member, outsider] = await accounts(t, 'owner', 'admin', 'member', 'outsider');
    await createOrg(t, owner, 'acme');
    await join(t, 'acme', admin, 'admin');
    await join(t, 'acme', member, 'member');
  });

  const add = (who: Account, user_id: number, role_code?: string, slug = 'acme') =>
    api('POST', 'organizations/members/add/', who, { slug, payload: { user_id, ...(role_code ? { role_code } : {}) } });
  const change = (who: Account, userId: number | string, role_code: string, slug = 'acme') =>
    api('PATCH', `organizations/members/${userId}/`, who, { slug, payload: { role_code } });
  const remove = (who: Account, userId: number | string, slug = 'acme') => api('DELETE', `organizations/members/${userId}/remove/`, who, { slug });
  const roleOf = async (who: Account) => expectStatus(await api('GET', 'organizations/detail/', who, { slug: 'acme' }), 200).user_role;

  describe('GET organizations/members/', () => {
    it('lists direct members with role, role_display and the three permission lists', async () => {
      const body = expectStatus(await api('GET', 'organizations/members/', member, { slug: 'acme' }), 200);
      assert.equal(body.count, 3);
      const row = body.results.find((r: { user: { id: number } }) => r.user.id === member.id);
      assert.deepEqual(row, {
        id: row.id, user: { id: member.id, email: 'member@example.com', first_name: 'member', last_name: '' }, role: 'member',
        role_display: 'Member', permissions: ['org.view'], inherited_permissions: [], effective_permissions: ['org.view'],
        joined_at: row.joined_at, status: 'active',
      });
    });

    it('shows inherited permissions on a child\'s members, and only the child\'s direct members', async () => {
      await createOrg(t, owner, 'acme-eu', 'acme');
      await join(t, 'acme-eu', admin, 'member');
      const body = expectStatus(await api('GET', 'organizations/members/', admin, { slug: 'acme-eu' }), 200);
      assert.deepEqual(body.results.map((r: { user: { email: string } }) => r.user.email).sort(), ['admin@example.com', 'owner@example.com']);
      const row = body.results.find((r: { user: { id: number } }) => r.user.id === admin.id);
      assert.deepEqual([row.permissions, row.inherited_permissions, row.effective_permissions],
        [['org.view'], ['org.members.invite', 'org.members.manage', 'org.view'], ['org.members.invite', 'org.members.manage', 'org.view']]);
    });

    it('filters by search, role and status, and orders by joined_at, user.email and role', async () => {
      const emails = async (q: string) => expectStatus(await api('GET', `organizations/members/?${q}`, owner, { slug: 'acme' }), 200)
        .results.map((r: { user: { email: string } }) => r.user.email);
      assert.deepEqual(await emails('search=ADMIN'), ['admin@example.com']);
      assert.deepEqual(await emails('role=member'), ['member@example.com']);
      assert.deepEqual(await emails('status=pending'), []);
      assert.deepEqual(await emails('ordering=user.email'), ['admin@example.com', 'member@example.com', 'owner@example.com']);
      assert.deepEqual(await emails('ordering=-role'), ['owner@example.com', 'admin@example.com', 'member@example.com']);
      assert.equal(expectStatus(await api('GET', 'organizations/members/?role=boss', owner, { slug: 'acme' }), 400).code, 'VALIDATION_ERROR');
    });
  });

  describe('POST organizations/members/add/', () => {
    it('adds a member (201) with the role given, default member, and audits it', async () => {
      const body = expectStatus(await add(admin, outsider.id), 201);
      assert.deepEqual([body.user.id, body.role, body.role_display, body.status], [outsider.id, 'member', 'Member', 'active']);
      assert.equal(await roleOf(outsider), 'member');
      const [event] = await auditEvents(t, 'organization_member_added');
      assert.deepEqual([event?.user_id, event?.actor_id, event?.details.role], [outsider.id, admin.id, 'member']);
    });

    it('answers 400 INVALID_ROLE_FOR_OWNER, ALREADY_MEMBER, 404 USER_NOT_FOUND, 400 on an unknown role', async () => {
      assert.equal(expectStatus(await add(owner, outsider.id, 'owner'), 400).code, 'INVALID_ROLE_FOR_OWNER');
      assert.equal(expectStatus(await add(owner, member.id), 400).code, 'ALREADY_MEMBER');
      assert.equal(expectStatus(await add(owner, 999999), 404).code, 'USER_NOT_FOUND');
      assert.deepEqual(expectStatus(await add(owner, outsider.id, 'boss'), 400).details, { role_code: ['Unknown role: boss.'] });
      assert.equal(expectStatus(await api('POST', 'organizations/members/add/', owner, { slug: 'acme', payload: { user_id: 'x' } }), 400).code, 'VALIDATION_ERROR');
    });

    it('needs org.members.invite, and grants only roles of weight at most the caller\'s', async () => {
      const refused = expectStatus(await add(member, outsider.id), 403);
      assert.deepEqual([refused.code, refused.details], ['INSUFFICIENT_PERMISSIONS', { missing_permissions: ['org.members.invite'], requires: 'all' }]);
      assert.equal(expectStatus(await add(admin, outsider.id, 'admin'), 201).role, 'admin');
    });

    it('answers 400 MEMBER_LIMIT_EXCEEDED at max_members, and lets exactly the free places be taken by parallel adds', async () => {
      expectStatus(await api('PATCH', 'organizations/update/', owner, { slug: 'acme', payload: { max_members: 4 } }), 200);
      const others = await accounts(t, 'p1', 'p2', 'p3');
      const results = await Promise.all(others.map((o) => add(owner, o.id)));
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 400, 400]);
      assert.ok(results.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'MEMBER_LIMIT_EXCEEDED'));
    });
  });

  describe('PATCH organizations/members/<user_id>/', () => {
    it('changes a lower member\'s role and answers {id, user, role, role_display, updated_at}', async () => {
      t.clock.advance(60);
      const body = expectStatus(await change(admin, member.id, 'admin'), 200);
      assert.deepEqual(Object.keys(body).sort(), ['id', 'role', 'role_display', 'updated_at', 'user']);
      assert.deepEqual([body.role, body.role_display, body.user.id, body.updated_at], ['admin', 'Admin', member.id, new Date(NOW.getTime() + 60_000).toISOString()]);
      const [event] = await auditEvents(t, 'organization_member_role_changed');
      assert.deepEqual([event?.details.from, event?.details.to], ['member', 'admin']);
    });

    it('refuses an admin changing an admin, granting owner, or a member raising its own role', async () => {
      const [other] = await accounts(t, 'other');
      await join(t, 'acme', other, 'admin');
      assert.equal(expectStatus(await change(admin, other.id, 'member'), 403).code, 'INSUFFICIENT_PERMISSIONS');
      assert.equal(expectStatus(await change(admin, member.id, 'owner'), 403).code, 'INSUFFICIENT_PERMISSIONS');
      assert.equal(expectStatus(await change(member, member.id, 'admin'), 403).code, 'INSUFFICIENT_PERMISSIONS');
      assert.equal(await roleOf(member), 'member');
    });

    it('lets an owner give ownership and demote an owner while another remains, never the last one', async () => {
      assert.equal(expectStatus(await change(owner, owner.id, 'admin'), 400).code, 'LAST_OWNER_CANNOT_BE_DEMOTED');
      expectStatus(await change(owner, admin.id, 'owner'), 200);
      expectStatus(await change(admin, owner.id, 'member'), 200);
      assert.equal(await roleOf(owner), 'member');
      assert.equal(expectStatus(await change(admin, admin.id, 'admin'), 400).code, 'LAST_OWNER_CANNOT_BE_DEMOTED');
    });

    it('answers 404 MEMBER_NOT_FOUND for a non-member, another organization\'s member or a malformed id', async () => {
      await createOrg(t, outsider, 'other-org');
      assert.equal(expectStatus(await change(owner, outsider.id, 'member'), 404).code, 'MEMBER_NOT_FOUND');
      assert.equal(expectStatus(await change(owner, 'abc', 'member'), 404).code, 'MEMBER_NOT_FOUND');
      assert.equal(expectStatus(await change(owner, 999999, 'member'), 404).code, 'MEMBER_NOT_FOUND');
    });
  });

  describe('DELETE organizations/members/<user_id>/remove/', () => {
    it('needs org.members.remove (owners), removes a member and audits it', async () => {
      assert.equal(expectStatus(await remove(admin, member.id), 403).code, 'INSUFFICIENT_PERMISSIONS');
      assert.deepEqual(expectStatus(await remove(owner, member.id), 200), { message: 'Member removed' });
      assert.equal(expectStatus(await api('GET', 'organizations/detail/', member, { slug: 'acme' }), 403).code, 'NOT_MEMBER');
      assert.equal((await auditEvents(t, 'organization_member_removed')).length, 1);
    });

    it('never removes the last owner, and answers 404 MEMBER_NOT_FOUND for a non-member', async () => {
      assert.equal(expectStatus(await remove(owner, owner.id), 400).code, 'LAST_OWNER_CANNOT_BE_REMOVED');
      assert.equal(expectStatus(await remove(owner, outsider.id), 404).code, 'MEMBER_NOT_FOUND');
    });
  });
});
