import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { decodeJwt } from 'jose';
import { startMcpServer } from '../../../examples/mcp-server/server.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';
import { freePort } from '../../helpers/cli.js';
import type { TestApp } from '../../helpers/test-app.js';
import { createBrowser, formOf } from './browser.js';
import { startOauthApp, type OauthApp } from './flow.js';

// docs/mcp.md: the example MCP server (examples/mcp-server/) protected by Gatehouse, driven by the MCP SDK's own client
// OAuth support — discovery, dynamic registration, PKCE, `resource`, consent, refresh — and its tools decided by
// ai/authorize/ with the access token the client sent.
const REDIRECT = 'http://127.0.0.1:7/cb';

/** A request the MCP client made besides its MCP calls (discovery, registration, tokens), as the test reads it back. */
interface Sent { method: string; url: string; form: URLSearchParams | undefined; json: Record<string, unknown> | undefined }

/**
 * The MCP client's OAuth state, in memory, as a desktop client keeps it; the person signs in and approves the consent
 * page (with the limits it asks of an unverified client) in the test browser, and the code is read from the redirect.
 */
function desktopClient(issuer: () => string, person: () => Account) {
  const state: { information?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; code?: string;
    authorizationUrl?: URL } = {};
  const provider: OAuthClientProvider = {
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: 'Desk Assistant', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none' },
    clientInformation: () => state.information,
    saveClientInformation: (information) => { state.information = information; },
    tokens: () => state.tokens,
    saveTokens: (tokens) => { state.tokens = tokens; },
    saveCodeVerifier: (verifier) => { state.verifier = verifier; },
    codeVerifier: () => state.verifier!,
    async redirectToAuthorization(url) {
      state.authorizationUrl = url;
      const browser = createBrowser(issuer());
      const signInPage = await browser.open(url.href);
      assert.equal(signInPage.status, 200, signInPage.html);
      const signIn = formOf(signInPage.html);
      const consentPage = await browser.submit(signIn.action, { ...signIn.fields, email: person().email!, password: person().password! });
      assert.match(consentPage.html, /Unverified application/);
      assert.match(consentPage.html, /Desk Assistant/);
      const consent = formOf(consentPage.html);
      const back = await browser.submit(consent.action,
        { ...consent.fields, max_requests_per_minute: '60', budget_limit_usd: '5', decision: 'approve' });
      assert.equal(back.status, 303, back.html);
      const location = new URL(back.location!);
      assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
      state.code = location.searchParams.get('code') ?? undefined;
    },
  };
  return { provider, state };
}

/** A fetch for the MCP client that records what it sends besides its MCP calls (the tests read the protocol back). */
function recordingFetch(sent: Sent[], mcpUrl: () => string): FetchLike {
  return async (url, init) => {
    const target = new URL(url);
    if (target.href !== mcpUrl()) {
      const isForm = init?.body instanceof URLSearchParams;
      sent.push({ method: init?.method ?? 'GET', url: `${target.origin}${target.pathname}`,
        form: isForm ? new URLSearchParams(init.body as URLSearchParams) : undefined,
        json: typeof init?.body === 'string' ? JSON.parse(init.body) as Record<string, unknown> : undefined });
    }
    return fetch(url, init);
  };
}

