import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, sep } from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { InjectOptions } from 'fastify';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { signIn } from '../factories/sessions.js';
import { createUser, type TestUser } from '../factories/users.js';
import { describeInBrowser, launchChromium } from '../helpers/browser.js';
import { useTestApp } from '../helpers/test-app.js';

/** The page the browser opens: it imports @simplewebauthn/browser and calls the API with fetch. */
const PAGE = new URL('./fixtures/passkeys.html', import.meta.url);
/** The ESM build of @simplewebauthn/browser: `index.js` and the relative modules it imports. */
const SDK_DIR = dirname(fileURLToPath(import.meta.resolve('@simplewebauthn/browser')));
const SDK_PATH = '/simplewebauthn-browser/';

/** An API answer as the page reports it. */
interface Answer { status: number; body: Record<string, any> }
/** What the page's ceremonies answer: each step's API answer and the browser's credential. */
interface Ceremony { begun: Answer; credential?: Record<string, any>; completed?: Answer }
/** The functions the page puts on `window`. */
interface PageApi {
  api(method: string, path: string, body?: object, token?: string): Promise<Answer>;
  registerPasskey(token: string): Promise<Ceremony>;
  getAssertion(email?: string): Promise<Ceremony>;
  signInWithPasskey(email?: string): Promise<Ceremony>;
}

/** The whole request body. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Passkey registration and sign-in driven in Chromium with a virtual authenticator; the steps run in order on one account. */
describeInBrowser('passkeys in Chromium', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let pageErrors: string[];
  let user: TestUser;

  /** `/api/*` answered by the app in-process, with the application's credentials added here so the page holds no secret. */
  async function proxy(req: IncomingMessage, res: ServerResponse) {
    const headers: Record<string, string> = { ...t.headers };
    for (const name of ['content-type', 'authorization', 'user-agent', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const body = await readBody(req);
    const answer = await t.app.inject({
      method: req.method as InjectOptions['method'], url: req.url!, headers, ...(body.length ? { payload: body } : {}),
    });
    const type = answer.headers['content-type'];
    res.writeHead(answer.statusCode, typeof type === 'string' ? { 'content-type': type } : {});
    res.end(answer.rawPayload);
  }

  /** The test server: the page, the SDK's modules, and the API. */
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(await readFile(PAGE));
    } else if (req.method === 'GET' && path.startsWith(SDK_PATH) && path.endsWith('.js')) {
      const file = join(SDK_DIR, path.slice(SDK_PATH.length));
      if (!file.startsWith(SDK_DIR + sep)) throw new Error(`outside the SDK: ${path}`);
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(await readFile(file));
    } else if (path.startsWith('/api/')) {
      await proxy(req, res);
    } else {
      res.writeHead(404).end();
    }
  }

  /** Runs one of the page's functions with its arguments. */
  const inPage = <K extends keyof PageApi>(name: K, ...args: Parameters<PageApi[K]>) =>
    page.evaluate(([fn, list]) => (globalThis as unknown as Record<string, (...a: unknown[]) => unknown>)[fn]!(...list),
      [name, args] as const) as ReturnType<PageApi[K]>;

  /** The virtual authenticator's credentials. */
  const storedCredentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;

  /** The stored sign counter of the account's passkey. */
  const signCount = async () => (await t.container.db.selectFrom('webauthn_credentials').select('sign_count')
    .where('user_id', '=', user.id).executeTakeFirstOrThrow()).sign_count;

  before(async () => {
    // The server first: the app's expected origin carries its port.
    server = createServer((req, res) => {
      handle(req, res).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err.stack ?? err));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // `localhost` is a secure context, which WebAuthn requires.
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  // After hooks run in the order they are registered: the browser closes before the app, the server after it.
  after(async () => { await browser?.close(); });
  const t = useTestApp(() => ({
    env: { SVC_WEBAUTHN_ENABLED: 'true', SVC_WEBAUTHN_RP_ID: 'localhost', SVC_WEBAUTHN_ORIGINS: origin }, reset: false,
  }));
  after(async () => { if (server) await new Promise<void>((resolve) => server.close(() => resolve())); });
  before(async () => {
    assert.equal(t.container.config.API_PREFIX, '/api/v1/auth/');
    user = await createUser(t, { email: 'ann@example.com', first_name: 'Ann' });

    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', { options: {
      protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true,
      automaticPresenceSimulation: true,
    } }));
    assert.equal((await page.goto(`${origin}/`))?.status(), 200);
    await page.locator('body[data-ready="true"]').waitFor();
  });

  it('registers a passkey with the browser\'s answer and no challenge_id: 201, stored as a resident credential', async () => {
    const { access_token } = await signIn(t, user);
    const { begun, credential, completed } = await inPage('registerPasskey', access_token);
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
    assert.equal(begun.body.publicKey.rp.id, 'localhost');
    assert.ok(credential, 'the browser created a credential');
    assert.equal(completed?.status, 201, JSON.stringify(completed?.body));
    assert.equal(completed.body.message, 'Passkey registered');
    assert.ok(['singleDevice', 'multiDevice'].includes(completed.body.credential.device_type));

    const stored = await storedCredentials();
    assert.equal(stored.length, 1);
    const [key] = stored;
    assert.equal(key!.isResidentCredential, true);
    assert.equal(key!.rpId, 'localhost');
    const row = await t.container.db.selectFrom('webauthn_credentials').select(['credential_id', 'user_handle'])
      .where('user_id', '=', user.id).executeTakeFirstOrThrow();
    // CDP encodes binary fields in base64; the API and the database in base64url.
    assert.equal(Buffer.from(key!.credentialId, 'base64').toString('base64url'), row.credential_id);
    assert.equal(Buffer.from(key!.userHandle!, 'base64').toString('base64url'), row.user_handle);
    assert.equal(credential.id, row.credential_id);
  });

  it('signs in with the address: access, refresh, user and credential_used; me/ answers the account', async () => {
    const { begun, completed } = await inPage('signInWithPasskey', user.email!);
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
    assert.equal(completed?.status, 200, JSON.stringify(completed?.body));
    const body = completed.body;
    assert.ok(body.access && body.refresh);
    assert.equal(body.user.email, user.email);
    assert.equal(body.credential_used, 'Passkey');
    const me = await inPage('api', 'GET', 'me/', undefined, body.access);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.email, user.email);
  });

  it('signs in without an address (resident-key mode) as the same account; the stored sign counter grows', async () => {
    const before = await signCount();
    const { begun, completed } = await inPage('signInWithPasskey');
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
    assert.deepEqual(begun.body.allowCredentials, []);
    assert.equal(completed?.status, 200, JSON.stringify(completed?.body));
    assert.equal(completed.body.user.email, user.email);
    assert.ok(await signCount() > before, 'the sign counter grew');
  });

  it('refuses the browser\'s assertion sent twice: 200, then 400 INVALID_ASSERTION', async () => {
    const { begun, credential } = await inPage('getAssertion', user.email!);
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
    const payload = { credential: credential!, challenge_id: begun.body.challenge_id as number };
    const first = await inPage('api', 'POST', 'webauthn/authenticate/complete/', payload);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const replay = await inPage('api', 'POST', 'webauthn/authenticate/complete/', payload);
    assert.equal(replay.status, 400, JSON.stringify(replay.body));
    assert.equal(replay.body.code, 'INVALID_ASSERTION');
    assert.deepEqual(pageErrors, []);
  });
});
