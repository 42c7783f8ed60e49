import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, decodeJwt } from 'jose';
import * as client from 'openid-client';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';
import { statementRecorder, TRAIL_WRITE } from '../../helpers/statements.js';
import type { TestApp } from '../../helpers/test-app.js';
import { createOrg, ORG_ENV } from '../organizations/helpers.js';
import { startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md "Grants and ai/authorize/": a grant for a resource is a delegation; ai/authorize/ takes its access tokens
// as `Authorization: Bearer` and runs the double check, breakers, budget and approvals as for an AgentBearer token.
const TOOLS_API = 'https://tools.example.com';
const AGENT_REDIRECT = 'http://127.0.0.1:7/cb';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const APPROVAL_CALL = { permission: 'roles.manage', method: 'POST', path: '/tools/purge', body_sha256: sha256('{}') };

describe('ai/authorize/ with OAuth access tokens (docs/oauth.md "Grants and ai/authorize/")', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let config: client.Configuration;
  let tools: { client_id: string; client_secret: string };
  let n = 0;
  const recorder = statementRecorder();
  const person = async (permissions: string[] = ['users.view', 'roles.view']) => {
    const who = await account(t, { email: `authz-${++n}@example.com` });
    if (permissions.length) await grantDirect(t, who.id, permissions);
    return who;
  };

  before(async () => {
    oauth = await startOauthApp({ ...ORG_ENV, SVC_AIRS_CONFIRMATION_REQUIRED: 'roles.manage' }, { dbPlugin: recorder.plugin });
    t = oauth.t;
    config = await oauth.relyingParty();
    const root = await person(['applications.manage']);
    const created = await t.api({ method: 'POST', path: 'oauth/resources/', token: root.token,
      payload: { uri: TOOLS_API, name: 'Tools', scopes: ['users.view', 'roles.view', 'roles.manage', 'org.view'] } });
    assert.equal(created.statusCode, 201, created.body);
    tools = created.json().credentials;
  });
  after(() => t.close());

  /** The integrator's backend: its application's credentials, and the OAuth access token forwarded. */
  const authorize = (token: string | null, payload: object, headers: Record<string, string> = {}) =>
    t.api({ method: 'POST', path: 'ai/authorize/', payload, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  const denied = (res: Awaited<ReturnType<typeof authorize>>, status: number, code: string) => {
    assert.equal(res.statusCode, status, res.body);
    assert.equal(res.json().code, code);
    assert.equal(res.json().decision, 'deny');
  };
  const grantsOf = async (who: Account) => expectStatus(await t.api({ method: 'GET', path: 'me/grants/', token: who.token }), 200).results;
  const introspect = async (token: string) => {
    const res = await fetch(`${oauth.issuer}/oauth/introspect`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${tools.client_id}:${tools.client_secret}`).toString('base64')}` },
      body: new URLSearchParams({ token }).toString() });
    return await res.json() as { active: boolean; scope?: string };
  };

  /** The code flow for the tools API: a verified application by default, or a client registered dynamically. */
  async function tokensFor(who: Account, scope: string, opts: { config?: client.Configuration; consent?: Record<string, string> } = {}) {
    const cfg = opts.config ?? config;
    const agentClient = cfg !== config;
    const flow = await oauth.authorize(cfg, who, { scope, params: { resource: TOOLS_API }, consent: opts.consent,
      ...(agentClient ? { redirectUri: AGENT_REDIRECT } : {}) });
    const tokens = await client.authorizationCodeGrant(cfg, flow.location,
      { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce }, { resource: TOOLS_API });
    return { ...tokens, consentPage: flow.consentPage.html };
  }

  const registerAgentClient = () => client.dynamicClientRegistration(new URL(oauth.issuer),
    { redirect_uris: [AGENT_REDIRECT], client_name: 'Desk Agent' }, client.None(), { execute: [client.allowInsecureRequests] });

  it('allows a permission the grant and the person hold, counted against the grant\'s delegation', async () => {
    const who = await person();
    const tokens = await tokensFor(who, 'openid users.view roles.view');
    const [grant] = await grantsOf(who);
    assert.equal(grant.status, 'active');
    assert.ok(grant.delegation, 'a grant for a resource is a delegation');
    const body = expectStatus(await authorize(tokens.access_token, { permission: 'roles.view' }), 200);
    assert.deepEqual(body, { decision: 'allow', agent_token_id: grant.delegation.agent_token_id, agent_id: oauth.clientId,
      user: { id: who.id, email: who.email }, granted_permissions: ['roles.view', 'users.view'],
      chain: [{ id: grant.delegation.agent_token_id, agent_id: oauth.clientId }] });
    const row = await t.container.db.selectFrom('agent_tokens').select(['request_count', 'oauth_grant_id'])
      .where('id', '=', grant.delegation.agent_token_id).executeTakeFirstOrThrow();
    assert.equal(row.request_count, 1);
    assert.equal(row.oauth_grant_id, grant.id);
  });

  it('costs one statement to count and read the grant\'s delegation, its person and their permissions; then the activity row', async () => {
    const who = await person();
    const tokens = await tokensFor(who, 'openid users.view');
    expectStatus(await authorize(tokens.access_token, { permission: 'users.view' }), 200);
    await t.container.services.agentActivity.flush();
    const { statements } = await recorder.during(async () => {
      expectStatus(await authorize(tokens.access_token, { permission: 'users.view' }), 200);
      await t.container.services.agentActivity.flush();
    });
    // As with an AgentBearer token (test/http/agents/hot-path-statements.test.ts): the key set is held, nothing else is read.
    assert.equal(statements.length, 1 + TRAIL_WRITE, statements.join('\n'));
  });

  it('introspects a JWT for its resource in one statement (the resource\'s credentials held briefly, the key set held)', async () => {
    const who = await person();
    const tokens = await tokensFor(who, 'openid users.view');
    assert.equal((await introspect(tokens.access_token)).active, true);
    const { answer: seen, statements } = await recorder.during(() => introspect(tokens.access_token), { socket: true });
    assert.deepEqual({ active: seen.active, scope: seen.scope }, { active: true, scope: 'users.view' });
    assert.equal(statements.length, 1, statements.join('\n'));
  });

  it('denies what the token was not granted and what the person no longer holds (the double check), counting each denial', async () => {
    const who = await person();
    const tokens = await tokensFor(who, 'openid users.view roles.view');
    denied(await authorize(tokens.access_token, { permission: 'users.manage' }), 403, 'AGENT_PERMISSION_DENIED');
    await t.container.db.deleteFrom('user_permissions').where('user_id', '=', who.id).execute();
    denied(await authorize(tokens.access_token, { permission: 'users.view' }), 403, 'AGENT_PERMISSION_DENIED');
    const [grant] = await grantsOf(who);
    const row = await t.container.db.selectFrom('agent_tokens').select('failed_count').where('id', '=', grant.delegation.agent_token_id)
      .executeTakeFirstOrThrow();
    assert.equal(row.failed_count, 2);
  });

  it('answers 401 TOKEN_INVALID for a token without a resource, a tampered one and one signed elsewhere', async () => {
    const who = await person();
    const plain = await oauth.tokensFor(config, who, 'openid');
    denied(await authorize(plain.access_token, { permission: 'users.view' }), 401, 'TOKEN_INVALID');
    const tokens = await tokensFor(who, 'openid users.view');
    const [header, , signature] = tokens.access_token.split('.');
    const claims = decodeJwt(tokens.access_token);
    const widened = Buffer.from(JSON.stringify({ ...claims, scope: 'users.view users.manage' })).toString('base64url');
    denied(await authorize(`${header}.${widened}.${signature}`, { permission: 'users.manage' }), 401, 'TOKEN_INVALID');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'forged' }).sign(privateKey);
    denied(await authorize(forged, { permission: 'users.view' }), 401, 'TOKEN_INVALID');
    denied(await authorize(null, { permission: 'users.view' }), 401, 'AGENT_TOKEN_INVALID');
    expectStatus(await authorize(tokens.access_token, { permission: 'users.view' }), 200);
  });

  it('holds a permission that needs approval until the person approves it, then allows the repeated call once', async () => {
    const who = await person(['roles.manage']);
    const tokens = await tokensFor(who, 'openid roles.manage');
    const pending = expectStatus(await authorize(tokens.access_token, APPROVAL_CALL), 202);
    assert.equal(pending.decision, 'pending');
    expectStatus(await t.api({ method: 'POST', path: `ai/pending-actions/${pending.action_id}/approve/`, token: who.token, payload: {} }), 200);
    const confirmed = { 'x-action-confirmation': pending.confirmation_token };
    assert.equal(expectStatus(await authorize(tokens.access_token, APPROVAL_CALL, confirmed), 200).decision, 'allow');
    denied(await authorize(tokens.access_token, APPROVAL_CALL, confirmed), 403, 'ACTION_CONFIRMATION_INVALID');
  });

  it('offers an agent client\'s person the limits, refuses ones it did not offer, and applies the rate chosen (parallel calls)', async () => {
    const who = await person();
    const agent = await registerAgentClient();
    const refused = await (async () => {
      try {
        await tokensFor(who, 'openid users.view', { config: agent, consent: { budget_limit_usd: 'lots' } });
        return undefined;
      } catch (err) {
        return err as Error;
      }
    })();
    assert.match(refused?.message ?? '', /role="alert">Choose one of the lifetimes/, 'a budget that is not an amount: the form again');
    assert.deepEqual(await grantsOf(who), [], 'nothing was granted');
    const tokens = await tokensFor(who, 'openid users.view', { config: agent,
      consent: { lifetime: '3600', max_requests_per_minute: '10', budget_limit_usd: '2.50' } });
    assert.match(tokens.consentPage, /name="max_requests_per_minute"/);
    assert.match(tokens.consentPage, /Unverified application/);
    const [grant] = (await grantsOf(who)).filter((g: { verified: boolean; status: string }) => !g.verified);
    assert.deepEqual({ rate: grant.delegation.max_requests_per_minute, budget: grant.delegation.budget_limit_usd },
      { rate: 10, budget: 2.5 });
    const lifetime = (Date.parse(grant.delegation.expires_at) - Date.now()) / 1000;
    assert.ok(lifetime > 3500 && lifetime <= 3600, `${lifetime}`);

    const answers = await Promise.all(Array.from({ length: 14 }, () => authorize(tokens.access_token, { permission: 'users.view' })));
    assert.equal(answers.filter((r) => r.statusCode === 200).length, 10, 'exactly the rate chosen');
    for (const res of answers.filter((r) => r.statusCode !== 200)) denied(res, 403, 'AGENT_TOKEN_SUSPENDED');
    const [after] = (await grantsOf(who)).filter((g: { verified: boolean }) => !g.verified);
    assert.equal(after.status, 'suspended');
    assert.equal((await introspect(tokens.access_token)).active, false, 'a suspended grant\'s tokens are inactive');
  });

  it('spends the budget chosen at consent through report-usage/ with the grant\'s token; at the budget, calls are refused', async () => {
    const who = await person();
    const agent = await registerAgentClient();
    const tokens = await tokensFor(who, 'openid users.view', { config: agent, consent: { budget_limit_usd: '1' } });
    const allowed = expectStatus(await authorize(tokens.access_token, { permission: 'users.view' }), 200);
    const report = (id: number, token: string) => t.api({ method: 'POST', path: `ai/tokens/${id}/report-usage/`,
      headers: { authorization: `Bearer ${token}` }, payload: { cost_usd: 0.6 } });
    expectStatus(await report(allowed.agent_token_id, tokens.access_token), 200);
    const over = await report(allowed.agent_token_id, tokens.access_token);
    assert.equal(over.statusCode, 403, over.body);
    assert.equal(over.json().code, 'BUDGET_EXCEEDED');
    denied(await authorize(tokens.access_token, { permission: 'users.view' }), 403, 'AGENT_TOKEN_SUSPENDED');
    // Another grant's token cannot report for this delegation; a person's own access token is not a grant's.
    const mine = await tokensFor(await person(), 'openid users.view');
    assert.equal((await report(allowed.agent_token_id, mine.access_token)).json().code, 'AGENT_TOKEN_MISMATCH');
    assert.equal((await report(allowed.agent_token_id, who.token)).json().code, 'AGENT_TOKEN_INVALID');
  });

  it('ends with its grant: revoked by the person, and by a logout of every session', async () => {
    const who = await person();
    const first = await tokensFor(who, 'openid users.view');
    const [grant] = await grantsOf(who);
    expectStatus(await t.api({ method: 'DELETE', path: `me/grants/${grant.id}/`, token: who.token }), 200);
    denied(await authorize(first.access_token, { permission: 'users.view' }), 401, 'AGENT_TOKEN_REVOKED');

    const second = await tokensFor(who, 'openid users.view');
    expectStatus(await authorize(second.access_token, { permission: 'users.view' }), 200);
    expectStatus(await t.api({ method: 'POST', path: 'logout/all/', token: who.token, payload: {} }), 200);
    const refused = await authorize(second.access_token, { permission: 'users.view' });
    assert.equal(refused.statusCode, 401, refused.body);
    assert.equal(refused.json().decision, 'deny');
  });

  it('ends with its grant when its code is replayed', async () => {
    const who = await person();
    const flow = await oauth.authorize(config, who, { scope: 'openid users.view', params: { resource: TOOLS_API } });
    const tokens = await client.authorizationCodeGrant(config, flow.location,
      { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce }, { resource: TOOLS_API });
    expectStatus(await authorize(tokens.access_token, { permission: 'users.view' }), 200);
    const replay = await fetch(`${oauth.issuer}/oauth/token`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${oauth.clientId}:${oauth.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: flow.location.searchParams.get('code')!,
        redirect_uri: 'http://127.0.0.1:9/callback', code_verifier: flow.verifier, resource: TOOLS_API }).toString() });
    assert.equal(replay.status, 400);
    denied(await authorize(tokens.access_token, { permission: 'users.view' }), 401, 'AGENT_TOKEN_REVOKED');
  });

  it('binds a grant to one organization with org:<slug>, where the person\'s role there decides', async () => {
    const who = await person([]);
    await createOrg(t, who, 'acme-tools');
    await createOrg(t, who, 'globex-tools');
    const tokens = await tokensFor(who, 'openid org.view org:acme-tools');
    assert.deepEqual(String(decodeJwt(tokens.access_token).scope).split(' ').sort(), ['org.view', 'org:acme-tools', 'openid'].sort()
      .filter((s) => s !== 'openid'));
    const [grant] = await grantsOf(who);
    assert.equal(grant.organization, 'acme-tools');
    // What the grant may do now, by the person's role in the organization (they hold org.view nowhere else).
    assert.deepEqual((await introspect(tokens.access_token)).scope?.split(' ').sort(), ['org.view', 'org:acme-tools']);
    expectStatus(await authorize(tokens.access_token, { permission: 'org.view', organization: 'acme-tools' }), 200);
    denied(await authorize(tokens.access_token, { permission: 'org.view', organization: 'globex-tools' }), 403, 'AGENT_PERMISSION_DENIED');

    const outsider = await person([]);
    const theirs = await tokensFor(outsider, 'openid org.view org:acme-tools');
    assert.equal(decodeJwt(theirs.access_token).scope, undefined, 'no role there: neither the organization nor its permission');
  });
});
