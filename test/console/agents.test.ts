import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { CreateAgentTokenInput } from '../../src/modules/agents/agent-tokens.schemas.js';
import { decodeJwt, openSession } from '../factories/sessions.js';
import { createUser, userRow } from '../factories/users.js';
import { describeInBrowser } from '../helpers/browser.js';
import { PHONE, startConsole, type ConsoleServer } from './harness.js';

const MARKUP = '<img src=x onerror=alert(1)>';

describeInBrowser('the console\'s Agents page in Chromium', () => {
  let c: ConsoleServer;

  before(async () => { c = await startConsole(); });
  after(async () => { await c?.close(); });

  /** A token the operator delegates, through the service from a session of its own (the console's bearer lives in the browser). */
  const delegate = async (input: CreateAgentTokenInput) => {
    const { payload } = decodeJwt((await openSession(c.t, c.operator.id)).access_token);
    return c.t.container.services.agentTokens.create({ id: c.operator.id, is_superuser: false,
      meta: { applicationId: null, ip: null, userAgent: null, requestId: null },
      session: { id: Number(payload.sid), issuedAt: Number(payload.iat) } }, input);
  };

  /** A request as the agent makes it: the test application's keys and its AgentBearer token. */
  const asAgent = (token: string, method: 'POST' | 'DELETE', path: string, opts: { payload?: object; trace?: string; confirmation?: string } = {}) =>
    c.t.api({
      method, path, ...(opts.payload ? { payload: opts.payload } : {}),
      headers: {
        authorization: `AgentBearer ${token}`,
        ...(opts.trace ? { 'x-prompt-trace-id': opts.trace } : {}),
        ...(opts.confirmation ? { 'x-action-confirmation': opts.confirmation } : {}),
      },
    });

  it('delegates a token, approves one pending action and rejects another; the agent\'s text stays text', async () => {
    const spammer = await createUser(c.t, { email: 'spammer@example.com', first_name: 'Sam', last_name: 'Spammer' });
    const bystander = await createUser(c.t, { email: 'bystander@example.com', first_name: 'Bea', last_name: 'Bystander' });
    const { page, problems, refusals } = await c.signedIn({ hash: '#/agents' });
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();

    // Delegate through the form; the raw token is shown once.
    await page.getByRole('button', { name: 'New agent token' }).click();
    const form = page.getByRole('region', { name: 'New agent token' });
    await form.getByLabel('Agent name').fill('ops-assistant');
    await form.getByLabel('Permissions', { exact: true }).fill('users.view');
    // The operator's own codes, as checkboxes that edit the field.
    await form.getByText(/^Choose from your permissions/).click();
    await form.getByLabel('users.manage', { exact: true }).check();
    assert.equal(await form.getByLabel('Permissions', { exact: true }).inputValue(), 'users.view\nusers.manage');
    await form.getByLabel('Budget (USD)').fill('5');
    await form.getByLabel('Heartbeat every (seconds)').fill('300');
    await form.getByLabel('Requests per minute').fill('30');
    await form.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByLabel('Agent token', { exact: true }).textContent())!;
    assert.match(token, /^gha_[A-Za-z0-9_-]{43}$/);
    await c.screenshot(page, 'agents-token-created');
    const row = await c.t.container.db.selectFrom('agent_tokens').selectAll().where('agent_id', '=', 'ops-assistant').executeTakeFirstOrThrow();
    assert.deepEqual([row.user_id, row.heartbeat_required_every, row.max_requests_per_minute, Number(row.budget_limit_usd)],
      [c.operator.id, 300, 30, 5]);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    assert.equal(await page.getByLabel('Agent token', { exact: true }).count(), 0);

    // The agent asks to ban one user and delete another: both wait for the operator.
    const ban = await asAgent(token, 'POST', `admin/users/${spammer.id}/ban/`, { payload: { reason: MARKUP }, trace: 'run-42' });
    assert.equal(ban.statusCode, 202, ban.body);
    const banWait = ban.json() as { confirmation_token: string };
    const del = await asAgent(token, 'DELETE', `admin/users/${bystander.id}/`, { trace: 'run-43' });
    assert.equal(del.statusCode, 202, del.body);
    const delWait = del.json() as { confirmation_token: string };

    await page.getByRole('button', { name: 'Refresh' }).click();
    const table = page.getByRole('table', { name: 'Actions waiting for your approval' });
    const banRow = table.getByRole('row').filter({ hasText: new RegExp(`POST \\S*/admin/users/${spammer.id}/ban/`) });
    await banRow.waitFor();
    await banRow.getByText(`reason: ${MARKUP}`).waitFor();
    await banRow.getByText('run-42').waitFor();
    assert.equal(await table.locator('img').count(), 0, 'the agent\'s body was rendered as markup');
    await c.screenshot(page, 'agents-pending');

    await banRow.getByRole('button', { name: /^Approve/ }).click();
    await page.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
    const delRow = table.getByRole('row').filter({ hasText: new RegExp(`DELETE \\S*/admin/users/${bystander.id}/`) });
    await delRow.getByRole('button', { name: /^Reject/ }).click();
    await page.getByRole('status').filter({ hasText: 'Rejected' }).waitFor();
    await table.getByText('No agent is waiting for your approval.').waitFor();

    // The approved repeat runs once; the rejected one is refused.
    const banned = await asAgent(token, 'POST', `admin/users/${spammer.id}/ban/`, { payload: { reason: MARKUP }, trace: 'run-42',
      confirmation: banWait.confirmation_token });
    assert.equal(banned.statusCode, 200, banned.body);
    assert.equal((await userRow(c.t, spammer.id)).is_banned, true);
    const refused = await asAgent(token, 'DELETE', `admin/users/${bystander.id}/`, { trace: 'run-43', confirmation: delWait.confirmation_token });
    assert.equal(refused.statusCode, 403);
    assert.equal((refused.json() as { code: string }).code, 'ACTION_REJECTED');
    assert.equal((await userRow(c.t, bystander.id)).deleted_at, null);

    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401]);
  });

  it('shows a token\'s details and activity, suspends and revokes it after asking, and revokes all', async () => {
    const created = await delegate({ agent_id: MARKUP, permissions: ['users.view'], expires_in: 3600 });
    const listed = await c.t.api({ method: 'GET', path: 'admin/users/', headers: { authorization: `AgentBearer ${created.token}`,
      'x-prompt-trace-id': 'nightly-report' } });
    assert.equal(listed.statusCode, 200, listed.body);

    const { page, problems, refusals } = await c.signedIn({ hash: '#/agents' });
    const tokens = page.getByRole('table', { name: 'Agent tokens' });
    await tokens.getByRole('link', { name: MARKUP }).click();
    await page.getByRole('heading', { name: `Agent token: ${MARKUP}` }).waitFor();
    const activity = page.getByRole('table', { name: 'Requests made with this token' });
    await activity.getByText('nightly-report').waitFor();
    await activity.getByText(/^GET \S*\/admin\/users\/$/).waitFor();
    assert.equal(await page.locator('main img').count(), 0);
    await c.screenshot(page, 'agents-token-detail');

    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('status').filter({ hasText: 'Token suspended.' }).waitFor();
    await page.getByText('SUSPENDED (MANUAL)').waitFor();
    const status = async () => (await c.t.container.db.selectFrom('agent_tokens').select('status').where('id', '=', created.id)
      .executeTakeFirstOrThrow()).status;
    assert.equal(await status(), 'SUSPENDED');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    assert.equal(await status(), 'SUSPENDED');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Token revoked.' }).waitFor();
    assert.equal(await status(), 'REVOKED');
    await page.close();

    // Revoke all, at a phone's width.
    await delegate({ agent_id: 'night-batch', permissions: [], expires_in: 3600 });
    const phone = await c.signedIn({ viewport: PHONE, hash: '#/agents' });
    await phone.page.getByRole('link', { name: 'night-batch' }).waitFor();
    await phone.page.getByRole('button', { name: 'Revoke all tokens' }).click();
    await phone.page.getByRole('button', { name: 'Yes, revoke all' }).click();
    await phone.page.getByRole('status').filter({ hasText: /token(s)? revoked/ }).waitFor();
    await c.screenshot(phone.page, 'agents-phone');
    const live = await c.t.container.db.selectFrom('agent_tokens').select('id').where('user_id', '=', c.operator.id)
      .where('status', 'in', ['ACTIVE', 'SUSPENDED']).execute();
    assert.deepEqual(live, []);
    await phone.page.close();
    assert.deepEqual([...problems, ...phone.problems], []);
    assert.deepEqual([...refusals, ...phone.refusals], [401, 401]);
  });

  it('shows who delegated a child and its chain, and suspending the parent holds the child', async () => {
    const planner = await delegate({ agent_id: 'planner', permissions: ['users.view'], expires_in: 3600, can_delegate: true });
    const answer = await c.t.api({ method: 'POST', path: `ai/tokens/${planner.id}/delegate/`, payload: { agent_id: 'researcher',
      permissions: ['users.view'] }, headers: { authorization: `AgentBearer ${planner.token}` } });
    assert.equal(answer.statusCode, 201, answer.body);
    const researcher = answer.json() as { id: number };

    const { page, problems } = await c.signedIn({ hash: '#/agents' });
    const tokens = page.getByRole('table', { name: 'Agent tokens' });
    const row = tokens.getByRole('row').filter({ has: page.getByRole('link', { name: 'researcher' }) });
    await row.getByRole('link', { name: 'planner' }).waitFor();
    await row.getByRole('link', { name: 'researcher' }).click();
    const chain = page.getByRole('list', { name: 'Delegation chain' });
    assert.deepEqual(await chain.getByRole('link').allTextContents(), ['planner', 'researcher']);
    await chain.getByRole('link', { name: 'planner' }).click();
    await page.getByRole('heading', { name: 'Agent token: planner' }).waitFor();
    await page.getByText(/may delegate to sub-agents/).waitFor();
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('status').filter({ hasText: 'Token suspended.' }).waitFor();
    const held = await c.t.container.db.selectFrom('agent_tokens').select(['status', 'suspended_reason']).where('id', '=', researcher.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(held, { status: 'SUSPENDED', suspended_reason: 'PARENT_SUSPENDED' });
    await page.close();
    assert.deepEqual(problems, []);
  });
});
