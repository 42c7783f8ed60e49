import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createRole } from '../factories/rbac.js';
import { deviceInfo, openSession, signIn } from '../factories/sessions.js';
import { enableTotp } from '../factories/twofactor.js';
import { createUser, userRow, type TestUser } from '../factories/users.js';
import { describeInBrowser } from '../helpers/browser.js';
import { createOperator, PHONE, startConsole, type ConsoleServer } from './harness.js';

const MARKUP = '<img src=x onerror=alert(1)>';

const PEOPLE = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth', 'Frances Allen',
  'Ken Thompson', 'Margaret Hamilton', 'Dennis Ritchie', 'Radia Perlman', 'John Backus', 'Karen Sparck', 'Tony Hoare',
  'Shafi Goldwasser', 'Leslie Lamport', 'Sophie Wilson', 'Niklaus Wirth', 'Adele Goldberg', 'Butler Lampson', 'Jean Sammet',
  'Robin Milner', 'Hedy Lamarr', 'Vint Cerf'];

describeInBrowser('the console\'s Users page in Chromium', () => {
  let c: ConsoleServer;
  let zoe: TestUser;
  /** An access token of the operator, to check through the API what the page did. */
  let token: string;

  before(async () => {
    c = await startConsole();
    for (const full of PEOPLE) {
      const [first_name, last_name] = full.split(' ') as [string, string];
      await createUser(c.t, { first_name, last_name, email: `${first_name}.${last_name}@example.com`.toLowerCase() });
    }
    zoe = await createUser(c.t, { first_name: 'Zoe', last_name: 'Quinn', email: 'zoe.quinn@example.com' });
    await createUser(c.t, { first_name: MARKUP, last_name: 'Markup', email: 'markup@example.com' });
    const support = await createRole(c.t.container.db, 'support', ['users.view', 'audit.view']);
    await c.t.container.db.updateTable('roles').set({ name: 'Support agent' }).where('id', '=', support.id).execute();
    // Three sessions on three devices, for the sessions and devices sections: two that send a fingerprint, and curl,
    // which sends none (the API describes it from its User-Agent).
    await signIn(c.t, zoe, { device_info: deviceInfo(1) });
    await signIn(c.t, zoe, { device_info: deviceInfo(2) });
    await signIn(c.t, zoe, { headers: { 'user-agent': 'curl/8.5.0' } });
    ({ access_token: token } = await openSession(c.t, c.operator.id));
  });
  after(async () => { await c?.close(); });

  it('pages through the accounts, searches with the filters kept in the URL, and shows a markup name as text', async () => {
    const { page, problems, refusals } = await c.signedIn({ hash: '#/users' });
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    const table = page.getByRole('table', { name: 'Accounts' });
    await page.getByText('Page 1 of 2 · 27 in all').waitFor();
    assert.equal(await table.locator('tbody tr').count(), 20);
    // The newest account first: the one whose name is markup, shown as text, with no element made of it.
    await table.getByRole('link', { name: `${MARKUP} Markup` }).waitFor();
    assert.equal(await page.locator('main img').count(), 0, 'a name was rendered as markup');
    await c.screenshot(page, 'users-list');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2 · 27 in all').waitFor();
    await table.getByRole('link', { name: 'Ada Lovelace' }).waitFor();

    await page.getByLabel('Search').fill('zoe.quinn');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Page 1 of 1 · 1 in all').waitFor();
    assert.match(page.url(), /#\/users\?search=zoe\.quinn$/);
    await table.getByRole('link', { name: 'Zoe Quinn' }).waitFor();
    // A reload keeps the filters: they are the URL's.
    await page.reload();
    await page.getByText('Page 1 of 1 · 1 in all').waitFor();
    assert.equal(await page.getByLabel('Search').inputValue(), 'zoe.quinn');

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Staff').selectOption('true');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Page 1 of 1 · 1 in all').waitFor();
    await table.getByRole('link', { name: 'Olivia Operator' }).waitFor();
    assert.match(page.url(), /is_staff=true/);
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401], 'only the authenticator step');
  });

  it('shows an account, revokes a session, assigns a role, locks and unlocks, bans and unbans, forces a password change', async () => {
    const { page, problems, refusals } = await c.signedIn({ hash: `#/users/${zoe.id}` });
    await page.getByRole('heading', { level: 2, name: 'Zoe Quinn' }).waitFor();
    const sessions = page.getByRole('table', { name: 'Sessions (refresh tokens)' });
    // Each device as the API's device_summary words it; "Unknown device" nowhere, since the API knows each client.
    await sessions.getByText('Acme 2.1 on Phone 1 (Android 1)').waitFor();
    const devices = page.getByRole('table', { name: 'Devices' });
    await devices.getByText('Acme 2.1 on Phone 2 (Android 2)').waitFor();
    await devices.getByRole('cell', { name: 'curl', exact: true }).waitFor();
    await sessions.getByRole('cell', { name: 'curl', exact: true }).waitFor();
    assert.equal(await page.getByText('Unknown device').count(), 0);
    await c.screenshot(page, 'users-detail');

    // Revoke one session, with the inline confirmation.
    await sessions.getByRole('row').filter({ hasText: 'Phone 1' }).getByRole('button', { name: /^Revoke session/ }).click();
    await page.getByRole('button', { name: 'Confirm revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Session revoked' }).waitFor();
    await sessions.getByText('Acme 2.1 on Phone 1 (Android 1)').waitFor({ state: 'detached' });
    const live = await c.t.api({ method: 'GET', path: `admin/refresh-tokens/?user_id=${zoe.id}&is_revoked=false`, token });
    assert.deepEqual((live.json() as { results: Array<{ device_info: string | null; device_summary: string | null }> }).results
      .map((r) => [r.device_info, r.device_summary]), [[null, 'curl'], [deviceInfo(2), 'Acme 2.1 on Phone 2 (Android 2)']]);

    // Assign the role.
    await page.getByLabel('Role to assign').selectOption('support');
    await page.getByRole('button', { name: 'Assign role' }).click();
    await page.getByRole('status').filter({ hasText: 'Role support assigned.' }).waitFor();
    await page.getByRole('list', { name: 'Roles held' }).getByText('Support agent').waitFor();
    const roles = await c.t.api({ method: 'GET', path: `users/${zoe.id}/roles/`, token });
    assert.deepEqual((roles.json() as { roles: Array<{ code: string }> }).roles.map((r) => r.code).sort(), ['support', 'user']);

    // Lock: sign-in answers 423 ACCOUNT_LOCKED; unlock: it works again.
    await page.getByLabel('Lock duration (minutes)').fill('15');
    await page.getByLabel('Lock reason').fill('Suspicious sign-ins');
    await page.getByRole('button', { name: 'Lock account' }).click();
    await page.getByRole('status').filter({ hasText: 'User locked' }).waitFor();
    await page.getByText(/^Locked until .+\.$/).waitFor();
    const login = () => c.t.api({ method: 'POST', path: 'login/email/', payload: { email: zoe.email, password: zoe.password } });
    const locked = await login();
    assert.equal(locked.statusCode, 423, locked.body);
    assert.equal((locked.json() as { code: string }).code, 'ACCOUNT_LOCKED');
    await c.screenshot(page, 'users-detail-locked');
    await page.getByRole('button', { name: 'Unlock account' }).click();
    await page.getByRole('status').filter({ hasText: 'User unlocked' }).waitFor();
    assert.equal((await userRow(c.t, zoe.id)).locked_until, null);
    assert.equal((await login()).statusCode, 200);

    // Ban, confirmed inline, then unban.
    await page.getByLabel('Ban reason').fill('Spam');
    await page.getByRole('button', { name: 'Ban account' }).click();
    await page.getByRole('button', { name: 'Confirm ban' }).click();
    await page.getByRole('status').filter({ hasText: 'User banned' }).waitFor();
    let row = await userRow(c.t, zoe.id);
    assert.deepEqual([row.is_banned, row.ban_reason], [true, 'Spam']);
    await page.getByText('Banned: Spam.').waitFor();
    await page.getByRole('button', { name: 'Unban account' }).click();
    await page.getByRole('status').filter({ hasText: 'User unbanned' }).waitFor();
    row = await userRow(c.t, zoe.id);
    assert.deepEqual([row.is_banned, row.ban_reason], [false, null]);

    // Force a password change.
    await page.getByRole('button', { name: 'Force password change' }).click();
    await page.getByRole('status').filter({ hasText: 'must change their password' }).waitFor();
    assert.equal((await userRow(c.t, zoe.id)).must_change_password, true);
    await page.getByRole('button', { name: 'Cancel the requirement' }).waitFor();
    await c.screenshot(page, 'users-detail-actions');
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401], 'only the authenticator step');
  });

  it('fits a phone: the list and the detail at 390×844', async () => {
    await signIn(c.t, zoe, { device_info: deviceInfo(3) });
    const { page, problems } = await c.signedIn({ viewport: PHONE, hash: '#/users' });
    await page.getByText('Page 1 of 2 · 27 in all').waitFor();
    // Nothing wider than the screen but the tables, which scroll inside their own box.
    assert.ok(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'the page scrolls sideways');
    await c.screenshot(page, 'users-list-phone');
    await page.goto(`${c.origin}/console/#/users/${zoe.id}`);
    await page.getByRole('heading', { level: 2, name: 'Zoe Quinn' }).waitFor();
    await page.getByRole('table', { name: 'Sessions (refresh tokens)' }).getByText('Acme 2.1 on Phone 3 (Android 3)').waitFor();
    assert.ok(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'the detail scrolls sideways');
    await c.screenshot(page, 'users-detail-phone');
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('shows an operator without users.manage the 403 in words when they try to lock, and changes nothing', async () => {
    await c.t.container.db.updateTable('users').set({ locked_until: null }).where('id', '=', zoe.id).execute();
    await createRole(c.t.container.db, 'viewer', ['users.view']);
    // An account without a name: the top bar shows its email once, in the name's place.
    const viewer = await createOperator(c.t, { email: 'viewer@example.com', first_name: '', last_name: '' }, ['viewer']);
    const { page, problems, refusals } = await c.signedIn({ who: viewer, hash: `#/users/${zoe.id}` });
    await page.getByRole('heading', { level: 2, name: 'Zoe Quinn' }).waitFor();
    assert.equal(await page.locator('header .who').textContent(), 'viewer@example.com');
    assert.equal(await page.locator('header .who strong').textContent(), 'viewer@example.com');
    await page.getByLabel('Lock reason').fill('Trying');
    await page.getByRole('button', { name: 'Lock account' }).click();
    const alert = page.getByRole('region', { name: 'Actions' }).getByRole('alert');
    await alert.filter({ hasText: 'PERMISSION_DENIED' }).waitFor();
    assert.match((await alert.textContent())!, /^PERMISSION_DENIED You do not have permission/);
    assert.equal((await userRow(c.t, zoe.id)).locked_until, null);
    await c.screenshot(page, 'users-detail-denied');
    await page.close();
    assert.deepEqual(problems, []);
    // The authenticator step, then the refusals: roles and sessions need more than users.view, and the lock.
    assert.equal(refusals[0], 401);
    assert.ok(refusals.slice(1).every((status) => status === 403) && refusals.includes(403), String(refusals));
  });

  // see: "A newcomer's first hour works as written" — a person who lost their authenticator had no way back in.
  it('resets the two-factor authentication of a person who lost it, once confirmed inline', async () => {
    await enableTotp(c.t, zoe);
    const { page, problems, refusals } = await c.signedIn({ hash: `#/users/${zoe.id}` });
    const actions = page.getByRole('region', { name: 'Actions' });
    await actions.getByText('On: an authenticator app and backup codes.').waitFor();
    await actions.getByRole('button', { name: 'Reset two-factor authentication' }).click();
    const confirm = actions.getByRole('group', { name: 'Confirm the two-factor reset' });
    await confirm.getByText(/every session ends/).waitFor();
    await c.screenshot(page, 'users-detail-reset-2fa');
    // Cancel changes nothing; confirm resets.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await userRow(c.t, zoe.id)).is_2fa_enabled, true);
    await actions.getByRole('button', { name: 'Reset two-factor authentication' }).click();
    await confirm.getByRole('button', { name: 'Confirm reset' }).click();
    await page.getByRole('status').filter({ hasText: /^Two-factor authentication reset/ }).waitFor();
    await actions.getByText('Not set up.').waitFor();
    assert.equal((await userRow(c.t, zoe.id)).is_2fa_enabled, false);
    const login = await c.t.api({ method: 'POST', path: 'login/email/', payload: { email: zoe.email, password: zoe.password } });
    assert.equal(login.statusCode, 200, 'the password alone signs in');
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401], 'only the authenticator step');
  });
});
