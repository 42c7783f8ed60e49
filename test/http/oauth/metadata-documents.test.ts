import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { rootCertificates } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { account } from '../../factories/accounts.js';
import { freePort } from '../../helpers/cli.js';
import { createBrowser, formOf } from './browser.js';
import { startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md "Client ID Metadata Documents": a client_id that is an https URL names the client's own metadata,
// fetched under the webhooks' address rules, checked (its client_id is its URL), cached, shown as unverified.
const TLS = new URL('../../fixtures/tls/', import.meta.url);
const REDIRECT = 'http://127.0.0.1:7/cb';
/** Node's fetch (undici) keeps its dispatcher here; the test trusts its CA in this process, as NODE_EXTRA_CA_CERTS would. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** An https server on loopback serving metadata documents by path, counting the requests for each. */
async function documentServer() {
  const port = await freePort();
  const origin = `https://127.0.0.1:${port}`;
  const documents = new Map<string, Record<string, unknown>>();
  const fetched = new Map<string, number>();
  const server: Server = createServer({ cert: readFileSync(new URL('loopback.pem', TLS)), key: readFileSync(new URL('loopback-key.pem', TLS)) },
    (req, res) => {
      fetched.set(req.url!, (fetched.get(req.url!) ?? 0) + 1);
      const doc = documents.get(req.url!);
      res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
      res.end(JSON.stringify(doc ?? {}));
    });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  /** Serves `metadata` at `path`; answers the client_id (its URL). */
  const serve = (path: string, metadata: (url: string) => Record<string, unknown>) => {
    const url = `${origin}${path}`;
    documents.set(path, metadata(url));
    return url;
  };
  return { serve, fetches: (path: string) => fetched.get(path) ?? 0, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const agentDocument = (name: string) => (url: string) => ({
  client_id: url, client_name: name, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
});

describe('Client ID Metadata Documents (docs/oauth.md)', () => {
  let oauth: OauthApp;
  let strict: OauthApp;
  let docs: Awaited<ReturnType<typeof documentServer>>;
  let saved: unknown;

  before(async () => {
    void globalThis.Response; // loads Node's fetch, which creates its dispatcher
    const g = globalThis as unknown as Record<symbol, { constructor: new (opts: object) => unknown }>;
    saved = g[GLOBAL_DISPATCHER];
    const Agent = g[GLOBAL_DISPATCHER]!.constructor;
    g[GLOBAL_DISPATCHER] = new Agent({ connect: { ca: [...rootCertificates, readFileSync(new URL('ca.pem', TLS), 'utf8')] } }) as never;
    docs = await documentServer();
    oauth = await startOauthApp({ SVC_OAUTH_ALLOW_PRIVATE_CLIENT_METADATA: 'true' });
    strict = await startOauthApp();
  });
  after(async () => {
    await oauth.t.close();
    await strict.t.close();
    await docs.close();
    (globalThis as unknown as Record<symbol, unknown>)[GLOBAL_DISPATCHER] = saved;
  });

  const relyingParty = (app: OauthApp, clientId: string) =>
    client.discovery(new URL(app.issuer), clientId, undefined, client.None(), { execute: [client.allowInsecureRequests] });

  /** The authorization request's first answer, without following it. */
  const authorizationAnswer = async (app: OauthApp, clientId: string) => {
    const url = new URL(`${app.issuer}/oauth/authorize`);
    url.search = new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid', state: 's',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' }).toString();
    return fetch(url, { redirect: 'manual' });
  };

  it('is announced in the discovery document', async () => {
    const metadata = await (await fetch(`${oauth.issuer}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    assert.equal(metadata.client_id_metadata_document_supported, true);
  });

  it('signs a person in for a client known by its document only: unverified, fetched once while cached', async () => {
    const clientId = docs.serve('/agents/desk.json', agentDocument('Desk <Agent>'));
    const config = await relyingParty(oauth, clientId);
    const who = await account(oauth.t, { email: 'cimd@example.com' });
    const first = await oauth.authorize(config, who, { scope: 'openid offline_access', redirectUri: REDIRECT });
    assert.match(first.consentPage.html, /Desk &lt;Agent&gt;/);
    assert.match(first.consentPage.html, /Unverified application/);
    const tokens = await client.authorizationCodeGrant(config, first.location, { pkceCodeVerifier: first.verifier, expectedState: first.state,
      expectedNonce: first.nonce });
    assert.ok(tokens.refresh_token);
    await oauth.authorize(config, who, { scope: 'openid', redirectUri: REDIRECT });
    assert.equal(docs.fetches('/agents/desk.json'), 1, 'the document is cached as its Cache-Control says');
    const grants = await oauth.t.api({ method: 'GET', path: 'me/grants/', token: who.token });
    const [grant] = grants.json().results;
    assert.deepEqual({ client_id: grant.client_id, verified: grant.verified }, { client_id: clientId, verified: false });
  });

  it('refuses a document whose client_id is not its URL, or that carries a secret: an error page, no redirect', async () => {
    const liar = docs.serve('/agents/liar.json', (url) => ({ ...agentDocument('Liar')(url), client_id: 'https://trusted.example.com/app.json' }));
    const secretive = docs.serve('/agents/secret.json', (url) => ({ ...agentDocument('Secretive')(url), client_secret: 'shh' }));
    for (const clientId of [liar, secretive, docs.serve('/agents/missing.json', () => ({})).replace('missing', 'absent')]) {
      const res = await authorizationAnswer(oauth, clientId);
      assert.equal(res.status, 400, clientId);
      assert.equal(res.headers.get('location'), null);
      assert.match(await res.text(), /invalid_client/);
    }
  });

  it('never fetches from a private address unless SVC_OAUTH_ALLOW_PRIVATE_CLIENT_METADATA is on', async () => {
    const clientId = docs.serve('/agents/private.json', agentDocument('Private'));
    const res = await authorizationAnswer(strict, clientId);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null);
    assert.equal(docs.fetches('/agents/private.json'), 0, 'nothing was requested');
  });

  it('cannot claim a resource\'s audience through its document, nor introspect tokens not its own', async () => {
    const clientId = docs.serve('/agents/claims.json', (url) => ({ ...agentDocument('Claims')(url), gatehouse_resource: 'https://tools.example.com' }));
    const browser = createBrowser(oauth.issuer);
    const config = await relyingParty(oauth, clientId);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
    const page = await browser.open(url.toString());
    assert.equal(page.status, 200, 'the client is accepted, without the property');
    assert.ok(formOf(page.html).action);
    const someone = await account(oauth.t, { email: 'cimd-other@example.com' });
    const theirs = await oauth.tokensFor(await oauth.relyingParty(), someone, 'openid');
    const introspection = await fetch(`${oauth.issuer}/oauth/introspect`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: theirs.access_token, client_id: clientId }).toString() });
    assert.deepEqual(await introspection.json(), { active: false }, 'a public client sees its own tokens only');
  });
});
