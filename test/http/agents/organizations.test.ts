import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { createOrg, join, ORG_ENV } from '../organizations/helpers.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

describe('organization-scoped agent tokens', () => {
  const t = useTestApp({ now: NOW, env: { ...AGENT_ENV, ...ORG_ENV } });
  let owner: Account;
  let member: Account;
  beforeEach(async () => {
    owner = await account(t, { email: 'owner@example.com' });
    member = await account(t, { email: 'member@example.com' });
    await createOrg(t, owner, 'acme');
    await createOrg(t, owner, 'acme-eu', 'acme');
    await createOrg(t, owner, 'globex');
    await join(t, 'acme', member, 'member');
  });
  const agent = (method: Parameters<ReturnType<typeof agentApi>>[0], path: string, token: string, slug?: string, payload?: unknown) =>
    agentApi(t)(method, path, token, payload, slug ? { 'x-org-slug': slug } : {});

  it('grants only what the user\'s role there holds, and only organization permissions', async () => {
    const created = await delegate(t, member, { organization: 'ACME', permissions: ['org.view'] });
    assert.equal(created.organization, 'acme');
    expectError(await userApi(t)('POST', 'ai/tokens/', member, { agent_id: 'x', organization: 'acme', permissions: ['org.manage'] }),
      403, 'PERMISSION_DENIED');
    const unknown = expectError(await userApi(t)('POST', 'ai/tokens/', member, { agent_id: 'x', organization: 'acme',
      permissions: ['roles.view'] }), 400, 'PERMISSIONS_NOT_FOUND');
    assert.deepEqual(unknown.details, { permissions: ['roles.view'] });
    expectError(await userApi(t)('POST', 'ai/tokens/', member, { agent_id: 'x', organization: 'globex' }), 403, 'NOT_MEMBER');
    expectError(await userApi(t)('POST', 'ai/tokens/', member, { agent_id: 'x', organization: 'nowhere' }), 404, 'ORG_NOT_FOUND');
  });

  it('acts in its organization and, with inheritance, below it; anywhere else is AGENT_PERMISSION_DENIED', async () => {
    const { token } = await delegate(t, owner, { organization: 'acme', permissions: ['org.view', 'org.manage'] });
    assert.equal(expectStatus(await agent('GET', 'organizations/detail/', token, 'acme'), 200).slug, 'acme');
    expectStatus(await agent('GET', 'organizations/members/', token, 'acme'), 200);
    expectStatus(await agent('GET', 'organizations/tree/', token, 'acme-eu'), 200);
    assert.equal(expectStatus(await agent('PATCH', 'organizations/update/', token, 'acme-eu', { description: 'by agent' }), 200).description, 'by agent');
    expectError(await agent('GET', 'organizations/detail/', token, 'globex'), 403, 'AGENT_PERMISSION_DENIED');
    // Granted org.view and org.manage only: inviting is not.
    expectError(await agent('POST', 'organizations/invitations/', token, 'acme', { email: 'x@example.com' }), 403, 'AGENT_PERMISSION_DENIED');
    expectError(await agent('GET', 'organizations/detail/', token, 'nowhere'), 404, 'ORG_NOT_FOUND');
    expectError(await agent('GET', 'organizations/detail/', token), 400, 'ORG_SLUG_REQUIRED');
  });

  it('follows the delegating user\'s current role there', async () => {
    const { token } = await delegate(t, member, { organization: 'acme', permissions: ['org.view'] });
    expectStatus(await agent('GET', 'organizations/detail/', token, 'acme'), 200);
    await t.container.db.deleteFrom('organization_members').where('user_id', '=', member.id).execute();
    expectError(await agent('GET', 'organizations/detail/', token, 'acme'), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('a token without an organization holds no organization permission, even a superuser\'s', async () => {
    const root = await account(t, { email: 'root@example.com', is_superuser: true });
    await join(t, 'acme', root, 'owner');
    expectError(await userApi(t)('POST', 'ai/tokens/', root, { agent_id: 'x', permissions: ['org.view'] }), 400, 'PERMISSIONS_NOT_FOUND');
    const { token } = await delegate(t, root, { permissions: ['roles.view'] });
    expectError(await agent('GET', 'organizations/detail/', token, 'acme'), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('keeps organization tokens out of the routes that are not the organization\'s', async () => {
    const { token } = await delegate(t, owner, { organization: 'acme', permissions: ['org.view'] });
    expectError(await agent('GET', 'roles/', token), 403, 'AGENT_PERMISSION_DENIED');
    expectStatus(await agent('GET', 'me/', token), 200);
    // Listing one's organizations and creating one declare no permission: closed to agents.
    expectError(await agent('GET', 'organizations/list/', token), 403, 'AGENT_NOT_ALLOWED');
    expectError(await agent('POST', 'organizations/', token, undefined, { name: 'Evil', slug: 'evil' }), 403, 'AGENT_NOT_ALLOWED');
  });

  it('reads me/ with X-Org-Slug in its organization only', async () => {
    const { token } = await delegate(t, owner, { organization: 'acme', permissions: ['org.view'] });
    assert.equal(expectStatus(await agent('GET', 'me/', token, 'acme-eu'), 200).organization_context.current_org.slug, 'acme-eu');
    expectError(await agent('GET', 'me/roles/', token, 'globex'), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('without inheritance, a token acts in its own organization only', async () => {
    const flat = await createTestApp({ now: NOW, env: { ...AGENT_ENV, ...ORG_ENV, SVC_ORG_ROLE_INHERITANCE: 'false' } });
    try {
      const boss = await account(flat, { email: 'boss@example.com' });
      await createOrg(flat, boss, 'top');
      await createOrg(flat, boss, 'top-child', 'top');
      await join(flat, 'top-child', boss, 'owner');
      const { token } = await delegate(flat, boss, { organization: 'top', permissions: ['org.view'] });
      expectStatus(await agentApi(flat)('GET', 'organizations/detail/', token, undefined, { 'x-org-slug': 'top' }), 200);
      expectError(await agentApi(flat)('GET', 'organizations/detail/', token, undefined, { 'x-org-slug': 'top-child' }), 403,
        'AGENT_PERMISSION_DENIED');
    } finally {
      await flat.close();
    }
  });
});
