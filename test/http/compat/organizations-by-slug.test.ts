import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { agentApi, delegate, expectError } from '../agents/helpers.js';
import { accounts, auditEvents, createOrg, expectStatus, join, ORG_ENV, verifyEmails, type Account } from '../organizations/helpers.js';

/** What the SDK's HTTP client sends on every call (the application headers are added by `t.api`). */
const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** SDK compatibility (docs/migrating-from-tenxyte.md): the organization family keyed by the slug in the path, beside Gatehouse's own organization routes. */
describe('SDK compatibility: organizations keyed by slug', () => {
  const t = useTestApp({ env: ORG_ENV });
  let owner: Account;
  let admin: Account;
  let member: Account;
  let outsider: Account;
  beforeEach(async () => {
    [owner, admin, member, outsider] = await accounts(t, 'owner', 'admin', 'member', 'outsider');
    await createOrg(t, owner, 'acme');
    await join(t, 'acme', admin, 'admin');
    await join(t, 'acme', member, 'member');
    await createOrg(t, outsider, 'zeta');
  });

  /** A call as the SDK makes it; `switched` is the slug of `switchOrganization`, sent as X-Org-Slug. */
  const sdk = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, who: Account, payload?: object, switched?: string) =>
    t.api({ method, path, token: who.token, headers: { ...SDK_HEADERS, ...(switched ? { 'x-org-slug': switched } : {}) },
      ...(payload ? { payload } : {}) });

  it('GET organizations/ lists my organizations as a paged list', async () => {
    const body = expectStatus(await sdk('GET', 'organizations/?page=1&page_size=10', member), 200);
    assert.deepEqual({ ...body, results: body.results.map((o: { slug: string }) => o.slug) },
      { count: 1, page: 1, page_size: 10, total_pages: 1, next: null, previous: null, results: ['acme'] });
    assert.equal(expectStatus(await sdk('GET', 'organizations/', outsider), 200).results[0].slug, 'zeta');
  });

  it('GET organizations/roles/ answers what org-roles/ answers', async () => {
    const roles = expectStatus(await sdk('GET', 'organizations/roles/', member), 200);
    assert.deepEqual(roles, expectStatus(await sdk('GET', 'org-roles/', member), 200));
    assert.deepEqual(roles.map((r: { code: string }) => r.code), ['owner', 'admin', 'member']);
  });

  it('GET organizations/<slug>/ answers the path\'s organization, whatever X-Org-Slug says', async () => {
    const org = expectStatus(await sdk('GET', 'organizations/acme/', admin, undefined, 'zeta'), 200);
    assert.deepEqual([org.slug, org.member_count, org.user_role, org.children], ['acme', 3, 'admin', []]);
    expectError(await sdk('GET', 'organizations/zeta/', admin, undefined, 'acme'), 403, 'NOT_MEMBER');
  });

  it('PATCH organizations/<slug>/ needs org.manage, and is audited', async () => {
    const updated = expectStatus(await sdk('PATCH', 'organizations/acme/', owner, { name: 'Acme Inc', max_members: 10 }), 200);
    assert.deepEqual([updated.name, updated.max_members], ['Acme Inc', 10]);
    expectError(await sdk('PATCH', 'organizations/acme/', admin, { name: 'x' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await sdk('PATCH', 'organizations/acme/', owner, { max_members: 2 }), 400, 'INVALID_MEMBER_LIMIT');
    assert.deepEqual((await auditEvents(t, 'organization_updated')).map((e) => e.actor_id), [owner.id]);
  });

  it('DELETE organizations/<slug>/ is the owner\'s, refused while it has children', async () => {
    await createOrg(t, owner, 'acme-eu', 'acme');
    expectError(await sdk('DELETE', 'organizations/acme/', admin), 403, 'NOT_OWNER');
    expectError(await sdk('DELETE', 'organizations/acme/', owner), 400, 'HAS_CHILDREN');
    assert.deepEqual(expectStatus(await sdk('DELETE', 'organizations/acme-eu/', owner), 200), { message: 'Organization acme-eu deleted' });
    expectError(await sdk('GET', 'organizations/acme-eu/', owner), 404, 'ORG_NOT_FOUND');
  });

  it('GET organizations/<slug>/tree/ answers the tree below the organization', async () => {
    await createOrg(t, owner, 'acme-eu', 'acme');
    const tree = expectStatus(await sdk('GET', 'organizations/acme/tree/', member), 200);
    assert.deepEqual([tree.slug, tree.depth, tree.children.map((c: { slug: string }) => c.slug)], ['acme', 0, ['acme-eu']]);
  });

  it('GET organizations/<slug>/members/ answers member rows with user_id, email, names and role {code, name}', async () => {
    const body = expectStatus(await sdk('GET', 'organizations/acme/members/?ordering=-role', member), 200);
    assert.deepEqual([body.count, body.page, body.total_pages], [3, 1, 1]);
    const row = body.results.find((r: { user_id: number }) => r.user_id === admin.id);
    assert.deepEqual([row.email, row.first_name, row.last_name, row.role, row.user.id],
      ['admin@example.com', 'admin', '', { code: 'admin', name: 'Admin' }, admin.id]);
    assert.equal(typeof row.joined_at, 'string');
  });

  it('POST organizations/<slug>/members/ adds with the weight rules of members/add/', async () => {
    const add = (who: Account, user_id: number, role_code: string) =>
      sdk('POST', 'organizations/acme/members/', who, { user_id, role_code });
    const added = expectStatus(await add(admin, outsider.id, 'member'), 201);
    assert.deepEqual([added.user_id, added.email, added.role], [outsider.id, 'outsider@example.com', { code: 'member', name: 'Member' }]);
    expectError(await add(owner, member.id, 'owner'), 400, 'INVALID_ROLE_FOR_OWNER');
    expectError(await add(member, owner.id, 'member'), 403, 'INSUFFICIENT_PERMISSIONS');
    assert.deepEqual((await auditEvents(t, 'organization_member_added')).map((e) => [e.user_id, e.actor_id]), [[outsider.id, admin.id]]);
  });

  it('PATCH organizations/<slug>/members/<user_id>/ changes a role and answers the member row', async () => {
    const changed = expectStatus(await sdk('PATCH', `organizations/acme/members/${member.id}/`, admin, { role_code: 'admin' }), 200);
    assert.deepEqual([changed.user_id, changed.role], [member.id, { code: 'admin', name: 'Admin' }]);
    assert.equal(typeof changed.updated_at, 'string');
    const change = (who: Account, userId: number, role_code: string) =>
      sdk('PATCH', `organizations/acme/members/${userId}/`, who, { role_code });
    expectError(await change(admin, member.id, 'member'), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await change(owner, owner.id, 'admin'), 400, 'LAST_OWNER_CANNOT_BE_DEMOTED');
    expectError(await change(owner, outsider.id, 'admin'), 404, 'MEMBER_NOT_FOUND');
  });

  it('DELETE organizations/<slug>/members/<user_id>/ needs org.members.remove, never removes the last owner', async () => {
    expectError(await sdk('DELETE', `organizations/acme/members/${member.id}/`, admin), 403, 'INSUFFICIENT_PERMISSIONS');
    const removed = expectStatus(await sdk('DELETE', `organizations/acme/members/${member.id}/`, owner), 200);
    assert.deepEqual(removed, { message: 'Member removed' });
    expectError(await sdk('DELETE', `organizations/acme/members/${owner.id}/`, owner), 400, 'LAST_OWNER_CANNOT_BE_REMOVED');
    assert.equal(expectStatus(await sdk('GET', 'organizations/acme/members/', owner), 200).count, 2);
  });

  it('POST organizations/<slug>/invitations/ invites into the path\'s organization', async () => {
    await verifyEmails(t, admin, member);
    const invited = expectStatus(await sdk('POST', 'organizations/acme/invitations/', admin,
      { email: 'new@example.com', role_code: 'member', expires_in_days: 3 }), 201);
    assert.deepEqual([invited.email, invited.role, invited.organization.slug, invited.invited_by.id, typeof invited.token],
      ['new@example.com', 'member', 'acme', admin.id, 'string']);
    expectError(await sdk('POST', 'organizations/acme/invitations/', member, { email: 'x@example.com', role_code: 'member' }), 403,
      'INSUFFICIENT_PERMISSIONS');
  });

  it('answers a non-member what the id-keyed routes answer, an unknown slug 404 ORG_NOT_FOUND, and changes nothing', async () => {
    const attempts: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, object?]> = [
      ['GET', 'organizations/acme/'], ['PATCH', 'organizations/acme/', { name: 'pwned' }], ['DELETE', 'organizations/acme/'],
      ['GET', 'organizations/acme/tree/'], ['GET', 'organizations/acme/members/'],
      ['POST', 'organizations/acme/members/', { user_id: outsider.id, role_code: 'admin' }],
      ['PATCH', `organizations/acme/members/${member.id}/`, { role_code: 'admin' }], ['DELETE', `organizations/acme/members/${member.id}/`],
      ['POST', 'organizations/acme/invitations/', { email: 'x@example.com', role_code: 'admin' }],
    ];
    for (const [method, path, payload] of attempts) {
      expectError(await sdk(method, path, outsider, payload, 'acme'), 403, 'NOT_MEMBER');
      expectError(await sdk(method, path.replace('acme', 'nowhere'), outsider, payload), 404, 'ORG_NOT_FOUND');
    }
    const org = expectStatus(await sdk('GET', 'organizations/acme/', owner), 200);
    assert.deepEqual([org.name, org.member_count], ['ACME', 3]);
  });

  it('leaves the fixed organization paths to their own routes: those words are reserved slugs', async () => {
    assert.equal(expectStatus(await sdk('GET', 'organizations/tree/', member, undefined, 'acme'), 200).slug, 'acme');
    assert.equal(typeof expectStatus(await sdk('GET', 'organizations/members/', member, undefined, 'acme'), 200).results[0].role, 'string');
    for (const slug of ['roles', 'tree', 'members', 'detail']) {
      const refused = expectStatus(await sdk('POST', 'organizations/', owner, { name: slug, slug }), 400);
      assert.ok(refused.slug, slug);
    }
  });

  it('holds an agent to its token\'s organization, whatever the path names', async () => {
    const { token } = await delegate(t, owner, { organization: 'acme', permissions: ['org.view'] });
    const agent = agentApi(t);
    assert.equal(expectStatus(await agent('GET', 'organizations/acme/members/', token, undefined, SDK_HEADERS), 200).count, 3);
    await createOrg(t, owner, 'globex');
    expectError(await agent('GET', 'organizations/globex/', token, undefined, { ...SDK_HEADERS, 'x-org-slug': 'acme' }), 403,
      'AGENT_PERMISSION_DENIED');
  });
});
