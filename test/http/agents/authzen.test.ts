import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { useTestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// docs/agents.md "AuthZEN": the OpenID AuthZEN Authorization API 1.0, answering from ai/authorize/'s decision.
describe('AuthZEN (/access/v1/evaluation, /access/v1/evaluations)', () => {
  const t = useTestApp({ now: NOW, env: { ...AGENT_ENV, SVC_AIRS_CONFIRMATION_REQUIRED: 'roles.manage' } });
  let alice: Account;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['users.view', 'roles.view', 'roles.manage']);
  });

  /** A call of the application's policy enforcement point: the test application's keys, at the host root. */
  const pdp = (path: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: path, payload, headers: { ...t.headers, ...headers } }) as Promise<LightMyRequestResponse>;
  const evaluation = (token: string, permission: string, extra: object = {}) =>
    pdp('/access/v1/evaluation', { subject: { type: 'agent_token', id: token }, action: { name: permission }, ...extra });
  const tokenRow = (id: number) => t.container.db.selectFrom('agent_tokens').select(['request_count', 'failed_count'])
    .where('id', '=', id).executeTakeFirstOrThrow();

  it('publishes its metadata', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/authzen-configuration' });
    const body = expectStatus(res, 200);
    assert.deepEqual(Object.keys(body).sort(), ['access_evaluation_endpoint', 'access_evaluations_endpoint', 'policy_decision_point']);
    assert.match(body.access_evaluation_endpoint, /\/access\/v1\/evaluation$/);
  });

  it('decides as ai/authorize/ does: allow with the chain, deny with the reason, each counted on the token', async () => {
    const token = await delegate(t, alice, { agent_id: 'reporter', permissions: ['users.view'] });
    assert.deepEqual(expectStatus(await evaluation(token.token, 'users.view'), 200),
      { decision: true, context: { chain: [{ id: token.id, agent_id: 'reporter' }] } });
    const denied = expectStatus(await evaluation(token.token, 'roles.view'), 200);
    assert.deepEqual([denied.decision, denied.context.reason], [false, 'AGENT_PERMISSION_DENIED']);
    assert.deepEqual(await tokenRow(token.id), { request_count: 2, failed_count: 1 });
    const unknown = expectStatus(await evaluation('gha_' + 'x'.repeat(43), 'users.view'), 200);
    assert.deepEqual(unknown, { decision: false, context: { reason: 'AGENT_TOKEN_INVALID' } });
    expectStatus(await userApi(t)('POST', `ai/tokens/${token.id}/revoke/`, alice, {}), 200);
    assert.equal(expectStatus(await evaluation(token.token, 'users.view'), 200).context.reason, 'AGENT_TOKEN_REVOKED');
    // Each evaluation is in the token's activity.
    await t.container.services.agentActivity.flush();
    const rows = expectStatus(await userApi(t)('GET', `ai/tokens/${token.id}/activity/`, alice), 200);
    assert.equal(rows.count, 3);
  });

  it('waits for approval as ai/authorize/ does: a pending action, then allowed with its confirmation', async () => {
    const token = await delegate(t, alice, { permissions: ['roles.manage'] });
    const resource = { type: 'report', id: '7', properties: { method: 'DELETE', path: '/reports/7', body_sha256: sha256('') } };
    const pending = expectStatus(await evaluation(token.token, 'roles.manage', { resource }), 200);
    assert.equal(pending.decision, false);
    assert.equal(pending.context.reason, 'PENDING_APPROVAL');
    const { action_id, confirmation_token } = pending.context.pending_action;
    expectStatus(await userApi(t)('POST', `ai/pending-actions/${action_id}/approve/`, alice, {}), 200);
    const allowed = expectStatus(await evaluation(token.token, 'roles.manage', { resource, context: { action_confirmation: confirmation_token } }), 200);
    assert.equal(allowed.decision, true);
  });

  it('answers several evaluations with defaults from the request, and stops early when asked', async () => {
    const token = await delegate(t, alice, { permissions: ['users.view', 'roles.view'] });
    const body = { subject: { type: 'agent_token', id: token.token }, action: { name: 'users.view' },
      evaluations: [{}, { action: { name: 'roles.view' } }, { action: { name: 'users.manage' } }, { action: { name: 'users.view' } }] };
    const all = expectStatus(await pdp('/access/v1/evaluations', body), 200);
    assert.deepEqual(all.evaluations.map((e: { decision: boolean }) => e.decision), [true, true, false, true]);
    assert.equal(all.evaluations[2].context.reason, 'AGENT_PERMISSION_DENIED');
    // A permission that needs approval, without the request it would bind: that evaluation says so, the others stand.
    const unbound = expectStatus(await pdp('/access/v1/evaluations', { ...body, evaluations: [{ action: { name: 'roles.manage' } }, {}] }), 200);
    assert.deepEqual(unbound.evaluations, [{ decision: false, context: { reason: 'VALIDATION_ERROR' } },
      { decision: true, context: { chain: [{ id: token.id, agent_id: 'assistant' }] } }]);
    const first = expectStatus(await pdp('/access/v1/evaluations', { ...body, options: { evaluations_semantic: 'deny_on_first_deny' } }), 200);
    assert.deepEqual(first.evaluations.map((e: { decision: boolean }) => e.decision), [true, true, false]);
    const permit = expectStatus(await pdp('/access/v1/evaluations', { ...body, options: { evaluations_semantic: 'permit_on_first_permit' } }), 200);
    assert.equal(permit.evaluations.length, 1);
  });

  it('refuses calls without the application\'s credentials, and a malformed subject, counting nothing', async () => {
    const token = await delegate(t, alice, { permissions: ['users.view'] });
    const call = { subject: { type: 'agent_token', id: token.token }, action: { name: 'users.view' } };
    expectError(await t.app.inject({ method: 'POST', url: '/access/v1/evaluation', payload: call }) as LightMyRequestResponse, 401,
      'APP_AUTH_REQUIRED');
    expectError(await pdp('/access/v1/evaluation', call, { 'x-access-secret': 'wrong' }), 401, 'APP_AUTH_INVALID');
    expectError(await pdp('/access/v1/evaluation', { ...call, subject: { type: 'user', id: token.token } }), 400, 'VALIDATION_ERROR');
    expectError(await pdp('/access/v1/evaluation', { ...call, subject: { type: 'agent_token' } }), 400, 'VALIDATION_ERROR');
    expectError(await pdp('/access/v1/evaluations', { evaluations: [{ action: { name: 'users.view' } }] }), 400, 'VALIDATION_ERROR');
    assert.deepEqual(await tokenRow(token.id), { request_count: 0, failed_count: 0 });
  });
});
