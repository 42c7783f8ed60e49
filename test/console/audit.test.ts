import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeInBrowser } from '../helpers/browser.js';
import { signIn } from '../factories/sessions.js';
import { createUser, type TestUser } from '../factories/users.js';
import { createOperator, PHONE, startConsole, type ConsoleServer } from './harness.js';

const MARKUP = '<img src=x onerror=alert(1)>';
/** Markup an address may hold: one @, no space, a dot in the domain is all an email needs. */
const MARKUP_EMAIL = '<svg/onload=alert(1)>@example.com';

describeInBrowser('the console\'s audit log and login attempts in Chromium', () => {
  let c: ConsoleServer;
  let alice: TestUser;
  let bob: TestUser;

  /** Audit events of `eventType` (of one account), counted in the database. */
  const events = async (eventType: string, userId?: number) => {
    let query = c.t.container.db.selectFrom('audit_events').select((eb) => eb.fn.countAll<number>().as('n')).where('event_type', '=', eventType);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const failedAttempts = async () => Number((await c.t.container.db.selectFrom('login_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n')).where('success', '=', false).executeTakeFirstOrThrow()).n);

  before(async () => {
    // Every event is written, info ones too (the development preset writes warnings only).
    c = await startConsole({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
    alice = await createUser(c.t, { first_name: 'Alice', last_name: 'Example' });
    bob = await createUser(c.t, { first_name: 'Bob', last_name: 'Example' });
    // More sign-ins of one account than a page holds, so its events page.
    for (let i = 0; i < 23; i += 1) await signIn(c.t, alice);
    await signIn(c.t, bob);
    for (let i = 0; i < 2; i += 1) {
      await c.t.api({ method: 'POST', path: 'login/email/', payload: { email: bob.email, password: 'not the password at all' } });
    }
    // Text a client chose, stored and shown back: a user agent and an identifier that would be markup.
    await c.t.api({ method: 'POST', path: 'login/email/', headers: { 'user-agent': MARKUP },
      payload: { email: bob.email, password: 'not the password either' } });
    const marked = await createUser(c.t, { email: MARKUP_EMAIL, first_name: MARKUP, last_name: MARKUP });
    await signIn(c.t, marked);
    const refused = await c.t.api({ method: 'POST', path: 'login/email/', payload: { email: MARKUP_EMAIL, password: 'whatever it is here' } });
    assert.equal(refused.statusCode, 401, refused.body);
  });
  after(async () => { await c?.close(); });

  it('filters the audit log by action and by account, keeps the filters in the URL, pages, and opens an event', async () => {
    const { page, problems } = await c.signedIn({ hash: '#/audit' });
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await page.getByRole('table', { name: 'Audit events, newest first' }).waitFor();
    await page.getByText(/ in all$/).waitFor();
    await c.screenshot(page, 'audit');

    await page.getByLabel('Action').fill('login');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/#\/audit\?action=login$/);
    const logins = await events('login');
    assert.ok(logins > 20);
    await page.getByText(`in all`).filter({ hasText: `· ${logins} in all` }).waitFor();
    const actions = await page.locator('tbody td[data-label="Action"]').allTextContents();
    assert.equal(actions.length, 20);
    assert.ok(actions.every((a) => a === 'login'), actions.join());
    // Among the newest sign-ins, the account whose address is markup: text, not an element.
    assert.ok((await page.locator('tbody td[data-label="Account"]').allTextContents()).includes(MARKUP_EMAIL));
    assert.equal(await page.locator('main img, main svg').count(), 0, 'an address was rendered as markup');

    await page.getByLabel('Account id', { exact: true }).fill(String(alice.id));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(new RegExp(`#/audit\\?action=login&user_id=${alice.id}$`));
    const alices = await events('login', alice.id);
    assert.equal(alices, 23);
    await page.getByText(`Page 1 of 2 · ${alices} in all`).waitFor();
    assert.deepEqual(new Set(await page.locator('tbody td[data-label="Account"]').allTextContents()), new Set([alice.email]));
    await c.screenshot(page, 'audit-filtered');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`Page 2 of 2 · ${alices} in all`).waitFor();
    assert.equal(await page.locator('tbody tr').count(), 3);

    // A reload keeps the filters: they live in the URL.
    await page.reload();
    await page.getByText(`Page 1 of 2 · ${alices} in all`).waitFor();
    assert.equal(await page.getByLabel('Action').inputValue(), 'login');
    assert.equal(await page.getByLabel('Account id', { exact: true }).inputValue(), String(alice.id));

    // Bob's last failed sign-in, whose user agent was markup: shown as text in the event's detail.
    await page.getByLabel('Action').fill('login_failed');
    await page.getByLabel('Account id', { exact: true }).fill(String(bob.id));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Page 1 of 1 · 3 in all').waitFor();
    const newest = await c.t.container.db.selectFrom('audit_events').select('id').where('event_type', '=', 'login_failed')
      .where('user_id', '=', bob.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await page.getByRole('link', { name: 'login_failed' }).first().click();
    await page.waitForURL(new RegExp(`#/audit/${newest.id}\\?action=login_failed&user_id=${bob.id}$`));
    await page.getByRole('heading', { name: `Event ${newest.id}: login_failed` }).waitFor();
    const agent = page.locator('.audit-detail dt', { hasText: /^User agent$/ }).locator('xpath=following-sibling::dd[1]');
    assert.equal(await agent.textContent(), MARKUP);
    assert.equal(await page.locator('main img').count(), 0, 'stored text was rendered as markup');
    const details = JSON.parse((await page.getByLabel('Details').textContent())!) as Record<string, unknown>;
    const stored = await c.t.container.db.selectFrom('audit_events').select('details').where('id', '=', newest.id).executeTakeFirstOrThrow();
    assert.deepEqual(details, stored.details ?? {});
    await c.screenshot(page, 'audit-detail');
    await page.getByRole('link', { name: 'Back to the audit log' }).click();
    await page.getByText('Page 1 of 1 · 3 in all').waitFor();
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('lists the failed sign-in attempts, markup in an identifier shown as text', async () => {
    const { page, problems } = await c.signedIn({ hash: '#/login-attempts' });
    await page.getByRole('heading', { level: 1, name: 'Login attempts' }).waitFor();
    await page.getByRole('table', { name: 'Sign-in attempts, newest first' }).waitFor();
    await page.getByLabel('Outcome').selectOption('false');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/#\/login-attempts\?success=false$/);
    const failed = await failedAttempts();
    assert.ok(failed >= 4);
    await page.getByText(`Page 1 of 1 · ${failed} in all`).waitFor();
    assert.ok(failed <= 20, 'one page holds them');
    const outcomes = await page.locator('tbody td[data-label="Outcome"]').allTextContents();
    assert.equal(outcomes.length, failed);
    assert.ok(outcomes.every((o) => o.startsWith('Failed')), outcomes.join());
    await page.getByRole('cell', { name: MARKUP_EMAIL, exact: true }).waitFor();
    assert.equal(await page.locator('main img, main svg').count(), 0, 'an identifier was rendered as markup');
    await c.screenshot(page, 'login-attempts');

    // By identifier: Bob's attempts only.
    await page.getByLabel('Email or phone').fill(bob.email!.toUpperCase());
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Page 1 of 1 · 3 in all').waitFor();
    assert.deepEqual(new Set(await page.locator('tbody td[data-label="Email or phone"]').allTextContents()), new Set([bob.email]));
    // The folded filters: an address none of them came from.
    await page.getByText('More filters').click();
    await page.getByLabel('IP address').fill('203.0.113.9');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No attempt matches these filters.').waitFor();
    assert.match(page.url(), /&ip_address=203\.0\.113\.9$/);
    // Set, they stay unfolded after a reload.
    await page.reload();
    assert.equal(await page.getByLabel('IP address').inputValue(), '203.0.113.9');
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('fits a 390 px screen: filters stack, the tables scroll inside their frame', async () => {
    for (const hash of ['#/audit?action=login', `#/audit/1`, '#/login-attempts?success=false']) {
      const { page, problems } = await c.signedIn({ viewport: PHONE, hash });
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      const width = await page.evaluate('document.documentElement.scrollWidth') as number;
      assert.ok(width <= PHONE.width, `${hash} is ${width}px wide on a ${PHONE.width}px screen`);
      if (hash.startsWith('#/login')) await c.screenshot(page, 'login-attempts-phone');
      await page.close();
      assert.deepEqual(problems, []);
    }
  });

  it('shows an operator without audit.view the refusal in words with its code', async () => {
    const viewer = await createOperator(c.t, { email: 'viewer@example.com' }, []);
    const { page, problems, refusals } = await c.signedIn({ hash: '#/audit', who: viewer });
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'PERMISSION_DENIED' }).waitFor();
    assert.match((await alert.textContent())!, /^PERMISSION_DENIED \S/);
    await c.screenshot(page, 'audit-refused');
    await page.close();
    assert.deepEqual(problems, []);
    assert.ok(refusals.includes(403), `refusals: ${refusals.join()}`);
  });
});