describe('an MCP server protected by Gatehouse, with the MCP SDK\'s client (docs/mcp.md)', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let mcp: Awaited<ReturnType<typeof startMcpServer>>;
  let who: Account;
  /** The MCP server's time: real, unless a test pins it. */
  let pinned: Date | undefined;
  const sent: Sent[] = [];
  const desktop = desktopClient(() => oauth.issuer, () => who);
  const recording = recordingFetch(sent, () => mcp.url);
  let client: Client;

  const transport = () => new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: desktop.provider, fetch: recording });
  const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
    (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join('\n');

  before(async () => {
    oauth = await startOauthApp({ SVC_AIRS_CONFIRMATION_REQUIRED: 'roles.manage' });
    t = oauth.t;
    const port = await freePort();
    // The server's application for ai/authorize/: the one startOauthApp created (an application's access key and secret).
    mcp = await startMcpServer({ gatehouseUrl: oauth.issuer, accessKey: oauth.clientId, accessSecret: oauth.clientSecret,
      publicUrl: `http://127.0.0.1:${port}`, port, now: () => pinned ?? new Date() });
    const root = await account(t, { email: 'mcp-admin@example.com' });
    await grantDirect(t, root.id, ['applications.manage']);
    expectStatus(await t.api({ method: 'POST', path: 'oauth/resources/', token: root.token,
      payload: { uri: mcp.url, name: 'Example MCP server', scopes: ['users.view', 'roles.manage'] } }), 201);
    who = await account(t, { email: 'mcp-person@example.com' });
    await grantDirect(t, who.id, ['users.view', 'roles.manage']);
  });
  after(async () => {
    await client?.close();
    await mcp?.close();
    await t?.close();
  });

  it('answers a request without a token 401 with a challenge naming its Protected Resource Metadata, which names Gatehouse', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    const call = (headers: Record<string, string>) => fetch(mcp.url, { method: 'POST', body: JSON.stringify(initialize),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } });
    const bare = await call({});
    assert.equal(bare.status, 401);
    assert.equal(bare.headers.get('www-authenticate'),
      `Bearer resource_metadata="${mcp.metadataUrl}", scope="users.view roles.manage offline_access"`);
    assert.equal(mcp.metadataUrl, `${new URL(mcp.url).origin}/.well-known/oauth-protected-resource/mcp`);
    const forged = await call({ authorization: 'Bearer not.a.token' });
    assert.equal(forged.status, 401);
    assert.match(forged.headers.get('www-authenticate')!, /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/);

    const expected = { resource: mcp.url, authorization_servers: [oauth.issuer], scopes_supported: ['users.view', 'roles.manage'],
      bearer_methods_supported: ['header'], resource_name: 'Gatehouse example MCP server' };
    for (const url of [mcp.metadataUrl, `${new URL(mcp.url).origin}/.well-known/oauth-protected-resource`]) {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
      assert.deepEqual(await res.json(), expected);
    }
  });

  it('signs the person in through discovery, dynamic registration, PKCE, resource and consent; whoami answers who they are', async () => {
    client = new Client({ name: 'desk-assistant', version: '1.0.0' });
    const first = transport();
    await assert.rejects(client.connect(first), UnauthorizedError, 'the client is sent to the authorization page first');
    assert.ok(desktop.state.code, 'the consent page sent the code back');
    await first.finishAuth(desktop.state.code);

    // Discovery (the resource's metadata, from the challenge, then Gatehouse's, RFC 8414), registration; and after the
    // redirect, discovery again (this client keeps no discovery state) and the code exchange.
    const discovery = [`GET ${mcp.metadataUrl}`, `GET ${oauth.issuer}/.well-known/oauth-authorization-server`];
    assert.deepEqual(sent.map((s) => `${s.method} ${s.url}`),
      [...discovery, `POST ${oauth.issuer}/oauth/register`, ...discovery, `POST ${oauth.issuer}/oauth/token`]);
    // The scope the SDK chose is the challenge's (ahead of the metadata's scopes_supported): offline_access included.
    assert.deepEqual({ name: sent[2]!.json!.client_name, scope: sent[2]!.json!.scope },
      { name: 'Desk Assistant', scope: 'users.view roles.manage offline_access' });
    const asked = desktop.state.authorizationUrl!.searchParams;
    assert.deepEqual({ scope: asked.get('scope'), resource: asked.get('resource'), method: asked.get('code_challenge_method'),
      prompt: asked.get('prompt') }, { scope: 'users.view roles.manage offline_access', resource: mcp.url, method: 'S256', prompt: 'consent' });
    const exchange = sent[5]!.form!;
    assert.equal(exchange.get('grant_type'), 'authorization_code');
    assert.equal(exchange.get('resource'), mcp.url);
    assert.ok(exchange.get('code_verifier'), 'PKCE');
    assert.equal(exchange.get('client_id'), desktop.state.information!.client_id);
    const tokens = desktop.state.tokens!;
    assert.ok(tokens.refresh_token, 'offline_access was asked for and granted');
    const claims = decodeJwt(tokens.access_token);
    assert.equal(claims.aud, mcp.url);
    assert.deepEqual(String(claims.scope).split(' ').filter((s) => s.includes('.')).sort(), ['roles.manage', 'users.view']);

    client = new Client({ name: 'desk-assistant', version: '1.0.0' });
    await client.connect(transport());
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((tool) => tool.name).sort(), ['purge_cache', 'whoami']);
    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    assert.ok(!whoami.isError, textOf(whoami));
    assert.deepEqual(JSON.parse(textOf(whoami)), { user_id: who.id, email: who.email, client_id: desktop.state.information!.client_id });

    const grants = expectStatus(await t.api({ method: 'GET', path: 'me/grants/', token: who.token }), 200).results;
    assert.equal(grants.length, 1);
    assert.deepEqual({ client: grants[0].client_name, verified: grants[0].verified, resource: grants[0].resource,
      budget: grants[0].delegation.budget_limit_usd }, { client: 'Desk Assistant', verified: false, resource: mcp.url, budget: 5 });
  });

  it('holds purge_cache until the person approves it in Gatehouse; the repeated call runs', async () => {
    const args = { name: 'purge_cache', arguments: { prefix: 'reports:' } };
    const waiting = await client.callTool(args);
    assert.equal(waiting.isError, true);
    const actionId = /Waiting for approval: action (\d+)/.exec(textOf(waiting))?.[1];
    assert.ok(actionId, textOf(waiting));
    const still = await client.callTool(args);
    assert.match(textOf(still), new RegExp(`action ${actionId} `), 'the same action, until the person decides');

    expectStatus(await t.api({ method: 'POST', path: `ai/pending-actions/${actionId}/approve/`, token: who.token, payload: {} }), 200);
    const done = await client.callTool(args);
    assert.ok(!done.isError, textOf(done));
    assert.equal(textOf(done), `Purged the cache entries under "reports:" for user ${who.id}`);
    const again = /Waiting for approval: action (\d+)/.exec(textOf(await client.callTool(args)))?.[1];
    assert.ok(again && again !== actionId, 'an approval allows one call: the next one waits for a new one');
  });

  it('refreshes an expired access token with its refresh token, and goes on', async () => {
    const old = desktop.state.tokens!;
    const { iat, exp } = decodeJwt(old.access_token);
    // The server's clock at the token's expiry; the refreshed token, issued at least a second later, outlives it.
    while (Math.floor(Date.now() / 1000) <= iat!) await new Promise((resolve) => setTimeout(resolve, 100));
    pinned = new Date(exp! * 1000);
    sent.length = 0;
    try {
      const whoami = await client.callTool({ name: 'whoami', arguments: {} });
      assert.ok(!whoami.isError, textOf(whoami));
    } finally {
      pinned = undefined;
    }
    const refresh = sent.find((s) => s.url === `${oauth.issuer}/oauth/token`)?.form;
    assert.equal(refresh?.get('grant_type'), 'refresh_token');
    assert.equal(refresh?.get('refresh_token'), old.refresh_token);
    assert.equal(refresh?.get('resource'), mcp.url);
    const renewed = desktop.state.tokens!;
    assert.notEqual(renewed.access_token, old.access_token);
    assert.equal(decodeJwt(renewed.access_token).aud, mcp.url);
    assert.notEqual(renewed.refresh_token, old.refresh_token, 'refresh tokens rotate');
  });

  it('refuses the tools once the person revokes the grant (ai/authorize/ answers AGENT_TOKEN_REVOKED)', async () => {
    const [grant] = expectStatus(await t.api({ method: 'GET', path: 'me/grants/', token: who.token }), 200).results;
    expectStatus(await t.api({ method: 'DELETE', path: `me/grants/${grant.id}/`, token: who.token }), 200);
    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    assert.equal(whoami.isError, true);
    assert.equal(textOf(whoami), 'Gatehouse refused whoami: AGENT_TOKEN_REVOKED');
  });

  it('signs a second person in through a client of their own, the SDK unaided (its registration scope, no openid)', async () => {
    const other = await account(t, { email: 'mcp-other@example.com' });
    await grantDirect(t, other.id, ['users.view']);
    const plain = desktopClient(() => oauth.issuer, () => other);
    const first = new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: plain.provider });
    await assert.rejects(new Client({ name: 'desk-assistant', version: '1.0.0' }).connect(first), UnauthorizedError);
    await first.finishAuth(plain.state.code!);
    const own = new Client({ name: 'desk-assistant', version: '1.0.0' });
    await own.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: plain.provider }));
    try {
      const whoami = await own.callTool({ name: 'whoami', arguments: {} });
      assert.equal(JSON.parse(textOf(whoami)).user_id, other.id);
    } finally {
      await own.close();
    }
  });
});
