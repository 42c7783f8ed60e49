import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectAnswer, INSTANCES, NAMES, signIn, type Cluster } from './helpers.js';

/** docs/authentication.md "Lockout and audit": login endpoints allow 5 attempts a minute per client address (outside debug). */
const LOGIN_LIMIT = 5;
const PER_MINUTE = 5;
const TOTAL = 7;
const BURST = 30;

/**
 * docs/decisions.md "Several instances" and "Agents": rate limits and agent breakers count across instances (in Redis when
 * configured, else in PostgreSQL), so spreading requests over the instances buys nothing. Requests go to A, B, C in turn:
 * counted per instance, none would reach its limit.
 */
export function describeCounters(c: Cluster): void {
  describe('limits counted across instances', () => {
    it(`the login limit (${LOGIN_LIMIT} a minute per address) spread over the instances: the ${LOGIN_LIMIT + 1}th attempt is refused, then on every instance`,
      async () => {
        const ip = c.nextIp();
        const ann = c.accounts.ann;
        const login = (via: number) => c.api({ method: 'POST', path: 'login/email/', ip, via, body: { email: ann.email, password: ann.password } });
        for (let n = 0; n < LOGIN_LIMIT; n++) expectAnswer(await login(n % 3), 200);
        for (const i of [2, 0, 1]) {
          const res = await login(i);
          const body = expectAnswer(res, 429, 'RATE_LIMITED');
          assert.ok(body.retry_after > 0 && body.retry_after <= 60, JSON.stringify(body));
          assert.equal(res.headers.get('retry-after'), String(body.retry_after), `instance ${NAMES[i]}'s Retry-After`);
        }
        // Counted per address: another client is not affected.
        await signIn(c, ann, c.nextIp(), 2);
      });

    /** An agent token of ann's with the given breaker, and a way to use it through one instance (or the next in turn). */
    async function agentWith(ip: string, breaker: Record<string, number>) {
      const owner = await signIn(c, c.accounts.ann, ip, 0);
      const created = expectAnswer(await c.api({ method: 'POST', path: 'ai/tokens/', ip, via: 0, token: owner.access_token,
        body: { agent_id: 'cluster-agent', circuit_breaker: breaker } }), 201);
      const record = async () => expectAnswer(await c.api({ path: `ai/tokens/${created.id}/`, ip, via: 1, token: owner.access_token }), 200);
      return { use: (via?: number) => c.api({ path: 'me/', ip, via, agentToken: created.token }), record };
    }

    const expectSuspended = (res: Awaited<ReturnType<Cluster['api']>>) =>
      assert.equal(expectAnswer(res, 403, 'AGENT_TOKEN_SUSPENDED').reason, 'RATE_LIMIT');

    it(`an agent token allowed ${PER_MINUTE} requests a minute, used through all three instances, is suspended at the ${PER_MINUTE + 1}th`,
      async () => {
        const agent = await agentWith(c.nextIp(), { max_requests_per_minute: PER_MINUTE });
        for (let n = 0; n < PER_MINUTE; n++) expectAnswer(await agent.use(n % 3), 200);
        for (const i of [2, 0, 1]) expectSuspended(await agent.use(i));
        const record = await agent.record();
        assert.deepEqual([record.status, record.suspended_reason, record.request_count], ['SUSPENDED', 'RATE_LIMIT', PER_MINUTE]);
      });

    it(`${BURST} parallel requests of an agent token allowed ${TOTAL} in all, spread over the instances: exactly ${TOTAL} served`,
      async () => {
        const agent = await agentWith(c.nextIp(), { max_requests_total: TOTAL });
        const answers = await Promise.all(Array.from({ length: BURST }, () => agent.use()));
        assert.deepEqual([...new Set(answers.map((a) => a.servedBy))].sort(), [...INSTANCES]);
        const served = answers.filter((a) => a.status === 200);
        assert.equal(served.length, TOTAL, `served: ${served.map((a) => NAMES[a.servedBy]).join(' ')}`);
        answers.filter((a) => a.status !== 200).forEach(expectSuspended);
        const record = await agent.record();
        assert.deepEqual([record.status, record.suspended_reason, record.request_count], ['SUSPENDED', 'RATE_LIMIT', TOTAL]);
      });
  });
}
