import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { percentOf } from '../../src/modules/dashboard/period.js';
import { describeInBrowser } from '../helpers/browser.js';
import { signIn } from '../factories/sessions.js';
import { enableTotp } from '../factories/twofactor.js';
import { createUser, type TestUser } from '../factories/users.js';
import { DESKTOP, PHONE, startConsole, type ConsoleServer } from './harness.js';

const DAY = 24 * 3600;
const NO_META = { applicationId: null, ip: null, userAgent: null, requestId: null };

/** Text of the card whose name is `label` (a `<dt>` and its `<dd class="value">`). */
const cardValue = (page: import('playwright-core').Page, label: string) =>
  page.locator('.stat').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd.value').textContent();

describeInBrowser('the console\'s dashboard in Chromium', () => {
  let c: ConsoleServer;

  before(async () => {
    c = await startConsole({ env: { SVC_ORGANIZATIONS_ENABLED: 'true', SVC_MAX_LOGIN_ATTEMPTS: '3' } });
    const { t } = c;
    // Four days of activity: new accounts, successful and failed sign-ins each day, then today.
    const users: TestUser[] = [];
    for (let day = 0; day < 4; day += 1) {
      for (let n = 0; n <= day % 2; n += 1) users.push(await createUser(t, { first_name: `Day${day}`, last_name: `User${n}` }));
      for (const user of users.slice(-3)) await signIn(t, user);
      const res = await t.api({ method: 'POST', path: 'login/email/', payload: { email: users.at(-1)!.email, password: 'wrong password here' } });
      assert.equal(res.statusCode, 401, res.body);
      t.clock.advance(DAY);
    }
    // A second account with two-factor authentication, and one locked by failed attempts (a security incident).
    await enableTotp(t, users[1]!);
    const victim = await createUser(t, { first_name: 'Locked', last_name: 'Out' });
    for (let i = 0; i < 3; i += 1) await t.api({ method: 'POST', path: 'login/email/', payload: { email: victim.email, password: 'guess guess guess' } });
    // A deletion request waiting for its confirmation, for the deletion chart.
    const leaving = await signIn(t, users[2]!);
    const asked = await t.api({ method: 'POST', path: 'request-account-deletion/', token: leaving.access_token,
      payload: { password: users[2]!.password, reason: 'Moving to another service' } });
    assert.equal(asked.statusCode, 201, asked.body);
    // Organizations, for the members chart.
    const owner = { userId: c.operator.id, email: c.operator.email, meta: NO_META, agent: null };
    await t.container.services.organizations.create(owner, { name: 'Acme Corp', slug: 'acme' });
    await t.container.services.organizations.create(owner, { name: 'Globex', slug: 'globex' });
    // The hourly counts the dashboard reads (its job, as `serve` runs it).
    await t.container.services.dashboard.closeSettledHours();
  });
  after(async () => { await c?.close(); });

  it('draws the figures as charts with the real numbers, and asks for the period and the comparison chosen', async () => {
    const { page, problems } = await c.signedIn({ viewport: DESKTOP });
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('heading', { name: 'Two-factor adoption' }).waitFor();
    await page.getByRole('heading', { name: 'Organization members by role' }).waitFor();
    await page.waitForLoadState('networkidle');

    const db = c.t.container.db;
    const accounts = await db.selectFrom('users').select((eb) => [eb.fn.countAll<number>().as('n'),
      sql<number>`count(*) filter (where is_2fa_enabled)`.as('twofa')]).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    assert.equal(await cardValue(page, 'Total users'), String(accounts.n));
    assert.equal(await cardValue(page, 'Organizations'), '2');
    const pending = await db.selectFrom('account_deletion_requests').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['pending', 'confirmation_sent', 'confirmed']).executeTakeFirstOrThrow();
    assert.equal(Number(pending.n), 1);
    assert.equal(await cardValue(page, 'Pending deletions'), '1');
    assert.match((await page.getByRole('img', { name: /^Deletion requests:/ }).getAttribute('aria-label'))!, /^Deletion requests: \w[\w ]+ 1\.$/);
    const rate = percentOf(Number(accounts.twofa), Number(accounts.n));
    assert.ok(rate > 0);
    await page.getByText(`${rate}% of accounts use two-factor authentication`).first().waitFor();
    assert.equal(await page.getByRole('img', { name: /use two-factor authentication/ }).getAttribute('aria-label'),
      `${rate}% of accounts use two-factor authentication.`);

    // The 7-day sign-in chart says in words what it draws: every attempt recorded, by outcome. The console's own
    // sign-ins were first answered 2FA_REQUIRED: second steps, neither successes nor failures.
    const secondStep = sql`failure_reason in ('2fa_required', 'admin_2fa_setup_required')`;
    const attempts = await db.selectFrom('login_attempts').select([
      sql<number>`count(*) filter (where success)::int`.as('ok'),
      sql<number>`count(*) filter (where not success and not ${secondStep})::int`.as('failed'),
      sql<number>`count(*) filter (where ${secondStep})::int`.as('second')]).executeTakeFirstOrThrow();
    assert.ok(attempts.second >= 1, 'the operator\'s sign-in asked for its code');
    const logins = await page.getByRole('img', { name: /^Sign-in attempts of the last 7 days/ }).getAttribute('aria-label');
    assert.match(logins!, new RegExp(`: ${attempts.ok} succeeded, ${attempts.failed} failed, ${attempts.second} second steps? pending\\.`));
    assert.equal(await cardValue(page, 'Sign-in success rate'), `${percentOf(attempts.ok, attempts.ok + attempts.failed)}%`);
    assert.equal(await cardValue(page, 'Second step pending'), String(attempts.second));
    const registrations = await page.getByRole('img', { name: /^Accounts created:/ }).getAttribute('aria-label');
    assert.match(registrations!, /^Accounts created: \d+ in 7 days, most on/);
    assert.match((await page.getByRole('img', { name: /^Security incidents:/ }).getAttribute('aria-label'))!, /^Security incidents: 1 in 7 days/);

    // One drawing per chart, each under its heading.
    const charts = page.locator('section.chart:has(.chart-area)');
    assert.ok(await charts.count() >= 8, `${await charts.count()} charts`);
    for (const chart of await charts.all()) assert.ok(await chart.locator('.chart-area svg').count() > 0, await chart.innerText());

    // The period and the comparison are asked of the API, and the previous period's figures shown.
    const thirty = page.waitForResponse((res) => res.url().includes('dashboard/stats/?period=30d'));
    await page.getByLabel('Period', { exact: true }).selectOption('30d');
    await thirty;
    // The period lands in the address and the figures before the next choice, so the comparison is not undone by it.
    await page.waitForURL(/#\/\?period=30d$/);
    await page.getByRole('img', { name: /^Accounts created: .* in 30 days/ }).waitFor();
    const compared = page.waitForRequest((req) => req.url().includes('dashboard/stats/?period=30d&compare=true'));
    await page.getByLabel('Compare with the previous period').check();
    await compared;
    await page.getByText(/previous period: /).first().waitFor();
    assert.match((await page.getByRole('img', { name: /^Accounts created:/ }).getAttribute('aria-label'))!, / in 30 days/);
    assert.match(page.url(), /#\/\?period=30d&compare=true$/);
    await page.waitForLoadState('networkidle');
    await c.screenshot(page, 'dashboard');

    // A reload keeps the period and the comparison.
    await page.reload();
    await page.getByText(/previous period: /).first().waitFor();
    assert.equal(await page.getByLabel('Period', { exact: true }).inputValue(), '30d');
    assert.equal(await page.getByLabel('Compare with the previous period').isChecked(), true);
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('fits a 390 px screen: charts follow the width, nothing scrolls sideways', async () => {
    const { page, problems } = await c.signedIn({ viewport: PHONE, hash: '#/?period=90d&compare=true' });
    await page.getByRole('heading', { name: 'Two-factor adoption' }).waitFor();
    await page.getByText(/previous period: /).first().waitFor();
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate('document.documentElement.scrollWidth') as number;
    assert.ok(width <= PHONE.width, `the dashboard is ${width}px wide on a ${PHONE.width}px screen`);
    const widest = await page.evaluate(`Math.max(...[...document.querySelectorAll('.chart-area svg.recharts-surface')]
      .map((svg) => svg.getBoundingClientRect().right))`) as number;
    assert.ok(widest <= PHONE.width, `a chart reaches ${widest}px`);
    await c.screenshot(page, 'dashboard-phone');
    await page.close();
    assert.deepEqual(problems, []);
  });
});
