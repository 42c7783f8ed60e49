import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { userRow } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, agentApi, delegate, expectError, expectStatus, grantDirect, type Account } from '../agents/helpers.js';

/** What the SDK's HTTP client sends on every call (the application headers are added by `t.api`). */
const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** SDK compatibility (docs/migrating-from-tenxyte.md): a pending action decided by its confirmation token, `{token}` to confirm/ or deny/. */
describe('SDK compatibility: approvals by token', () => {
  const t = useTestApp({ env: AGENT_ENV });
  let alice: Account;
  let carol: Account;
  let agentToken: string;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    carol = await account(t, { email: 'carol@example.com' });
    await grantDirect(t, alice.id, ['users.manage']);
    agentToken = (await delegate(t, alice, { permissions: ['users.manage'] })).token;
  });

  /** confirmPendingAction / denyPendingAction as the SDK sends them, with the signed-in user's bearer. */
  const decide = (verb: 'confirm' | 'deny', token: string, who: Account = alice) =>
    t.api({ method: 'POST', path: `ai/pending-actions/${verb}/`, token: who.token, headers: SDK_HEADERS, payload: { token } });
  /** The agent's ban of carol (a route that always waits for approval), replayed with a confirmation when given. */
  const ban = (confirmation?: string) => agentApi(t)('POST', `admin/users/${carol.id}/ban/`, agentToken, { reason: 'spam' },
    { ...SDK_HEADERS, ...(confirmation ? { 'x-action-confirmation': confirmation } : {}) });

  it('confirm/ answers status "confirmed", and the agent\'s replay then runs once', async () => {
    const pending = expectStatus(await ban(), 202);
    const listed = expectStatus(await t.api({ method: 'GET', path: 'ai/pending-actions/', token: alice.token, headers: SDK_HEADERS }), 200);
    assert.deepEqual(listed.results.map((a: { status: string }) => a.status), ['pending_confirmation']);
    const confirmed = expectStatus(await decide('confirm', pending.confirmation_token), 200);
    assert.deepEqual([confirmed.status, confirmed.action.status], ['confirmed', 'approved']);
    expectStatus(await ban(pending.confirmation_token), 200);
    assert.equal((await userRow(t, carol.id)).is_banned, true);
    expectError(await decide('confirm', pending.confirmation_token), 404, 'NOT_FOUND');
  });

  it('deny/ answers status "denied", and the replay is 403 ACTION_REJECTED', async () => {
    const pending = expectStatus(await ban(), 202);
    const denied = expectStatus(await decide('deny', pending.confirmation_token), 200);
    assert.deepEqual([denied.status, denied.action.status], ['denied', 'rejected']);
    expectError(await ban(pending.confirmation_token), 403, 'ACTION_REJECTED');
    assert.equal((await userRow(t, carol.id)).is_banned, false);
  });

  it('lets only the delegating user decide, never the agent itself', async () => {
    const pending = expectStatus(await ban(), 202);
    expectError(await decide('confirm', pending.confirmation_token, carol), 404, 'NOT_FOUND');
    expectError(await agentApi(t)('POST', 'ai/pending-actions/confirm/', agentToken, { token: pending.confirmation_token }, SDK_HEADERS),
      403, 'AGENT_NOT_ALLOWED');
    expectError(await decide('deny', 'not-a-token'), 404, 'NOT_FOUND');
    expectStatus(await ban(pending.confirmation_token), 202);
  });
});
