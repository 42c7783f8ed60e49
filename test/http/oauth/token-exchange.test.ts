import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';
import type { TestApp } from '../../helpers/test-app.js';
import { startOauthApp, type OauthApp } from './flow.js';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

// docs/agents.md "Delegation": the token-exchange grant (RFC 8693) creates a child exactly as delegate/ does, and answers
// an RFC 9068 JWT carrying the chain as nested `act` claims.
describe('the token-exchange grant (docs/agents.md "Delegation")', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let config: client.Configuration;
  let n = 0;

  before(async () => {
    oauth = await startOauthApp();
    t = oauth.t;
    config = await oauth.relyingParty();
  });
  after(() => t.close());

  /** A person holding users.view and roles.view, and a planner token of theirs. */
  async function planner(body: Record<string, unknown> = {}) {
    const who = await account(t, { email: `exchange-${++n}@example.com` });
    await grantDirect(t, who.id, ['users.view', 'roles.view']);
    const created = expectStatus(await t.api({ method: 'POST', path: 'ai/tokens/', token: who.token, payload: { agent_id: 'planner',
      can_delegate: true, permissions: ['users.view', 'roles.view'], ...body } }), 201) as { id: number; token: string };
    return { who, planner: created };
  }
  const exchange = (subject: string, params: Record<string, string> = {}) => client.genericGrantRequest(config, TOKEN_EXCHANGE,
    { subject_token: subject, subject_token_type: ACCESS_TOKEN, ...params });
  const refusalOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (err) {
      return (err as { error?: string }).error;
    }
    return 'no error';
  };
  const authorize = (jwt: string, permission: string) =>
    t.api({ method: 'POST', path: 'ai/authorize/', payload: { permission }, headers: { authorization: `Bearer ${jwt}` } });
  const introspect = async (token: string) => {
    const res = await fetch(`${oauth.issuer}/oauth/introspect`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${oauth.clientId}:${oauth.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ token }) });
    return res.json() as Promise<Record<string, any>>;
  };

  it('is in discovery, and answers a JWT with the chain as nested act claims; the child is listed and works', async () => {
    const discovery = await (await fetch(`${oauth.issuer}/.well-known/openid-configuration`)).json() as { grant_types_supported: string[] };
    assert.ok(discovery.grant_types_supported.includes(TOKEN_EXCHANGE));
    const { who, planner: root } = await planner();
    const answer = await exchange(root.token, { scope: 'users.view', expires_in: '600' });
    assert.equal(answer.issued_token_type, ACCESS_TOKEN);
    assert.equal(answer.token_type.toLowerCase(), 'bearer');
    assert.equal(answer.expires_in, 600);
    assert.equal(decodeProtectedHeader(answer.access_token).typ, 'at+jwt');
    const claims = decodeJwt(answer.access_token);
    const tokens = expectStatus(await t.api({ method: 'GET', path: 'ai/tokens/', token: who.token }), 200).results as
      { id: number; parent_id: number | null; agent_id: string }[];
    const child = tokens.find((r) => r.parent_id === root.id)!;
    assert.equal(child.agent_id, oauth.clientId);
    assert.deepEqual([claims.sub, claims.scope, claims.client_id, claims.aud, claims.iss], [String(who.id), 'users.view', oauth.clientId,
      oauth.issuer, oauth.issuer]);
    assert.deepEqual(claims.act, { sub: `agent_token:${child.id}`, agent_id: oauth.clientId,
      act: { sub: `agent_token:${root.id}`, agent_id: 'planner' } });
    // ai/authorize/ takes it as Bearer: the double check within the child's grant, the chain in the answer.
    const allowed = expectStatus(await authorize(answer.access_token, 'users.view'), 200);
    assert.deepEqual(allowed.chain.map((l: { id: number }) => l.id), [root.id, child.id]);
    assert.equal(expectStatus(await authorize(answer.access_token, 'roles.view'), 403).code, 'AGENT_PERMISSION_DENIED');
    // Introspection carries the same act, and what it may use now.
    const seen = await introspect(answer.access_token);
    assert.deepEqual([seen.active, seen.scope, seen.sub, seen.act], [true, 'users.view', String(who.id), claims.act]);
  });

  it('refuses a wider scope (invalid_scope) and a subject that cannot delegate (invalid_grant), issuing nothing', async () => {
    const { planner: root } = await planner();
    assert.equal(await refusalOf(exchange(root.token, { scope: 'users.manage' })), 'invalid_scope');
    const { planner: plain } = await planner({ can_delegate: false });
    assert.equal(await refusalOf(exchange(plain.token, { scope: 'users.view' })), 'invalid_grant');
    assert.equal(await refusalOf(exchange('gha_' + 'x'.repeat(43), { scope: 'users.view' })), 'invalid_grant');
    assert.equal(await refusalOf(exchange(root.token, { scope: 'users.view', subject_token_type: 'urn:x' })), 'invalid_request');
    // A child issued here cannot delegate further (can_delegate is never given by the exchange).
    const child = await exchange(root.token, { scope: 'users.view' });
    assert.equal(await refusalOf(exchange(child.access_token, { scope: 'users.view' })), 'invalid_grant');
    const children = await t.container.db.selectFrom('agent_tokens').select('id').where('parent_id', 'in', [root.id, plain.id]).execute();
    assert.equal(children.length, 1);
  });

  it('stops the child with its parent, and lets the client that got it revoke it', async () => {
    const { who, planner: root } = await planner();
    const first = await exchange(root.token, { scope: 'users.view' });
    const second = await exchange(root.token, { scope: 'users.view' });
    // The client revokes the first: it alone stops.
    const revoked = await fetch(`${oauth.issuer}/oauth/revoke`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${oauth.clientId}:${oauth.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ token: first.access_token }) });
    assert.equal(revoked.status, 200);
    assert.equal(expectStatus(await authorize(first.access_token, 'users.view'), 401).code, 'AGENT_TOKEN_REVOKED');
    expectStatus(await authorize(second.access_token, 'users.view'), 200);
    // The person revokes the planner: every child stops, and introspection says so.
    expectStatus(await t.api({ method: 'POST', path: `ai/tokens/${root.id}/revoke/`, token: who.token, payload: {} }), 200);
    assert.equal(expectStatus(await authorize(second.access_token, 'users.view'), 401).code, 'AGENT_TOKEN_REVOKED');
    assert.deepEqual(await introspect(second.access_token), { active: false });
    assert.equal(await refusalOf(exchange(root.token, { scope: 'users.view' })), 'invalid_grant');
  });

  it('reports usage with the child\'s JWT as Bearer, spending its budget and its parent\'s', async () => {
    const { who, planner: root } = await planner({ budget_limit_usd: 10 });
    const answer = await exchange(root.token, { scope: 'users.view', budget_limit_usd: '4' });
    const tokens = expectStatus(await t.api({ method: 'GET', path: 'ai/tokens/', token: who.token }), 200).results as
      { id: number; parent_id: number | null; budget_limit_usd: number | null }[];
    const child = tokens.find((r) => r.parent_id === root.id)!;
    assert.equal(child.budget_limit_usd, 4);
    const used = expectStatus(await t.api({ method: 'POST', path: `ai/tokens/${child.id}/report-usage/`, payload: { cost_usd: 1.5 },
      headers: { authorization: `Bearer ${answer.access_token}` } }), 200);
    assert.deepEqual([used.spend_usd, used.remaining_usd], [1.5, 2.5]);
    const parent = expectStatus(await t.api({ method: 'GET', path: `ai/tokens/${root.id}/`, token: who.token }), 200);
    assert.equal(parent.spend_usd, 1.5);
    // Beyond what the planner has left to give: refused, nothing issued.
    assert.equal(await refusalOf(exchange(root.token, { scope: 'users.view', budget_limit_usd: '6.5' })), 'invalid_grant');
  });
});
