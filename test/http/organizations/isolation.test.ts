import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { accounts, createOrg, expectStatus, join, ORG_ENV, orgApi, type Account } from './helpers.js';

/** Tenant isolation from the attacker's side: an owner of A aims every organization route at B. */
describe('organizations: tenant isolation', () => {
  const t = useTestApp({ env: ORG_ENV });
  const api = orgApi(t);
  let mallory: Account;
  let victim: Account;
  let bMember: Account;
  let bId: number;
  beforeEach(async () => {
    [mallory, victim, bMember] = await accounts(t, 'mallory', 'victim', 'bmember');
    await createOrg(t, mallory, 'org-a');
    bId = (await createOrg(t, victim, 'org-b', undefined, { metadata: { secret: 'b-only' } })).id;
    await createOrg(t, victim, 'org-b-child', 'org-b');
    await join(t, 'org-b', bMember, 'member');
  });

  /** B as its owner sees it: nothing an attack may change. */
  async function snapshotOfB() {
    const detail = expectStatus(await api('GET', 'organizations/detail/', victim, { slug: 'org-b' }), 200);
    const members = expectStatus(await api('GET', 'organizations/members/', victim, { slug: 'org-b' }), 200);
    return { detail: { ...detail, updated_at: undefined }, members: members.results };
  }

  it('answers 403 NOT_MEMBER on every organization route aimed at B, and B is unchanged', async () => {
    const before = await snapshotOfB();
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', 'organizations/detail/'], ['GET', 'organizations/tree/'], ['GET', 'organizations/members/'],
      ['PATCH', 'organizations/update/', { name: 'pwned', max_members: 1 }], ['DELETE', 'organizations/delete/'],
      ['POST', 'organizations/members/add/', { user_id: mallory.id, role_code: 'admin' }],
      ['PATCH', `organizations/members/${bMember.id}/`, { role_code: 'admin' }],
      ['DELETE', `organizations/members/${bMember.id}/remove/`],
      ['PATCH', `organizations/members/${mallory.id}/`, { role_code: 'owner' }],
    ];
    for (const [method, path, payload] of attempts) {
      const res = await api(method as 'GET', path, mallory, { slug: 'org-b', payload });
      assert.equal(res.statusCode, 403, `${method} ${path}: ${res.body}`);
      assert.equal(res.json().code, 'NOT_MEMBER', `${method} ${path}`);
      assert.equal(res.body.includes('b-only'), false);
    }
    assert.deepEqual(await snapshotOfB(), before);
  });

  it('answers the same 403 NOT_MEMBER for B\'s child, which B\'s roles reach and mallory\'s do not', async () => {
    assert.equal(expectStatus(await api('GET', 'organizations/detail/', mallory, { slug: 'org-b-child' }), 403).code, 'NOT_MEMBER');
  });

  it('answers 404 MEMBER_NOT_FOUND for a member of B named in A\'s member paths, and changes nothing in B', async () => {
    assert.equal(expectStatus(await api('PATCH', `organizations/members/${bMember.id}/`, mallory, { slug: 'org-a', payload: { role_code: 'admin' } }), 404).code,
      'MEMBER_NOT_FOUND');
    assert.equal(expectStatus(await api('DELETE', `organizations/members/${victim.id}/remove/`, mallory, { slug: 'org-a' }), 404).code,
      'MEMBER_NOT_FOUND');
    const members = expectStatus(await api('GET', 'organizations/members/', victim, { slug: 'org-b' }), 200);
    assert.deepEqual(members.results.map((m: { role: string }) => m.role).sort(), ['member', 'owner']);
  });

  it('never lets B be a parent of A\'s organizations: B is an unknown parent to mallory', async () => {
    const unknown = { parent_id: ['Unknown parent organization.'] };
    assert.deepEqual(expectStatus(await api('POST', 'organizations/', mallory, { payload: { name: 'X', slug: 'inside-b', parent_id: bId } }), 400), unknown);
    assert.deepEqual(expectStatus(await api('PATCH', 'organizations/update/', mallory, { slug: 'org-a', payload: { parent_id: bId } }), 400).details, unknown);
    const tree = expectStatus(await api('GET', 'organizations/tree/', victim, { slug: 'org-b' }), 200);
    assert.deepEqual(tree.children.map((c: { slug: string }) => c.slug), ['org-b-child']);
  });

  it('lists none of B\'s organizations for mallory', async () => {
    const list = expectStatus(await api('GET', 'organizations/list/?page_size=100', mallory), 200);
    assert.deepEqual(list.results.map((o: { slug: string }) => o.slug), ['org-a']);
  });

  it('lets a member of B not raise its own role, nor add itself as owner', async () => {
    assert.equal(expectStatus(await api('PATCH', `organizations/members/${bMember.id}/`, bMember, { slug: 'org-b', payload: { role_code: 'owner' } }), 403).code,
      'INSUFFICIENT_PERMISSIONS');
    assert.equal(expectStatus(await api('POST', 'organizations/members/add/', bMember, { slug: 'org-b', payload: { user_id: mallory.id } }), 403).code,
      'INSUFFICIENT_PERMISSIONS');
  });
});
