import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createUser, userRow } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { createOrg, join, ORG_ENV } from '../organizations/helpers.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

/**
 * An agent never exceeds its grant (docs/agents.md "Threat model"): its person's superuser flag and organization role
 * never stand in for what the token was granted. Tried from the agent's side.
 */
describe('an agent acts with its grant, never with its person\'s standing', () => {
  const t = useTestApp({ now: NOW, env: { ...AGENT_ENV, ...ORG_ENV } });
  const agent = (method: Parameters<ReturnType<typeof agentApi>>[0], path: string, token: string, payload?: unknown,
    headers: Record<string, string> = {}) => agentApi(t)(method, path, token, payload, headers);
  const user = (...a: Parameters<ReturnType<typeof userApi>>) => userApi(t)(...a);
  const rolesOf = async (userId: number) => (await t.container.db.selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select('r.code').where('ur.user_id', '=', userId).execute()).map((r) => r.code).sort();

  /** The agent's call waits (202); its person approves it; the agent repeats it with the confirmation. */
  async function approvedReplay(who: Account, token: string, method: 'POST' | 'PATCH', path: string, payload: unknown) {
    const pending = expectStatus(await agent(method, path, token, payload), 202);
    expectStatus(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, who), 200);
    return agent(method, path, token, payload, { 'x-action-confirmation': pending.confirmation_token });
  }

  describe('a superuser\'s agent', () => {
    let root: Account;
    let target: Awaited<ReturnType<typeof createUser>>;
    beforeEach(async () => {
      root = await account(t, { email: 'root@example.com', is_superuser: true });
      target = await createUser(t, { email: 'target@example.com' });
    });

    it('granted users.manage cannot make anyone superuser or staff, even once its person approves', async () => {
      const { token } = await delegate(t, root, { permissions: ['users.manage', 'users.view'] });
      for (const flag of ['is_superuser', 'is_staff']) {
        const res = await approvedReplay(root, token, 'PATCH', `admin/users/${target.id}/`, { [flag]: true });
        expectError(res, 403, 'AGENT_PERMISSION_DENIED');
      }
      const row = await userRow(t, target.id);
      assert.deepEqual([row.is_superuser, row.is_staff], [false, false]);
      // What the grant does cover goes through without approval.
      const named = expectStatus(await agent('PATCH', `admin/users/${target.id}/`, token, { first_name: 'Tess' }), 200);
      assert.deepEqual(named.updated_fields, ['first_name']);
    });

    it('waits for approval before changing activation, a forced password change, a lock, a ban or the second factor', async () => {
      const { token } = await delegate(t, root, { permissions: ['users.manage', 'users.view'] });
      const cases: Array<['POST' | 'PATCH', string, unknown]> = [
        ['PATCH', `admin/users/${target.id}/`, { is_active: false }],
        ['PATCH', `admin/users/${target.id}/`, { must_change_password: true, first_name: 'Tess' }],
        ['POST', `admin/users/${target.id}/lock/`, { duration_minutes: 5 }],
        ['POST', `admin/users/${target.id}/unlock/`, {}],
        ['POST', `admin/users/${target.id}/ban/`, { reason: 'spam' }],
        ['POST', `admin/users/${target.id}/unban/`, {}],
        ['POST', `admin/users/${target.id}/reset-2fa/`, {}],
      ];
      for (const [method, path, payload] of cases) {
        assert.equal(expectStatus(await agent(method, path, token, payload), 202).status, 'pending_confirmation', `${method} ${path}`);
      }
      const row = await userRow(t, target.id);
      assert.deepEqual([row.is_active, row.must_change_password, row.locked_until, row.is_banned, row.first_name],
        [true, false, null, false, ''], 'nothing ran before approval');
      expectStatus(await approvedReplay(root, token, 'PATCH', `admin/users/${target.id}/`, { is_active: false }), 200);
      assert.equal((await userRow(t, target.id)).is_active, false);
    });

    it('cannot touch another superuser\'s account', async () => {
      const other = await createUser(t, { email: 'other-root@example.com', is_superuser: true });
      const { token } = await delegate(t, root, { permissions: ['users.manage', 'users.view'] });
      expectError(await agent('PATCH', `admin/users/${other.id}/`, token, { first_name: 'X' }), 403, 'AGENT_PERMISSION_DENIED');
      expectError(await agent('POST', `users/${other.id}/roles/`, token, { role_code: 'user' }), 403, 'AGENT_PERMISSION_DENIED');
      // Its person can.
      expectStatus(await user('PATCH', `admin/users/${other.id}/`, root, { first_name: 'X' }), 200);
    });

    it('grants a global role or a permission only inside its grant', async () => {
      const { token } = await delegate(t, root, { permissions: ['users.manage', 'users.view', 'roles.manage', 'roles.view'] });
      // `admin` holds every system permission: far beyond the grant.
      expectError(await agent('POST', `users/${target.id}/roles/`, token, { role_code: 'admin' }), 403, 'AGENT_PERMISSION_DENIED');
      expectError(await agent('POST', `users/${target.id}/permissions/`, token, { permission_codes: ['audit.view'] }), 403,
        'AGENT_PERMISSION_DENIED');
      expectError(await agent('POST', 'roles/', token, { code: 'auditor', name: 'Auditor', permission_codes: ['audit.view'] }), 403,
        'AGENT_PERMISSION_DENIED');
      assert.deepEqual(await rolesOf(target.id), ['user']);
      // A role made of granted permissions only is fine.
      expectStatus(await agent('POST', 'roles/', token, { code: 'viewer', name: 'Viewer', permission_codes: ['users.view'] }), 201);
      expectStatus(await agent('POST', `users/${target.id}/roles/`, token, { role_code: 'viewer' }), 200);
      assert.deepEqual(await rolesOf(target.id), ['user', 'viewer']);
    });

    it('counts each refusal by a service toward the anomaly breaker, once per request, even in parallel', async () => {
      const { id, token } = await delegate(t, root, { permissions: ['users.manage', 'users.view'],
        circuit_breaker: { max_failed_requests: 5 } });
      const answers = await Promise.all(Array.from({ length: 8 }, () =>
        agent('POST', `users/${target.id}/roles/`, token, { role_code: 'admin' })));
      const codes = answers.map((r) => r.json().code).sort();
      // Five denials suspend the token; the requests counted after that are refused as suspended.
      assert.equal(codes.filter((c) => c === 'AGENT_PERMISSION_DENIED').length + codes.filter((c) => c === 'AGENT_TOKEN_SUSPENDED').length, 8);
      const row = await t.container.db.selectFrom('agent_tokens').select(['status', 'suspended_reason', 'failed_count'])
        .where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.suspended_reason], ['SUSPENDED', 'ANOMALY']);
      assert.ok(row.failed_count >= 5 && row.failed_count <= 8, `failed_count ${row.failed_count}`);
      const suspensions = await t.container.db.selectFrom('audit_events').select('id')
        .where('event_type', '=', 'agent_token_suspended').execute();
      assert.equal(suspensions.length, 1, 'suspended once');
      assert.deepEqual(await rolesOf(target.id), ['user']);
    });

    it('does not let a request its guards allowed but its service refused end the run of denials', async () => {
      const { id, token } = await delegate(t, root, { permissions: ['users.manage', 'users.view'],
        circuit_breaker: { max_failed_requests: 3 } });
      for (let i = 0; i < 2; i++) expectError(await agent('POST', `users/${target.id}/roles/`, token, { role_code: 'admin' }), 403, 'AGENT_PERMISSION_DENIED');
      // The third refusal, made when the token already counts two: its guards passed, so only the answer can settle it.
      expectError(await agent('POST', `users/${target.id}/roles/`, token, { role_code: 'admin' }), 403, 'AGENT_PERMISSION_DENIED');
      const row = await t.container.db.selectFrom('agent_tokens').select(['status', 'suspended_reason', 'failed_count'])
        .where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.suspended_reason, row.failed_count], ['SUSPENDED', 'ANOMALY', 3]);
    });

    it('starts the count again after a request answered without a refusal', async () => {
      const { id, token } = await delegate(t, root, { permissions: ['users.manage', 'users.view'],
        circuit_breaker: { max_failed_requests: 3 } });
      for (let i = 0; i < 2; i++) expectError(await agent('POST', `users/${target.id}/roles/`, token, { role_code: 'admin' }), 403, 'AGENT_PERMISSION_DENIED');
      expectStatus(await agent('PATCH', `admin/users/${target.id}/`, token, { first_name: 'Tess' }), 200);
      const row = await t.container.db.selectFrom('agent_tokens').select(['status', 'failed_count'])
        .where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.failed_count], ['ACTIVE', 0]);
    });
  });

  describe('an organization owner\'s agent', () => {
    let owner: Account;
    let bob: Account;
    let carol: Account;
    beforeEach(async () => {
      owner = await account(t, { email: 'owner@example.com' });
      bob = await account(t, { email: 'bob@example.com' });
      carol = await account(t, { email: 'carol@example.com' });
      await t.container.db.updateTable('users').set({ is_email_verified: true }).execute();
      await createOrg(t, owner, 'acme');
      await createOrg(t, owner, 'acme-eu', 'acme');
      await createOrg(t, owner, 'acme-us', 'acme');
      await createOrg(t, owner, 'globex');
      await join(t, 'acme', bob, 'member');
      await join(t, 'acme', carol, 'admin');
    });
    const inOrg = (slug: string) => ({ 'x-org-slug': slug });
    const roleIn = async (slug: string, userId: number) => (await t.container.db.selectFrom('organization_members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id').innerJoin('org_roles as r', 'r.id', 'm.org_role_id')
      .select('r.code').where('o.slug', '=', slug).where('m.user_id', '=', userId).executeTakeFirst())?.code ?? null;

    it('granted org.members.manage cannot promote anyone to owner or admin, nor change an admin', async () => {
      const { token } = await delegate(t, owner, { organization: 'acme', permissions: ['org.members.manage', 'org.view'] });
      expectError(await agent('PATCH', `organizations/members/${bob.id}/`, token, { role_code: 'owner' }, inOrg('acme')), 403,
        'AGENT_PERMISSION_DENIED');
      // `admin` also holds org.members.invite, which was not granted.
      expectError(await agent('PATCH', `organizations/members/${bob.id}/`, token, { role_code: 'admin' }, inOrg('acme')), 403,
        'AGENT_PERMISSION_DENIED');
      // The grant is worth an admin's standing, not the owner's: an admin is not below it.
      expectError(await agent('PATCH', `organizations/members/${carol.id}/`, token, { role_code: 'member' }, inOrg('acme')), 403,
        'AGENT_PERMISSION_DENIED');
      assert.deepEqual([await roleIn('acme', bob.id), await roleIn('acme', carol.id)], ['member', 'admin']);
      // The SDK's slug-in-path family holds the same line.
      expectError(await agent('PATCH', `organizations/acme/members/${bob.id}/`, token, { role_code: 'owner' }), 403,
        'AGENT_PERMISSION_DENIED');
      // The person can do all of it.
      expectStatus(await user('PATCH', `organizations/members/${carol.id}/`, owner, { role_code: 'member' }, inOrg('acme')), 200);
    });

    it('adds members and invites only to a role inside its grant', async () => {
      const dave = await account(t, { email: 'dave@example.com' });
      const { token } = await delegate(t, owner, { organization: 'acme',
        permissions: ['org.members.manage', 'org.members.invite', 'org.view'] });
      // admin's permissions are exactly these: within the grant; owner's are not.
      expectError(await agent('PATCH', `organizations/members/${bob.id}/`, token, { role_code: 'owner' }, inOrg('acme')), 403,
        'AGENT_PERMISSION_DENIED');
      expectStatus(await agent('POST', 'organizations/members/add/', token, { user_id: dave.id, role_code: 'admin' }, inOrg('acme')), 201);
      const narrow = await delegate(t, owner, { organization: 'acme', permissions: ['org.members.invite', 'org.members.manage'] });
      expectError(await agent('POST', 'organizations/invitations/', narrow.token, { email: 'eve@example.com', role_code: 'admin' },
        inOrg('acme')), 403, 'AGENT_PERMISSION_DENIED');
      const eu = await delegate(t, owner, { organization: 'acme-eu', permissions: ['org.members.invite', 'org.view'] });
      expectError(await agent('POST', 'organizations/invitations/', eu.token, { email: 'eve@example.com', role_code: 'admin' },
        inOrg('acme-eu')), 403, 'AGENT_PERMISSION_DENIED');
      expectStatus(await agent('POST', 'organizations/invitations/', eu.token, { email: 'eve@example.com', role_code: 'member' },
        inOrg('acme-eu')), 201);
      const invited = await t.container.db.selectFrom('organization_invitations').select('email').execute();
      assert.deepEqual(invited.map((r) => r.email), ['eve@example.com']);
    });

    it('moves organizations only within its organization\'s subtree', async () => {
      const { token } = await delegate(t, owner, { organization: 'acme', permissions: ['org.manage', 'org.view'] });
      const id = async (slug: string) =>
        (await t.container.db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
      const parentOf = async (slug: string) =>
        (await t.container.db.selectFrom('organizations').select('parent_id').where('slug', '=', slug).executeTakeFirstOrThrow()).parent_id;
      // Out of the subtree: under another tree, or to the top.
      expectError(await agent('PATCH', 'organizations/update/', token, { parent_id: await id('globex') }, inOrg('acme-eu')), 403,
        'AGENT_PERMISSION_DENIED');
      expectError(await agent('PATCH', 'organizations/update/', token, { parent_id: null }, inOrg('acme-eu')), 403, 'AGENT_PERMISSION_DENIED');
      expectError(await agent('PATCH', 'organizations/update/', token, { parent_id: await id('globex') }, inOrg('acme')), 403,
        'AGENT_PERMISSION_DENIED');
      assert.deepEqual([await parentOf('acme-eu'), await parentOf('acme')], [await id('acme'), null]);
      // Within it.
      expectStatus(await agent('PATCH', 'organizations/update/', token, { parent_id: await id('acme-us') }, inOrg('acme-eu')), 200);
      assert.equal(await parentOf('acme-eu'), await id('acme-us'));
      // The person may move it anywhere they manage.
      expectStatus(await user('PATCH', 'organizations/update/', owner, { parent_id: await id('globex') }, inOrg('acme-eu')), 200);
    });

    it('lets none of parallel promotions to owner through', async () => {
      const { token } = await delegate(t, owner, { organization: 'acme', permissions: ['org.members.manage', 'org.view'],
        circuit_breaker: { max_failed_requests: 50 } });
      const answers = await Promise.all([bob, carol, bob, carol, bob, carol].map((who) =>
        agent('PATCH', `organizations/members/${who.id}/`, token, { role_code: 'owner' }, inOrg('acme'))));
      assert.deepEqual(answers.map((r) => r.statusCode), [403, 403, 403, 403, 403, 403]);
      assert.deepEqual([await roleIn('acme', bob.id), await roleIn('acme', carol.id)], ['member', 'admin']);
    });
  });
});
