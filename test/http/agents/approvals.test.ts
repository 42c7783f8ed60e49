import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Type } from 'typebox';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { sha256Hex } from '../../../src/security/random.js';
import { userRow } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { auditEvents } from '../../helpers/audit.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const LIFETIME = 600;

/** A route needing `roles.manage` (listed in SVC_AIRS_CONFIRMATION_REQUIRED below) that counts how often it ran. */
let probeRuns = 0;
const probeRoutes: RoutePlugin = async (app, { guards }) => {
  app.post('/test/approval-probe/', {
    schema: { body: Type.Object({}, { additionalProperties: true }), response: { 200: Type.Object({ runs: Type.Integer() }) } },
    onRequest: [guards.user({ agents: true }), guards.permission('roles.manage')],
  }, async () => ({ runs: ++probeRuns }));
};

describe('human approval of agent actions', () => {
  const t = useTestApp({ now: NOW, apiRoutes: [probeRoutes], env: { ...AGENT_ENV, SVC_AIRS_CONFIRMATION_REQUIRED: 'roles.manage' } });
  let alice: Account;
  let bob: Account;
  let carol: Account;
  beforeEach(async () => {
    probeRuns = 0;
    alice = await account(t, { email: 'alice@example.com' });
    bob = await account(t, { email: 'bob@example.com' });
    carol = await account(t, { email: 'carol@example.com' });
    await grantDirect(t, alice.id, ['users.manage', 'users.view', 'roles.manage']);
    await grantDirect(t, bob.id, ['users.manage', 'users.view', 'roles.manage']);
  });
  const agent = (...a: Parameters<ReturnType<typeof agentApi>>) => agentApi(t)(...a);
  const user = (...a: Parameters<ReturnType<typeof userApi>>) => userApi(t)(...a);
  const grants = { permissions: ['users.manage', 'users.view', 'roles.manage'] };
  const banPath = () => `admin/users/${carol.id}/ban/`;
  const isBanned = async () => (await userRow(t, carol.id)).is_banned;
  const actionRows = () => t.container.db.selectFrom('agent_pending_actions').selectAll().orderBy('id').execute();
  const confirmed = (confirmation: string, headers: Record<string, string> = {}) =>
    ({ 'x-action-confirmation': confirmation, ...headers });

  /** An agent's ban of carol, answered 202; its body. */
  async function pendingBan(token: string, headers: Record<string, string> = {}, path = banPath(), body: unknown = { reason: 'spam' }) {
    const res = await agent('POST', path, token, body, headers);
    return expectStatus(res, 202);
  }

  it('answers 202 pending_confirmation on a route that declares approval, runs nothing, and stores no clear token', async () => {
    const { id, token } = await delegate(t, alice, grants);
    const pending = await pendingBan(token);
    assert.deepEqual(Object.keys(pending).sort(), ['action_id', 'confirmation_token', 'expires_at', 'message', 'status']);
    assert.equal(pending.status, 'pending_confirmation');
    assert.match(pending.confirmation_token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(pending.expires_at, new Date(NOW.getTime() + LIFETIME * 1000).toISOString());
    assert.equal(await isBanned(), false);
    const [row] = await actionRows();
    assert.ok(row);
    assert.equal(row.id, pending.action_id);
    assert.deepEqual([row.agent_token_id, row.user_id, row.status, row.method, row.permission], [id, alice.id, 'pending', 'POST', 'users.manage']);
    assert.equal(row.path, `${t.container.config.API_PREFIX}${banPath()}`);
    assert.equal(row.body_sha256, sha256Hex(JSON.stringify({ reason: 'spam' })));
    assert.equal(row.confirmation_hash, sha256Hex(pending.confirmation_token));
    assert.ok(!JSON.stringify(row).includes(pending.confirmation_token), 'the token itself is not stored');
  });

  it('lists the action for the delegating user, with the trace id and a confirmation_token that works', async () => {
    const { id, token } = await delegate(t, alice, { ...grants, agent_id: 'ops-bot' });
    const pending = await pendingBan(token, { 'x-prompt-trace-id': 'trace:42' });
    const list = expectStatus(await user('GET', 'ai/pending-actions/', alice), 200);
    assert.equal(list.count, 1);
    const [action] = list.results;
    assert.deepEqual(Object.keys(action).sort(), ['agent_id', 'agent_token_id', 'confirmation_token', 'created_at', 'expires_at', 'id',
      'method', 'path', 'payload', 'permission', 'prompt_trace_id', 'status'].sort());
    // see: #30 — an undecided action reads pending_confirmation, as in the agent's 202 (docs/agents.md "Human approval").
    assert.deepEqual([action.id, action.agent_id, action.agent_token_id, action.status, action.prompt_trace_id],
      [pending.action_id, 'ops-bot', id, 'pending_confirmation', 'trace:42']);
    assert.deepEqual(action.payload, { reason: 'spam' });
    assert.equal(action.confirmation_token, pending.confirmation_token);
    assert.equal(expectStatus(await user('GET', `ai/pending-actions/?agent_token_id=${id + 1}`, alice), 200).count, 0);

    const approved = expectStatus(await user('POST', `ai/pending-actions/${action.id}/approve/`, alice), 200);
    assert.deepEqual([approved.status, approved.action.status, approved.action.id], ['approved', 'approved', action.id]);
    assert.equal(expectStatus(await user('GET', 'ai/pending-actions/', alice), 200).count, 0, 'decided actions leave the list');
    expectStatus(await agent('POST', banPath(), token, { reason: 'spam' }, confirmed(action.confirmation_token)), 200);
    assert.equal(await isBanned(), true);
    const [event] = await auditEvents(t, 'agent_action_approved');
    assert.deepEqual([event?.user_id, event?.details.action_id, event?.details.prompt_trace_id], [alice.id, action.id, 'trace:42']);
  });

  it('ignores a malformed X-Prompt-Trace-ID', async () => {
    const { token } = await delegate(t, alice, grants);
    await pendingBan(token, { 'x-prompt-trace-id': 'not a trace id' });
    assert.equal((await actionRows())[0]?.prompt_trace_id, null);
  });

  it('answers the same 202 to a replay while still pending, and records nothing new', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = await pendingBan(token);
    t.clock.advance(30);
    const again = await pendingBan(token, confirmed(pending.confirmation_token));
    assert.deepEqual(again, pending);
    assert.equal((await actionRows()).length, 1);
    assert.equal(await isBanned(), false);
  });

  it('runs an approved action once: a second replay is 403 ACTION_CONFIRMATION_INVALID', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = await pendingBan(token);
    expectStatus(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice), 200);
    const done = expectStatus(await agent('POST', banPath(), token, { reason: 'spam' }, confirmed(pending.confirmation_token)), 200);
    assert.equal(done.message, 'User banned');
    assert.equal((await actionRows())[0]?.status, 'executed');
    expectError(await agent('POST', banPath(), token, { reason: 'spam' }, confirmed(pending.confirmation_token)), 403, 'ACTION_CONFIRMATION_INVALID');
  });

  it('lets exactly one of parallel replays of an approved action run', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = expectStatus(await agent('POST', 'test/approval-probe/', token, { n: 1 }), 202);
    assert.equal(probeRuns, 0);
    expectStatus(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice), 200);
    const answers = await Promise.all(Array.from({ length: 10 }, () =>
      agent('POST', 'test/approval-probe/', token, { n: 1 }, confirmed(pending.confirmation_token))));
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, ...Array<number>(9).fill(403)]);
    for (const refused of answers.filter((r) => r.statusCode === 403)) assert.equal(refused.json().code, 'ACTION_CONFIRMATION_INVALID');
    assert.equal(probeRuns, 1);
  });

  it('answers 403 ACTION_REJECTED to a replay of a rejected action, and runs nothing', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = await pendingBan(token);
    const rejected = expectStatus(await user('POST', `ai/pending-actions/${pending.action_id}/reject/`, alice), 200);
    assert.deepEqual([rejected.status, rejected.action.status], ['rejected', 'rejected']);
    expectError(await agent('POST', banPath(), token, { reason: 'spam' }, confirmed(pending.confirmation_token)), 403, 'ACTION_REJECTED');
    assert.equal(await isBanned(), false);
    expectError(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice), 404, 'NOT_FOUND');
    const events = await auditEvents(t, 'agent_action_rejected');
    assert.deepEqual(events.map((e) => [e.user_id, e.severity, e.details.action_id]), [[alice.id, 'warning', pending.action_id]]);
  });

  it('expires after SVC_AIRS_CONFIRMATION_LIFETIME: the replay is invalid, approve answers 404, the list is empty', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = await pendingBan(token);
    t.clock.advance(LIFETIME + 1);
    expectError(await agent('POST', banPath(), token, { reason: 'spam' }, confirmed(pending.confirmation_token)), 403, 'ACTION_CONFIRMATION_INVALID');
    expectError(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice), 404, 'NOT_FOUND');
    assert.equal(expectStatus(await user('GET', 'ai/pending-actions/', alice), 200).count, 0);
  });

  it('does not run an approved action replayed after its expiry', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = await pendingBan(token);
    expectStatus(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice), 200);
    t.clock.advance(LIFETIME);
    expectError(await agent('POST', banPath(), token, { reason: 'spam' }, confirmed(pending.confirmation_token)), 403, 'ACTION_CONFIRMATION_INVALID');
    assert.equal(await isBanned(), false);
  });

  it('binds the approval to the token, method, path and query, X-Org-Slug and raw body', async () => {
    const { token } = await delegate(t, alice, grants);
    const { token: other } = await delegate(t, alice, grants);
    const pending = await pendingBan(token, {}, `${banPath()}?b=2&a=1&a=0`);
    expectStatus(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice), 200);
    const replay = (who: string, method: 'POST' | 'DELETE', path: string, body: unknown, headers: Record<string, string> = {}) =>
      agent(method, path, who, body, confirmed(pending.confirmation_token, headers));
    const mismatches = [
      await replay(other, 'POST', `${banPath()}?a=1&a=0&b=2`, { reason: 'spam' }),
      await replay(token, 'DELETE', `admin/users/${carol.id}/?a=1&a=0&b=2`, undefined),
      await replay(token, 'POST', `admin/users/${bob.id}/ban/?a=1&a=0&b=2`, { reason: 'spam' }),
      await replay(token, 'POST', `${banPath()}?a=1&a=0&b=3`, { reason: 'spam' }),
      await replay(token, 'POST', `${banPath()}?a=0&a=1&b=2`, { reason: 'spam' }),
      await replay(token, 'POST', `${banPath()}?a=1&a=0&b=2`, { reason: 'spam' }, { 'x-org-slug': 'acme' }),
      await replay(token, 'POST', `${banPath()}?a=1&a=0&b=2`, { reason: 'other' }),
      await agent('POST', `${banPath()}?a=1&a=0&b=2`, token, '{ "reason": "spam" }',
        confirmed(pending.confirmation_token, { 'content-type': 'application/json' })),
    ];
    for (const res of mismatches) expectError(res, 403, 'ACTION_CONFIRMATION_INVALID');
    assert.equal(await isBanned(), false);
    // The same parameters in another order (each name's values in their order) are the same request.
    expectStatus(await replay(token, 'POST', `${banPath()}?a=1&a=0&b=2`, { reason: 'spam' }), 200);
    assert.equal(await isBanned(), true);
  });

  it('binds X-Org-Slug case-insensitively and a request without a body to the empty body', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = expectStatus(await agent('DELETE', `admin/users/${carol.id}/`, token, undefined, { 'x-org-slug': 'Acme' }), 202);
    const [row] = await actionRows();
    assert.deepEqual([row?.org_slug, row?.body_sha256, row?.payload], ['acme', sha256Hex(''), null]);
    expectStatus(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice), 200);
    expectError(await agent('DELETE', `admin/users/${carol.id}/`, token, {}, confirmed(pending.confirmation_token, { 'x-org-slug': 'acme' })),
      403, 'ACTION_CONFIRMATION_INVALID');
    expectStatus(await agent('DELETE', `admin/users/${carol.id}/`, token, undefined, confirmed(pending.confirmation_token, { 'x-org-slug': 'ACME' })), 200);
    assert.notEqual((await userRow(t, carol.id)).deleted_at, null);
  });

  it('refuses an unknown or malformed confirmation with 403 ACTION_CONFIRMATION_INVALID', async () => {
    const { token } = await delegate(t, alice, grants);
    for (const confirmation of ['A'.repeat(43), 'short', '']) {
      expectError(await agent('POST', banPath(), token, { reason: 'spam' }, confirmed(confirmation)), 403, 'ACTION_CONFIRMATION_INVALID');
    }
    assert.equal((await actionRows()).length, 0);
  });

  it('lets only the delegating user decide: another user gets 404 NOT_FOUND and an empty list', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = await pendingBan(token);
    assert.equal(expectStatus(await user('GET', 'ai/pending-actions/', bob), 200).count, 0);
    for (const action of ['approve', 'reject']) {
      expectError(await user('POST', `ai/pending-actions/${pending.action_id}/${action}/`, bob), 404, 'NOT_FOUND');
    }
    for (const action of ['confirm', 'deny']) {
      expectError(await user('POST', `ai/pending-actions/${action}/`, bob, { token: pending.confirmation_token }), 404, 'NOT_FOUND');
    }
    expectError(await user('POST', 'ai/pending-actions/999999/approve/', alice), 404, 'NOT_FOUND');
    expectError(await user('POST', 'ai/pending-actions/nope/approve/', alice), 404, 'NOT_FOUND');
    assert.equal((await actionRows())[0]?.status, 'pending');
  });

  it('decides by token through confirm/ and deny/', async () => {
    const { token } = await delegate(t, alice, grants);
    const first = await pendingBan(token);
    const confirmedAnswer = expectStatus(await user('POST', 'ai/pending-actions/confirm/', alice, { token: first.confirmation_token }), 200);
    assert.deepEqual([confirmedAnswer.status, confirmedAnswer.action.status, confirmedAnswer.action.id], ['confirmed', 'approved', first.action_id]);
    assert.equal(typeof confirmedAnswer.message, 'string');
    expectError(await user('POST', 'ai/pending-actions/deny/', alice, { token: first.confirmation_token }), 404, 'NOT_FOUND');
    expectStatus(await agent('POST', banPath(), token, { reason: 'spam' }, confirmed(first.confirmation_token)), 200);

    const second = expectStatus(await agent('POST', 'test/approval-probe/', token, { n: 2 }), 202);
    const denied = expectStatus(await user('POST', 'ai/pending-actions/deny/', alice, { token: second.confirmation_token }), 200);
    assert.deepEqual([denied.status, denied.action.status], ['denied', 'rejected']);
    expectError(await agent('POST', 'test/approval-probe/', token, { n: 2 }, confirmed(second.confirmation_token)), 403, 'ACTION_REJECTED');
    expectError(await user('POST', 'ai/pending-actions/confirm/', alice, { token: 'malformed' }), 404, 'NOT_FOUND');
    expectError(await user('POST', 'ai/pending-actions/confirm/', alice, {}), 400, 'VALIDATION_ERROR');
    assert.equal(probeRuns, 0);
  });

  it('holds a permission listed in SVC_AIRS_CONFIRMATION_REQUIRED; one not listed runs at once', async () => {
    const { token } = await delegate(t, alice, grants);
    expectStatus(await agent('POST', 'test/approval-probe/', token, {}), 202);
    assert.equal(probeRuns, 0);
    const patched = expectStatus(await agent('PATCH', `admin/users/${carol.id}/`, token, { first_name: 'Caroline' }), 200);
    assert.ok(patched);
    assert.equal((await userRow(t, carol.id)).first_name, 'Caroline');
    expectStatus(await agent('GET', 'admin/users/', token), 200);
    assert.equal((await actionRows()).length, 1);
  });

  it('stores the payload with secret-like values redacted', async () => {
    const { token } = await delegate(t, alice, grants);
    await agent('POST', 'test/approval-probe/', token, {
      name: 'kept', password: 'p4ss', newPassword: 'p4ss2', nested: { api_key: 'k', items: [{ otp_code: '123456', note: 'kept' }] },
      client_secret: 's', refresh_token: 'r', permission_codes: ['users.view'],
    });
    const [action] = expectStatus(await user('GET', 'ai/pending-actions/', alice), 200).results;
    const R = '***REDACTED***';
    assert.deepEqual(action.payload, {
      name: 'kept', password: R, newPassword: R, nested: { api_key: R, items: [{ otp_code: R, note: 'kept' }] },
      client_secret: R, refresh_token: R, permission_codes: ['users.view'],
    });
    assert.ok(!JSON.stringify((await actionRows())[0]?.payload).includes('p4ss'));
  });

  it('is closed to agents: they can neither list nor decide', async () => {
    const { token } = await delegate(t, alice, grants);
    const pending = await pendingBan(token);
    expectError(await agent('GET', 'ai/pending-actions/', token), 403, 'AGENT_NOT_ALLOWED');
    expectError(await agent('POST', `ai/pending-actions/${pending.action_id}/approve/`, token, {}), 403, 'AGENT_NOT_ALLOWED');
    expectError(await agent('POST', 'ai/pending-actions/confirm/', token, { token: pending.confirmation_token }), 403, 'AGENT_NOT_ALLOWED');
    assert.equal((await actionRows())[0]?.status, 'pending');
  });
});
