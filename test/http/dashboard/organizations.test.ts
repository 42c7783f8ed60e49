import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { accounts, createOrg, expectStatus, join, ORG_ENV, orgApi, type Account } from '../organizations/helpers.js';
import { grantDirect } from '../../factories/rbac.js';
import { permissionDenied, UNAUTHORIZED } from '../../helpers/answers.js';

/** docs/dashboard.md: GET dashboard/organizations/ (dashboard.view). */
describe('GET dashboard/organizations/', () => {
  const t = useTestApp({ env: ORG_ENV });
  const api = orgApi(t);
  let ann: Account;
  let bob: Account;
  let eve: Account;
  let viewer: Account;
  beforeEach(async () => {
    [ann, bob, eve, viewer] = await accounts(t, 'ann', 'bob', 'eve', 'viewer');
    await grantDirect(t, viewer.id, ['dashboard.view']);
  });

  const figures = async () => expectStatus(await api('GET', 'dashboard/organizations/', viewer), 200);

  it('answers zeros and an empty ranking when there is no organization', async () => {
    assert.deepEqual(await figures(), {
      enabled: true, total_organizations: 0, active: 0, with_sub_orgs: 0,
      members: { total: 0, avg_per_org: 0, by_role: { owner: 0, admin: 0, member: 0 } }, top_organizations: [],
    });
  });

  it('counts organizations, sub-organization parents, active memberships by role, and ranks by active members', async () => {
    await createOrg(t, ann, 'acme');
    await createOrg(t, ann, 'acme-eu', 'acme');
    await createOrg(t, ann, 'acme-eu-fr', 'acme-eu');
    await createOrg(t, ann, 'acme-us', 'acme');
    await createOrg(t, bob, 'solo');
    await createOrg(t, eve, 'dormant');
    await t.container.db.updateTable('organizations').set({ is_active: false }).where('slug', '=', 'dormant').execute();
    await join(t, 'acme', bob, 'admin');
    await join(t, 'acme', eve, 'member');
    await join(t, 'acme-eu', eve, 'member');
    await join(t, 'solo', ann, 'admin');
    await join(t, 'solo', eve, 'member');
    // Only active memberships count.
    await t.container.db.updateTable('organization_members').set({ status: 'inactive' })
      .where('user_id', '=', eve.id).where('organization_id', '=', (await detail('solo', bob)).id).execute();

    assert.deepEqual(await figures(), {
      enabled: true, total_organizations: 6, active: 5, with_sub_orgs: 2,
      members: { total: 10, avg_per_org: 1.67, by_role: { owner: 6, admin: 2, member: 2 } },
      top_organizations: [
        { name: 'ACME', slug: 'acme', members: 3 },
        { name: 'ACME-EU', slug: 'acme-eu', members: 2 },
        { name: 'SOLO', slug: 'solo', members: 2 },
        { name: 'ACME-EU-FR', slug: 'acme-eu-fr', members: 1 },
        { name: 'ACME-US', slug: 'acme-us', members: 1 },
        { name: 'DORMANT', slug: 'dormant', members: 1 },
      ],
    });
  });

  it('ranks ten organizations at most, ties in order of creation', async () => {
    for (let i = 1; i <= 12; i++) await createOrg(t, ann, `org-${i}`);
    await join(t, 'org-12', bob, 'member');
    const top = (await figures()).top_organizations as Array<{ slug: string; members: number }>;
    assert.deepEqual(top.map((o) => o.slug), ['org-12', 'org-1', 'org-2', 'org-3', 'org-4', 'org-5', 'org-6', 'org-7', 'org-8', 'org-9']);
    assert.deepEqual(top.map((o) => o.members), [2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('answers 403 PERMISSION_DENIED without dashboard.view, even to an organization owner', async () => {
    await createOrg(t, ann, 'acme');
    const res = await api('GET', 'dashboard/organizations/', ann, { slug: 'acme' });
    assert.deepEqual(expectStatus(res, 403), permissionDenied('dashboard.view'));
  });

  it('answers 401 UNAUTHORIZED without a bearer token', async () => {
    assert.deepEqual(expectStatus(await api('GET', 'dashboard/organizations/', null), 401), UNAUTHORIZED);
  });

  it('answers {enabled: false} while organizations are off, still only to holders of dashboard.view', async () => {
    const off = await createTestApp({ env: { SVC_ORGANIZATIONS_ENABLED: 'false' } });
    try {
      const [someone, reader] = await accounts(off, 'someone', 'reader');
      await grantDirect(off, reader.id, ['dashboard.view']);
      const offApi = orgApi(off);
      assert.deepEqual(expectStatus(await offApi('GET', 'dashboard/organizations/', reader), 200), { enabled: false });
      assert.deepEqual(expectStatus(await offApi('GET', 'dashboard/organizations/', someone), 403), permissionDenied('dashboard.view'));
    } finally {
      await off.close();
    }
  });

  const detail = async (slug: string, who: Account) => expectStatus(await api('GET', 'organizations/detail/', who, { slug }), 200);
});
