import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Env } from '../../src/config/load.js';
import { seed, seedOptionsOf } from '../../src/db/seed/seed.js';
import { assignRole } from '../factories/rbac.js';
import { enableTotp } from '../factories/twofactor.js';
import { createUser, type TestUser } from '../factories/users.js';
import { launchChromium } from '../helpers/browser.js';
import { freePort } from '../helpers/cli.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Where each browser test saves its screenshots (git-ignored). */
export const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface Operator extends TestUser {
  email: string;
  password: string;
  /** The authenticator code at the server's clock. */
  code(): string;
}

/** A console page that records script errors, console errors and dialogs (an executed `alert` is one). */
export interface ConsolePage {
  page: Page;
  /** What went wrong in the page so far; a test ends with `assert.deepEqual(problems, [])`. */
  problems: string[];
  /**
   * The API's refusals the browser logged (`Failed to load resource: … status of 401`), as statuses: expected ones
   * (the 401 that asks for the authenticator code, a refusal a test provokes) are not problems, a test checks them.
   */
  refusals: number[];
}

export interface ConsoleServer {
  t: TestApp;
  origin: string;
  browser: Browser;
  /** A staff account holding the system role `admin`, with two-factor authentication on. */
  operator: Operator;
  /** A new browser page (its own cookies) on `/console/` plus `hash`, not signed in. */
  open(opts?: { viewport?: { width: number; height: number }; hash?: string }): Promise<ConsolePage>;
  /** Email, password and the authenticator code, through the sign-in form; resolves when the console shows. */
  signIn(page: Page, who?: Operator): Promise<void>;
  /** A page already signed in as `who` (the operator by default), at `hash`. */
  signedIn(opts?: { viewport?: { width: number; height: number }; hash?: string; who?: Operator }): Promise<ConsolePage>;
  /** A full-page screenshot under test/console/screenshots/<name>.png. */
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** A staff account with the given roles (`admin` by default) and two-factor authentication on. */
export async function createOperator(t: TestApp, overrides: Parameters<typeof createUser>[1] = {}, roles = ['admin']): Promise<Operator> {
  const user = await createUser(t, { first_name: 'Olivia', last_name: 'Operator', is_staff: true, ...overrides });
  for (const role of roles) await assignRole(t.container.db, user.id, role);
  const totp = await enableTotp(t, user);
  return { ...user, email: user.email!, password: user.password!, code: () => totp.code() };
}

/**
 * A real server with the console on, listening on loopback at the origin its public application is pinned to, and
 * Debian's Chromium. The server's clock is the test clock: each sign-in moves it one TOTP step on, so every sign-in
 * has a code not used before.
 */
export async function startConsole(opts: { env?: Env; operatorEmail?: string } = {}): Promise<ConsoleServer> {
  // The console's application is pinned to SVC_PUBLIC_URL, which must name the port before the server listens.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ env: { SVC_CONSOLE_ENABLED: 'true', SVC_PUBLIC_URL: origin, ...opts.env } });
  await seed(t.container.db, seedOptionsOf(t.container.config));
  // A second server in one test process may share the first one's database: its operator needs another address.
  const operator = await createOperator(t, { email: opts.operatorEmail ?? 'operator@example.com' });
  await t.app.listen({ port, host: '127.0.0.1' });
  const browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });

  async function open({ viewport = DESKTOP, hash = '' } = {}): Promise<ConsolePage> {
    const page = await browser.newPage({ viewport });
    page.setDefaultTimeout(20_000);
    const problems: string[] = [];
    const refusals: number[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const refused = /^Failed to load resource: the server responded with a status of (4\d\d)/.exec(msg.text());
      if (refused) refusals.push(Number(refused[1]));
      else problems.push(`console error: ${msg.text()}`);
    });
    page.on('dialog', (dialog) => { problems.push(`dialog: ${dialog.message()}`); void dialog.dismiss(); });
    assert.equal((await page.goto(`${origin}/console/${hash}`))?.status(), 200);
    return { page, problems, refusals };
  }

  async function signIn(page: Page, who: Operator = operator): Promise<void> {
    t.clock.advance(30);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Authenticator code').fill(who.code());
    await page.getByRole('button', { name: 'Verify' }).click();
    try {
      // Sign out is in the top bar at every width (the navigation folds away on a phone).
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
    } catch (err) {
      // What the page said is the useful part of a failed sign-in.
      const said = await page.getByRole('alert').allTextContents().catch(() => []);
      throw new Error(`signing in as ${who.email} did not reach the console${said.length ? `: ${said.join(' | ')}` : ''}`, { cause: err });
    }
  }

  return {
    t, origin, browser, operator, open, signIn,
    async signedIn({ viewport = DESKTOP, hash = '', who = operator } = {}) {
      const opened = await open({ viewport, hash });
      await signIn(opened.page, who);
      return opened;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      await t.close();
    },
  };
}
