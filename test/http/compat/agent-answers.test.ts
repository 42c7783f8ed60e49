import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, expectError, expectStatus, grantDirect, type Account } from '../agents/helpers.js';

/** What the SDK's HTTP client sends on every call (the application headers are added by `t.api`). */
const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** SDK compatibility (docs/migrating-from-tenxyte.md): the agent-token answers the SDK reads. */
describe('SDK compatibility: agent answers', () => {
  const t = useTestApp({ env: AGENT_ENV });
  let alice: Account;
  let tokenId: number;
  let agentToken: string;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['roles.view']);
    ({ id: tokenId, token: agentToken } = expectStatus(await asUser('POST', 'ai/tokens/',
      { agent_id: 'assistant', permissions: ['roles.view'], budget_limit_usd: 1 }), 201));
  });

  /** A call as the SDK makes it: a bodiless POST still carries the JSON content type, with `Content-Length: 0` as fetch sends. */
  const call = (method: 'GET' | 'POST', path: string, authorization: string, payload?: object) => t.api({ method, path,
    headers: { ...SDK_HEADERS, authorization, ...(!payload && method === 'POST' ? { 'content-length': '0' } : {}) },
    ...(payload ? { payload } : {}) });
  const asUser = (method: 'GET' | 'POST', path: string, payload?: object) => call(method, path, `Bearer ${alice.token}`, payload);
  const asAgent = (method: 'GET' | 'POST', path: string, payload?: object) => call(method, path, `AgentBearer ${agentToken}`, payload);
  const spendOf = async () => expectStatus(await asUser('GET', `ai/tokens/${tokenId}/`), 200).spend_usd;

  it('list and detail rows carry current_request_count beside request_count', async () => {
    for (let i = 0; i < 2; i++) expectStatus(await asAgent('GET', 'roles/'), 200);
    const [row] = expectStatus(await asUser('GET', 'ai/tokens/'), 200).results;
    assert.deepEqual([row.id, row.current_request_count, row.request_count], [tokenId, 2, 2]);
    const detail = expectStatus(await asUser('GET', `ai/tokens/${tokenId}/`), 200);
    assert.deepEqual([detail.current_request_count, detail.status, detail.organization], [2, 'ACTIVE', null]);
  });

  it('suspend/ and revoke/ answer {status} in lower case beside the token record', async () => {
    const suspended = expectStatus(await asUser('POST', `ai/tokens/${tokenId}/suspend/`), 200);
    assert.deepEqual([suspended.status, suspended.token.id, suspended.token.status], ['suspended', tokenId, 'SUSPENDED']);
    const revoked = expectStatus(await asUser('POST', `ai/tokens/${tokenId}/revoke/`), 200);
    assert.deepEqual([revoked.status, revoked.token.status, typeof revoked.token.current_request_count], ['revoked', 'REVOKED', 'number']);
    expectError(await asAgent('POST', `ai/tokens/${tokenId}/heartbeat/`), 401, 'AGENT_TOKEN_REVOKED');
  });

  it('heartbeat/ answers {status: "ok"} to the token\'s own AgentBearer only', async () => {
    assert.equal(expectStatus(await asAgent('POST', `ai/tokens/${tokenId}/heartbeat/`), 200).status, 'ok');
    expectError(await asAgent('POST', `ai/tokens/${tokenId + 1}/heartbeat/`), 403, 'AGENT_TOKEN_MISMATCH');
  });

  it('report-usage/ answers {status: "ok"}, then 403 BUDGET_EXCEEDED, status "suspended"; the cost is recorded either way', async () => {
    const usage = (cost_usd: number) =>
      asAgent('POST', `ai/tokens/${tokenId}/report-usage/`, { cost_usd, prompt_tokens: 900, completion_tokens: 100 });
    assert.equal(expectStatus(await usage(0.4), 200).status, 'ok');
    const over = expectError(await usage(0.7), 403, 'BUDGET_EXCEEDED');
    assert.deepEqual([typeof over.error, over.status], ['string', 'suspended']);
    assert.equal(await spendOf(), 1.1);
    assert.equal(expectError(await usage(0.2), 403, 'BUDGET_EXCEEDED').status, 'suspended');
    assert.equal(await spendOf(), 1.3);
    const detail = expectStatus(await asUser('GET', `ai/tokens/${tokenId}/`), 200);
    assert.deepEqual([detail.status, detail.suspended_reason], ['SUSPENDED', 'BUDGET_EXCEEDED']);
  });
});
