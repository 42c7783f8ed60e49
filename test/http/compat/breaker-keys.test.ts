import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, agentApi, expectError, expectStatus, grantDirect, type Account } from '../agents/helpers.js';

/** What the SDK's HTTP client sends on every call (the application headers are added by `t.api`). */
const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** SDK compatibility (docs/migrating-from-tenxyte.md): `circuit_breaker: {max_requests, window_seconds}` on agent token creation. */
describe('SDK compatibility: breaker keys', () => {
  const t = useTestApp({ env: AGENT_ENV });
  let alice: Account;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['roles.view']);
  });

  /** createAgentToken as the SDK sends it. */
  const create = (circuit_breaker: object) => t.api({ method: 'POST', path: 'ai/tokens/', token: alice.token, headers: SDK_HEADERS,
    payload: { agent_id: 'assistant', permissions: ['roles.view'], expires_in: 3600, circuit_breaker } });
  const rateOf = async (id: number) => expectStatus(await t.api({ method: 'GET', path: `ai/tokens/${id}/`, token: alice.token,
    headers: SDK_HEADERS }), 200).circuit_breaker.max_requests_per_minute;

  it('reads max_requests per window_seconds as a per-minute rate', async () => {
    assert.equal(await rateOf(expectStatus(await create({ max_requests: 30, window_seconds: 30 }), 201).id), 60);
    assert.equal(await rateOf(expectStatus(await create({ max_requests: 120, window_seconds: 3600 }), 201).id), 2);
  });

  it('enforces it: the request over the rate is refused and the token suspended for RATE_LIMIT', async () => {
    const { token } = expectStatus(await create({ max_requests: 2, window_seconds: 60 }), 201);
    for (let i = 0; i < 2; i++) expectStatus(await agentApi(t)('GET', 'roles/', token, undefined, SDK_HEADERS), 200);
    assert.equal(expectError(await agentApi(t)('GET', 'roles/', token, undefined, SDK_HEADERS), 403, 'AGENT_TOKEN_SUSPENDED').reason,
      'RATE_LIMIT');
  });

  it('accepts both forms when they agree, and refuses them with 400 naming the field when they differ or the pair is split', async () => {
    expectStatus(await create({ max_requests: 10, window_seconds: 60, max_requests_per_minute: 10 }), 201);
    const differ = expectError(await create({ max_requests: 10, window_seconds: 60, max_requests_per_minute: 50 }), 400,
      'VALIDATION_ERROR');
    assert.deepEqual(Object.keys(differ.details), ['circuit_breaker.max_requests']);
    const split = expectError(await create({ max_requests: 10 }), 400, 'VALIDATION_ERROR');
    assert.deepEqual(Object.keys(split.details), ['circuit_breaker.window_seconds']);
    expectError(await create({ max_requests: 0, window_seconds: 60 }), 400, 'VALIDATION_ERROR');
    assert.equal((await t.container.db.selectFrom('agent_tokens').select('id').execute()).length, 1);
  });
});
