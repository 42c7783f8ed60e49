import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { statementRecorder, TRAIL_WRITE } from '../../helpers/statements.js';
import { useTestApp } from '../../helpers/test-app.js';
import { createOrg, join, ORG_ENV } from '../organizations/helpers.js';
import { account, AGENT_ENV, delegate, expectStatus, grantDirect, type Account } from './helpers.js';

/**
 * What the agent and organization hot paths cost the database, counted (docs/decisions.md "Database access on the hot
 * paths"; the budgets are in bench/README.md "Where the time goes").
 */
describe('statements of the agent and organization hot paths', () => {
  const recorder = statementRecorder();
  const t = useTestApp({ dbPlugin: recorder.plugin, env: { ...AGENT_ENV, ...ORG_ENV } });
  let alice: Account;
  beforeEach(async () => {
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['roles.view']);
  });

  /** The statements of one request, the agent activity row it queues included (written once the answer has gone). */
  async function counted<T>(send: () => Promise<T>): Promise<{ answer: T; statements: string[] }> {
    await t.api({ method: 'GET', path: 'me/', token: alice.token });
    await t.container.services.agentActivity.flush();
    return recorder.during(async () => {
      const answer = await send();
      await t.container.services.agentActivity.flush();
      return answer;
    });
  }

  it('POST ai/authorize/: one statement counts the request and reads the token, its person and their permissions; then the activity row', async () => {
    const created = await delegate(t, alice, { permissions: ['roles.view'] });
    const authorize = () => t.api({ method: 'POST', path: 'ai/authorize/', payload: { permission: 'roles.view' },
      headers: { authorization: `AgentBearer ${created.token}` } });
    expectStatus(await authorize(), 200);
    const { statements } = await counted(async () => expectStatus(await authorize(), 200));
    // The activity row is queued when the answer has gone and written with its trail row and the root's new head in
    // one statement (docs/agents.md "The trail"). Under load the rows of many requests share it.
    assert.equal(statements.length, 1 + TRAIL_WRITE, statements.join('\n'));
  });

  it('POST ai/authorize/ for a depth-3 child: the same one statement checks and counts the whole chain; then the activity row', async () => {
    const root = await delegate(t, alice, { permissions: ['roles.view'], can_delegate: true });
    const delegateFrom = async (parent: { id: number; token: string }, can_delegate: boolean) => expectStatus(await t.api({
      method: 'POST', path: `ai/tokens/${parent.id}/delegate/`, payload: { agent_id: 'sub', permissions: ['roles.view'], can_delegate },
      headers: { authorization: `AgentBearer ${parent.token}` } }), 201) as { id: number; token: string };
    const leaf = await delegateFrom(await delegateFrom(root, true), false);
    const authorize = () => t.api({ method: 'POST', path: 'ai/authorize/', payload: { permission: 'roles.view' },
      headers: { authorization: `AgentBearer ${leaf.token}` } });
    expectStatus(await authorize(), 200);
    const { statements } = await counted(async () => expectStatus(await authorize(), 200));
    assert.equal(statements.length, 1 + TRAIL_WRITE, statements.join('\n'));
  });

  it('GET organizations/detail/ five levels below the membership: the bearer query and one for the organization and role', async () => {
    await createOrg(t, alice, 'root');
    let parent = 'root';
    for (const slug of ['l1', 'l2', 'l3', 'l4', 'l5']) { await createOrg(t, alice, slug, parent); parent = slug; }
    const bob = await account(t, { email: 'bob@example.com' });
    await join(t, 'root', bob, 'member');
    const detail = () => t.api({ method: 'GET', path: 'organizations/detail/', token: bob.token, headers: { 'x-org-slug': 'l5' } });
    expectStatus(await detail(), 200);
    const { answer, statements } = await counted(async () => expectStatus(await detail(), 200));
    assert.equal(answer.slug, 'l5');
    assert.equal(statements.length, 2, statements.join('\n'));
  });
});
