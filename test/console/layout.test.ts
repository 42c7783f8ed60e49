import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeInBrowser } from '../helpers/browser.js';
import { DESKTOP, PHONE, startConsole, type ConsoleServer } from './harness.js';

/** The navigation's entries, as the console lists them (console/src/pages/index.tsx). */
const PAGES = ['Dashboard', 'Users', 'Roles and permissions', 'Applications', 'Organizations', 'Agents', 'Deletion requests',
  'Audit log', 'Login attempts', 'Webhooks'];

describeInBrowser('the console\'s layout, keyboard use and policy in Chromium', () => {
  let c: ConsoleServer;

  before(async () => { c = await startConsole({ env: { SVC_ORGANIZATIONS_ENABLED: 'true' } }); });
  after(async () => { await c?.close(); });

  it('opens every page from the navigation at 1280×800, each with its heading, without errors or a CSP violation', async () => {
    const { page, problems } = await c.signedIn({ viewport: DESKTOP });
    const nav = page.getByRole('navigation', { name: 'Console' });
    assert.deepEqual((await nav.getByRole('link').allTextContents()).map((s) => s.trim()), PAGES);
    for (const title of PAGES) {
      await nav.getByRole('link', { name: title, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      assert.equal(await nav.getByRole('link', { name: title, exact: true }).getAttribute('aria-current'), 'page');
      // Each page settles (its first answers arrive) before the next is opened.
      await page.waitForLoadState('networkidle');
    }
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('works at 390×844: the navigation folds behind Menu, and no page is wider than the screen', async () => {
    const { page, problems } = await c.signedIn({ viewport: PHONE });
    const nav = page.getByRole('navigation', { name: 'Console' });
    const menu = page.getByRole('button', { name: 'Menu' });
    assert.equal(await nav.isVisible(), false, 'the navigation is folded on a phone');
    for (const title of PAGES) {
      await menu.click();
      assert.equal(await menu.getAttribute('aria-expanded'), 'true');
      await nav.getByRole('link', { name: title, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(await nav.isVisible(), false, 'choosing a page folds the navigation again');
      const width = await page.evaluate('document.documentElement.scrollWidth') as number;
      assert.ok(width <= PHONE.width, `${title} is ${width}px wide on a ${PHONE.width}px screen`);
    }
    await c.screenshot(page, 'layout-phone');
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('is usable from the keyboard: skip link, navigation links and sign-out are reached with Tab and used with Enter', async () => {
    const { page, problems } = await c.signedIn({ viewport: DESKTOP });
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate('document.activeElement.id'), 'content');

    // From the top of a fresh load: Tab through the top bar into the navigation, and open Users with Enter.
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    let reached = '';
    for (let i = 0; i < 12 && reached !== 'Users'; i += 1) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate('document.activeElement.textContent') as string;
    }
    assert.equal(reached, 'Users', 'the navigation is reachable with Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    // Every control the page shows has a name: a labelled field or a button with text.
    const unnamed = await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button')]
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.textContent.trim())
      .map((el) => el.outerHTML)`) as string[];
    assert.deepEqual(unnamed, []);
    await page.waitForLoadState('networkidle');
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('serves the page under a policy without inline script, and a violation would be reported', async () => {
    const { page, problems } = await c.open();
    const res = await page.request.get(`${c.origin}/console/`);
    const policy = res.headers()['content-security-policy'] ?? '';
    assert.match(policy, /script-src 'self'(;|$)/);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'the page has no inline script');
    // The policy is enforced: script injected inline by the page is refused, and Chromium says so.
    await page.evaluate(`(() => { const s = document.createElement('script'); s.textContent = 'window.ran = true'; document.body.append(s); })()`);
    assert.equal(await page.evaluate('window.ran === true'), false);
    assert.ok(problems.some((p) => /Content Security Policy/.test(p)), problems.join('\n'));
    await page.close();
  });

  it('opened at another address than SVC_PUBLIC_URL (localhost for 127.0.0.1), says where the console works', async () => {
    const page = await c.browser.newPage();
    const elsewhere = c.origin.replace('127.0.0.1', 'localhost');
    assert.equal((await page.goto(`${elsewhere}/console/`))?.status(), 200);
    await page.getByRole('heading', { name: 'Open the console at its own address' }).waitFor();
    assert.equal(await page.getByRole('link', { name: `${c.origin}/console/` }).getAttribute('href'), `${c.origin}/console/`);
    await page.close();
  });
});
