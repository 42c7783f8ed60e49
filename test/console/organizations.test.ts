import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createUser, type TestUser } from '../factories/users.js';
import { describeInBrowser } from '../helpers/browser.js';
import { createOperator, PHONE, startConsole, type ConsoleServer } from './harness.js';

describeInBrowser('the console\'s Organizations page in Chromium', () => {
  let c: ConsoleServer;
  let bob: TestUser;

  before(async () => {
    c = await startConsole({ env: { SVC_ORGANIZATIONS_ENABLED: 'true' } });
    // The operator invites by email, which takes a verified address (docs/organizations.md).
    await c.t.container.db.updateTable('users').set({ is_email_verified: true }).where('id', '=', c.operator.id).execute();
    bob = await createUser(c.t, { email: 'bob@example.com', first_name: 'Bob', last_name: '<i>Builder</i>' });
  });
  after(async () => { await c?.close(); });

  /** The operator's access token, signed in through the API (the clock moves a TOTP step on, so the code is new). */
  const operatorToken = async () => {
    c.t.clock.advance(30);
    const { email, password } = c.operator;
    const res = await c.t.api({ method: 'POST', path: 'login/email/', payload: { email, password, totp_code: c.operator.code() } });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { access_token: string }).access_token;
  };

  it('creates an organization and a sub-organization, shows both in the tree, adds a member, changes its role and invites by email', async () => {
    const { page, problems, refusals } = await c.signedIn({ hash: '#/organizations' });
    const create = page.getByRole('region', { name: 'New organization' });
    await create.getByLabel('Name').fill('Acme Corporation');
    assert.equal(await create.getByLabel('Slug').inputValue(), 'acme-corporation', 'the slug is suggested from the name');
    await create.getByLabel('Description').fill('Makers of <script>alert(1)</script> anvils');
    await create.getByRole('button', { name: 'Create organization' }).click();
    await create.getByRole('status').filter({ hasText: 'Created Acme Corporation.' }).waitFor();
    const tree = page.getByRole('list', { name: 'Organizations' });
    await tree.getByRole('link', { name: 'Acme Corporation' }).waitFor();

    await create.getByLabel('Name').fill('Engineering');
    await create.getByLabel('Slug').fill('acme-eng');
    await create.getByLabel('Parent').selectOption({ label: 'Acme Corporation (acme-corporation)' });
    await create.getByLabel('Member limit').fill('25');
    await create.getByRole('button', { name: 'Create organization' }).click();
    await create.getByRole('status').filter({ hasText: 'Created Engineering.' }).waitFor();
    await page.getByRole('button', { name: 'Show sub-organizations of Acme Corporation' }).click();
    await tree.getByRole('link', { name: 'Engineering' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Hide sub-organizations of Acme Corporation' }).getAttribute('aria-expanded'), 'true');
    await c.screenshot(page, 'organizations-tree');

    const orgs = await c.t.container.db.selectFrom('organizations').select(['id', 'slug', 'parent_id', 'max_members', 'description'])
      .orderBy('id').execute();
    assert.deepEqual(orgs.map((o) => [o.slug, o.parent_id, o.max_members]), [['acme-corporation', null, 0], ['acme-eng', orgs[0]!.id, 25]]);
    assert.equal(orgs[0]!.description, 'Makers of <script>alert(1)</script> anvils');

    // The detail: the operator (its owner) is a member; Bob is added by id, then made an admin.
    await tree.getByRole('link', { name: 'Acme Corporation' }).click();
    await page.getByRole('heading', { level: 2, name: 'Acme Corporation' }).waitFor();
    assert.equal(await page.locator('p.org-description').textContent(), 'Makers of <script>alert(1)</script> anvils');
    await page.getByLabel('User id').fill(String(bob.id));
    await page.getByLabel('Role for the new member').selectOption('member');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('status').filter({ hasText: 'Bob <i>Builder</i> was added.' }).waitFor();
    await page.getByLabel('Role of Bob <i>Builder</i>').selectOption('admin');
    await page.getByRole('status').filter({ hasText: 'Bob <i>Builder</i> is now admin.' }).waitFor();
    const token = await operatorToken();
    const members = await c.t.api({ method: 'GET', path: 'organizations/acme-corporation/members/', token });
    assert.deepEqual((members.json() as { results: Array<{ email: string; role: { code: string } }> }).results
      .map((m) => [m.email, m.role.code]).sort(), [['bob@example.com', 'admin'], ['operator@example.com', 'owner']]);

    // An invitation by email with a role and an expiry: stored, listed by the API, and mailed.
    await page.getByLabel('Email to invite').fill('carol@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByLabel('Expires in (days)').fill('14');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent to carol@example.com.' }).waitFor();
    await page.getByRole('table', { name: 'Invitations' }).getByRole('cell', { name: 'carol@example.com', exact: true }).waitFor();
    const listed = await c.t.api({ method: 'GET', path: 'organizations/invitations/', token, headers: { 'x-org-slug': 'acme-corporation' } });
    const [invitation] = (listed.json() as { results: Array<{ email: string; role: string; status: string; expires_at: string }> }).results;
    assert.deepEqual([invitation?.email, invitation?.role, invitation?.status], ['carol@example.com', 'admin', 'pending']);
    const days = (Date.parse(invitation!.expires_at) - c.t.clock.now().getTime()) / 86_400_000;
    assert.ok(days > 13.9 && days <= 14, `expires in ${days} days`);
    await c.t.container.services.outbox.flush();
    const mail = c.t.container.inbox.emails.filter((m) => m.to === 'carol@example.com');
    assert.equal(mail.length, 1);
    assert.match(mail[0]!.text, /Acme Corporation/);

    // A refusal in words: the same address again is a member-free pending invite (accepted), but Bob is already a member.
    await page.getByLabel('Email to invite').fill('bob@example.com');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('alert').filter({ hasText: 'ALREADY_MEMBER' }).waitFor();
    await c.screenshot(page, 'organizations-detail');

    // Revoking the pending invitation, from the organization's list (X-Org-Slug routes).
    await page.getByRole('button', { name: 'Revoke the invitation to carol@example.com' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation to carol@example.com revoked.' }).waitFor();
    const after = await c.t.api({ method: 'GET', path: 'organizations/invitations/?status=revoked', token, headers: { 'x-org-slug': 'acme-corporation' } });
    assert.deepEqual((after.json() as { results: Array<{ email: string }> }).results.map((i) => i.email), ['carol@example.com']);
    await page.getByLabel('Invitation status').selectOption('revoked');
    await page.getByRole('table', { name: 'Invitations' }).getByRole('cell', { name: 'revoked', exact: true }).waitFor();
    assert.equal(await page.locator('i, script:not([src])').count(), 0, 'user text was rendered as markup');
    await page.close();
    assert.deepEqual(problems, []);
    // The authenticator-code step of the sign-in, then ALREADY_MEMBER.
    assert.deepEqual(refusals, [401, 400]);
  });

  it('works at 390×844: the tree and the detail fit the screen', async () => {
    const { page, problems } = await c.signedIn({ hash: '#/organizations', viewport: PHONE });
    await page.getByRole('button', { name: 'Show sub-organizations of Acme Corporation' }).click();
    await page.getByRole('link', { name: 'Engineering' }).waitFor();
    let width = await page.evaluate('document.documentElement.scrollWidth') as number;
    assert.ok(width <= PHONE.width, `the tree is ${width}px wide`);
    await c.screenshot(page, 'organizations-tree-phone');
    await page.getByRole('link', { name: 'Engineering' }).click();
    await page.getByRole('heading', { level: 2, name: 'Engineering' }).waitFor();
    await page.getByRole('link', { name: 'Acme Corporation' }).waitFor();
    await page.waitForLoadState('networkidle');
    width = await page.evaluate('document.documentElement.scrollWidth') as number;
    assert.ok(width <= PHONE.width, `the detail is ${width}px wide`);
    await c.screenshot(page, 'organizations-detail-phone');
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('lists the organizations the operator is a member of, and says how many exist and why the others are not listed', async () => {
    // Two organizations of Bob's, where the operator holds no role: the dashboard counts them, the tree cannot list them.
    const bobs = { userId: bob.id, email: bob.email, meta: { applicationId: null, ip: null, userAgent: null, requestId: null }, agent: null };
    await c.t.container.services.organizations.create(bobs, { name: 'Initech', slug: 'initech' });
    await c.t.container.services.organizations.create(bobs, { name: 'Umbrella', slug: 'umbrella' });

    const { page, problems, refusals } = await c.signedIn({ hash: '#/organizations' });
    const tree = page.getByRole('list', { name: 'Organizations' });
    await tree.getByRole('link', { name: 'Acme Corporation' }).waitFor();
    const note = page.getByRole('note');
    await note.filter({ hasText: '4 organizations exist; you see the 2 you are a member of (directly or through a parent).' }).waitFor();
    assert.match((await note.textContent())!, /a global role, admin included, gives no role in them/);
    assert.equal(await tree.getByRole('link', { name: 'Initech' }).count(), 0);
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401]);

    // An administrator who belongs to none: not "No organization yet", but what exists and why none is listed.
    const newcomer = await createOperator(c.t, { email: 'newcomer@example.com', first_name: 'Nina', last_name: 'Newcomer' });
    const second = await c.signedIn({ who: newcomer, hash: '#/organizations' });
    await second.page.getByText('You are a member of no organization.').waitFor();
    await second.page.getByRole('note').filter({ hasText: '4 organizations exist; you are a member of none of them.' }).waitFor();
    assert.equal(await second.page.getByText('No organization yet.').count(), 0);
    await c.screenshot(second.page, 'organizations-none-of-mine');
    await second.page.close();
    assert.deepEqual(second.problems, []);
    assert.deepEqual(second.refusals, [401]);
  });

  it('says in words when organizations are switched off', async () => {
    // A second server, with the setting off: its own API answers FEATURE_DISABLED.
    const off = await startConsole({ env: { SVC_ORGANIZATIONS_ENABLED: 'false' }, operatorEmail: 'operator.off@example.com' });
    try {
      const { page, problems, refusals } = await off.signedIn({ hash: '#/organizations' });
      await page.getByRole('alert').filter({ hasText: 'FEATURE_DISABLED' }).waitFor();
      await page.getByText('Organizations are switched off on this server.').waitFor();
      await off.screenshot(page, 'organizations-disabled');
      await page.close();
      assert.deepEqual(problems, []);
      assert.deepEqual(refusals, [401, 404]);
    } finally {
      await off.close();
    }
  });
});
