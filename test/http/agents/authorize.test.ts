import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { createOrg, join, ORG_ENV } from '../organizations/helpers.js';
import { account, AGENT_ENV, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
/** `roles.manage` and `org.members.remove` wait for the delegating user's approval when an agent uses them. */
const ENV = { ...AGENT_ENV, ...ORG_ENV, SVC_AIRS_CONFIRMATION_REQUIRED: 'roles.manage,org.members.remove' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const DELETE_REPORT = { permission: 'roles.manage', method: 'delete', path: '/reports/7?b=2&a=1', body_sha256: sha256('') };

describe('POST ai/authorize/', () => {
  const t = useTestApp({ now: NOW, env: ENV });
  let alice: Account;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['roles.view', 'users.view', 'roles.manage']);
  });

  /** The integrator's backend: its application's credentials, and the agent's token forwarded when given. */
  const authorize = (token: string | null, payload: object, headers: Record<string, string> = {}) =>
    t.api({ method: 'POST', path: 'ai/authorize/', payload,
      headers: { ...(token ? { authorization: `AgentBearer ${token}` } : {}), ...headers } }) as Promise<LightMyRequestResponse>;
  const denied = (res: LightMyRequestResponse, status: number, code: string) => {
    const body = expectError(res, status, code);
    assert.equal(body.decision, 'deny');
    return body;
  };
  const tokenRow = (id: number) => t.container.db.selectFrom('agent_tokens').select(['status', 'suspended_reason', 'request_count', 'failed_count'])
    .where('id', '=', id).executeTakeFirstOrThrow();

  it('allows a granted permission the user holds, with the token, its agent and its user', async () => {
    const created = await delegate(t, alice, { agent_id: 'reporter', permissions: ['users.view', 'roles.view'] });
    const body = expectStatus(await authorize(created.token, { permission: 'roles.view' }), 200);
    assert.deepEqual(body, {
      decision: 'allow', agent_token_id: created.id, agent_id: 'reporter', user: { id: alice.id, email: 'alice@example.com' },
      granted_permissions: ['roles.view', 'users.view'], chain: [{ id: created.id, agent_id: 'reporter' }],
    });
    const row = await tokenRow(created.id);
    assert.equal(row.request_count, 1);
  });

  it('denies a permission not granted to the token, and an unknown code, counting each denial', async () => {
    const created = await delegate(t, alice, { permissions: ['roles.view'] });
    denied(await authorize(created.token, { permission: 'users.view' }), 403, 'AGENT_PERMISSION_DENIED');
    const body = denied(await authorize(created.token, { permission: 'no.such.permission' }), 403, 'AGENT_PERMISSION_DENIED');
    assert.equal(typeof body.error, 'string');
    assert.equal((await tokenRow(created.id)).failed_count, 2);
    expectStatus(await authorize(created.token, { permission: 'roles.view' }), 200);
    assert.equal((await tokenRow(created.id)).failed_count, 0, 'an allowed request ends the run of denials');
  });

  it('denies a permission granted to the token that the delegating user no longer holds', async () => {
    const created = await delegate(t, alice, { permissions: ['users.view'] });
    expectStatus(await authorize(created.token, { permission: 'users.view' }), 200);
    const usersView = await t.container.db.selectFrom('permissions').select('id').where('code', '=', 'users.view').executeTakeFirstOrThrow();
    await t.container.db.deleteFrom('user_permissions').where('user_id', '=', alice.id).where('permission_id', '=', usersView.id).execute();
    denied(await authorize(created.token, { permission: 'users.view' }), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('denies everything while the delegating user is banned', async () => {
    const created = await delegate(t, alice, { permissions: ['roles.view'] });
    await t.container.db.updateTable('users').set({ is_banned: true }).where('id', '=', alice.id).execute();
    denied(await authorize(created.token, { permission: 'roles.view' }), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('holds an organization token to its organization (and below it), with the user\'s role there', async () => {
    const bob = await account(t, { email: 'bob@example.com' });
    await createOrg(t, alice, 'acme');
    await createOrg(t, alice, 'acme-eu', 'acme');
    await createOrg(t, alice, 'globex');
    await createOrg(t, bob, 'initech');
    const { token } = await delegate(t, alice, { organization: 'acme', permissions: ['org.view'] });
    expectStatus(await authorize(token, { permission: 'org.view', organization: 'acme' }), 200);
    expectStatus(await authorize(token, { permission: 'org.view', organization: 'ACME-EU' }), 200);
    for (const organization of ['globex', 'initech', 'nowhere']) {
      denied(await authorize(token, { permission: 'org.view', organization }), 403, 'AGENT_PERMISSION_DENIED');
    }
    denied(await authorize(token, { permission: 'org.view' }), 403, 'AGENT_PERMISSION_DENIED');
    denied(await authorize(token, { permission: 'org.manage', organization: 'acme' }), 403, 'AGENT_PERMISSION_DENIED');
    // A token without an organization holds no organization permission.
    const global = await delegate(t, alice, { permissions: ['roles.view'] });
    denied(await authorize(global.token, { permission: 'org.view', organization: 'acme' }), 403, 'AGENT_PERMISSION_DENIED');
    // The user's current role: once alice is only a member of acme, org.manage is not held there any more.
    const manager = await delegate(t, alice, { organization: 'acme', permissions: ['org.manage'] });
    expectStatus(await authorize(manager.token, { permission: 'org.manage', organization: 'acme' }), 200);
    await join(t, 'acme', alice, 'member');
    denied(await authorize(manager.token, { permission: 'org.manage', organization: 'acme' }), 403, 'AGENT_PERMISSION_DENIED');
  });

  it('answers token failures with their 401 code and decision deny, a missing AgentBearer as AGENT_TOKEN_INVALID', async () => {
    denied(await authorize(null, { permission: 'roles.view' }), 401, 'AGENT_TOKEN_INVALID');
    // A Bearer is taken for an OAuth access token (docs/oauth.md "Grants and ai/authorize/"): a person's own is not one.
    denied(await authorize(null, { permission: 'roles.view' }, { authorization: `Bearer ${alice.token}` }), 401, 'TOKEN_INVALID');
    denied(await authorize(`gha_${'a'.repeat(43)}`, { permission: 'roles.view' }), 401, 'AGENT_TOKEN_INVALID');
    const revoked = await delegate(t, alice, { permissions: ['roles.view'] });
    expectStatus(await userApi(t)('POST', `ai/tokens/${revoked.id}/revoke/`, alice), 200);
    denied(await authorize(revoked.token, { permission: 'roles.view' }), 401, 'AGENT_TOKEN_REVOKED');
    const expiring = await delegate(t, alice, { permissions: ['roles.view'], expires_in: 60 });
    t.clock.advance(61);
    denied(await authorize(expiring.token, { permission: 'roles.view' }), 401, 'AGENT_TOKEN_EXPIRED');
  });

  it('leaves an agent_action row for every call, allowed, denied or refused at authentication', async () => {
    const created = await delegate(t, alice, { permissions: ['roles.view'] });
    const trace = { 'x-prompt-trace-id': 'run-7' };
    expectStatus(await authorize(created.token, { permission: 'roles.view' }, trace), 200);
    denied(await authorize(created.token, { permission: 'users.view' }, trace), 403, 'AGENT_PERMISSION_DENIED');
    expectStatus(await userApi(t)('POST', `ai/tokens/${created.id}/revoke/`, alice), 200);
    denied(await authorize(created.token, { permission: 'roles.view' }, trace), 401, 'AGENT_TOKEN_REVOKED');
    const activity = expectStatus(await userApi(t)('GET', `ai/tokens/${created.id}/activity/`, alice), 200);
    assert.deepEqual(activity.results.map((r: Record<string, unknown>) => [r.path, r.permission, r.decision, r.status, r.prompt_trace_id]), [
      ['/api/v1/auth/ai/authorize/', null, 'deny', 401, 'run-7'],
      ['/api/v1/auth/ai/authorize/', 'users.view', 'deny', 403, 'run-7'],
      ['/api/v1/auth/ai/authorize/', 'roles.view', 'allow', 200, 'run-7'],
    ]);
  });

  it('needs the application\'s credentials, and answers 404 FEATURE_DISABLED with SVC_AIRS_ENABLED off', async () => {
    const { token } = await delegate(t, alice, { permissions: ['roles.view'] });
    const anonymous = await t.api({ method: 'POST', path: 'ai/authorize/', appAuth: false, payload: { permission: 'roles.view' },
      headers: { authorization: `AgentBearer ${token}` } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().decision, undefined);
    const off = await createTestApp({ now: NOW, env: { ...ENV, SVC_AIRS_ENABLED: 'false' } });
    try {
      const res = await off.api({ method: 'POST', path: 'ai/authorize/', payload: { permission: 'roles.view' },
        headers: { authorization: `AgentBearer ${token}` } });
      expectError(res, 404, 'FEATURE_DISABLED');
    } finally {
      await off.close();
    }
  });

  it('with SVC_AIRS_REDACT_PII on, answers the delegating user\'s email redacted, as any answer about an agent\'s request', async () => {
    const redacting = await createTestApp({ now: NOW, env: { ...ENV, SVC_AIRS_REDACT_PII: 'true' } });
    try {
      const carol = await account(redacting, { email: 'carol@example.com' });
      await grantDirect(redacting, carol.id, ['roles.view']);
      const { token } = await delegate(redacting, carol, { permissions: ['roles.view'] });
      const res = await redacting.api({ method: 'POST', path: 'ai/authorize/', payload: { permission: 'roles.view' },
        headers: { authorization: `AgentBearer ${token}` } });
      assert.deepEqual(expectStatus(res, 200).user, { id: carol.id, email: '***REDACTED***' });
    } finally {
      await redacting.close();
    }
  });

  it('refuses malformed calls with 400 before counting anything', async () => {
    const created = await delegate(t, alice, { permissions: ['roles.view'] });
    for (const bad of [{}, { permission: '' }, { permission: 'roles.view', extra: 1 }, { permission: 'roles.view', body_sha256: 'abc' },
      { permission: 'roles.view', path: 'no-slash' }, { permission: 'roles.view', method: 'GET /' }]) {
      expectError(await authorize(created.token, bad), 400, 'VALIDATION_ERROR');
    }
    assert.equal((await tokenRow(created.id)).request_count, 0);
  });

  describe('circuit breakers', () => {
    it('20 parallel calls against a total of 5: exactly 5 allowed, the rest denied, the token suspended for RATE_LIMIT', async () => {
      const { id, token } = await delegate(t, alice, { permissions: ['roles.view'], circuit_breaker: { max_requests_total: 5 } });
      const answers = await Promise.all(Array.from({ length: 20 }, () => authorize(token, { permission: 'roles.view' })));
      assert.equal(answers.filter((r) => r.statusCode === 200 && r.json().decision === 'allow').length, 5);
      for (const refused of answers.filter((r) => r.statusCode !== 200)) {
        assert.equal(denied(refused, 403, 'AGENT_TOKEN_SUSPENDED').reason, 'RATE_LIMIT');
      }
      assert.deepEqual(await tokenRow(id), { status: 'SUSPENDED', suspended_reason: 'RATE_LIMIT', request_count: 5, failed_count: 0 });
    });

    it('10 consecutive denials suspend the token for ANOMALY', async () => {
      const { id, token } = await delegate(t, alice, { permissions: ['roles.view'] });
      for (let i = 0; i < 10; i++) denied(await authorize(token, { permission: 'users.manage' }), 403, 'AGENT_PERMISSION_DENIED');
      const body = denied(await authorize(token, { permission: 'roles.view' }), 403, 'AGENT_TOKEN_SUSPENDED');
      assert.equal(body.reason, 'ANOMALY');
      assert.deepEqual(await tokenRow(id), { status: 'SUSPENDED', suspended_reason: 'ANOMALY', request_count: 10, failed_count: 10 });
    });
  });

  describe('approval', () => {
    const confirmation = (token: string) => ({ 'x-action-confirmation': token });

    it('answers 202 pending, and once approved the repeated call is allowed once', async () => {
      const { token } = await delegate(t, alice, { permissions: ['roles.manage'] });
      const pending = expectStatus(await authorize(token, DELETE_REPORT, { 'x-prompt-trace-id': 'trace-42' }), 202);
      assert.equal(pending.decision, 'pending');
      assert.equal(pending.status, 'pending_confirmation');
      assert.match(pending.confirmation_token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(pending.expires_at, '2025-03-01T10:10:00.000Z');
      const listed = expectStatus(await userApi(t)('GET', 'ai/pending-actions/', alice), 200);
      assert.deepEqual(listed.results.map((a: Record<string, unknown>) => [a.id, a.permission, a.method, a.path, a.prompt_trace_id, a.payload]),
        [[pending.action_id, 'roles.manage', 'DELETE', '/reports/7?a=1&b=2', 'trace-42', null]]);
      // Still undecided: the same 202, no new action.
      const again = expectStatus(await authorize(token, DELETE_REPORT, confirmation(pending.confirmation_token)), 202);
      assert.equal(again.action_id, pending.action_id);
      expectStatus(await userApi(t)('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice, {}), 200);
      // The query's parameters in another order name the same request.
      const replay = { ...DELETE_REPORT, method: 'DELETE', path: '/reports/7?a=1&b=2' };
      assert.equal(expectStatus(await authorize(token, replay, confirmation(pending.confirmation_token)), 200).decision, 'allow');
      denied(await authorize(token, replay, confirmation(pending.confirmation_token)), 403, 'ACTION_CONFIRMATION_INVALID');
    });

    it('binds the approval to the body, method and path', async () => {
      const { token } = await delegate(t, alice, { permissions: ['roles.manage'] });
      const pending = expectStatus(await authorize(token, DELETE_REPORT), 202);
      expectStatus(await userApi(t)('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice, {}), 200);
      const header = confirmation(pending.confirmation_token);
      for (const other of [{ body_sha256: sha256('{"id":8}') }, { method: 'POST' }, { path: '/reports/8?a=1&b=2' }]) {
        denied(await authorize(token, { ...DELETE_REPORT, ...other }, header), 403, 'ACTION_CONFIRMATION_INVALID');
      }
      // None of those used the approval up.
      expectStatus(await authorize(token, DELETE_REPORT, header), 200);
    });

    it('binds the approval to the organization', async () => {
      await createOrg(t, alice, 'acme');
      await createOrg(t, alice, 'acme-eu', 'acme');
      const { token } = await delegate(t, alice, { organization: 'acme', permissions: ['org.members.remove'] });
      const call = { ...DELETE_REPORT, permission: 'org.members.remove', organization: 'acme' };
      const pending = expectStatus(await authorize(token, call), 202);
      expectStatus(await userApi(t)('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice, {}), 200);
      const header = confirmation(pending.confirmation_token);
      denied(await authorize(token, { ...call, organization: 'acme-eu' }, header), 403, 'ACTION_CONFIRMATION_INVALID');
      expectStatus(await authorize(token, { ...call, organization: 'Acme' }, header), 200);
    });

    it('a rejected action answers ACTION_REJECTED', async () => {
      const { token } = await delegate(t, alice, { permissions: ['roles.manage'] });
      const pending = expectStatus(await authorize(token, DELETE_REPORT), 202);
      expectStatus(await userApi(t)('POST', `ai/pending-actions/${pending.action_id}/reject/`, alice, {}), 200);
      denied(await authorize(token, DELETE_REPORT, confirmation(pending.confirmation_token)), 403, 'ACTION_REJECTED');
    });

    it('needs method, path and body_sha256 (400) when the permission waits for approval, and only then', async () => {
      const { id, token } = await delegate(t, alice, { permissions: ['roles.manage', 'roles.view'] });
      const body = expectError(await authorize(token, { permission: 'roles.manage', method: 'DELETE' }), 400, 'VALIDATION_ERROR');
      assert.deepEqual(body.details, { path: ['This field is required.'], body_sha256: ['This field is required.'] });
      expectError(await authorize(token, { ...DELETE_REPORT, method: undefined }), 400, 'VALIDATION_ERROR');
      assert.equal((await tokenRow(id)).request_count, 0);
      expectStatus(await authorize(token, { permission: 'roles.view' }), 200);
    });

    it('an ungranted permission is denied before any approval is asked', async () => {
      const { token } = await delegate(t, alice, { permissions: ['roles.view'] });
      denied(await authorize(token, DELETE_REPORT), 403, 'AGENT_PERMISSION_DENIED');
      assert.equal(expectStatus(await userApi(t)('GET', 'ai/pending-actions/', alice), 200).count, 0);
    });
  });
});
