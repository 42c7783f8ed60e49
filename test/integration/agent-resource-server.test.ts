import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
// Type-only imports bring the example into the type check; the test runs it as its own process.
import type { Decision } from '../../examples/agent-resource-server/gatehouse-client.js';
import type { ActedFor } from '../../examples/agent-resource-server/server.js';
import { account, AGENT_ENV, delegate, expectStatus, grantDirect, userApi, type Account } from '../http/agents/helpers.js';
import { useTestApp } from '../helpers/test-app.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/agent-resource-server/server.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const START_TIMEOUT_MS = 60_000;

/** The example, run as an integrator runs it: its own process on a free loopback port, pointed at Gatehouse. */
async function startExample(env: Record<string, string>): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', TSX, EXAMPLE], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not start:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: string) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the example exited (${code}):\n${output}`)); });
  });
  return { child, origin };
}

describe('an integrator\'s resource server protected by ai/authorize/, end to end over loopback', () => {
  let example: { child: ChildProcess; origin: string } | undefined;
  let alice: Account;
  let token: string;
  let narrowToken: string;

  // Registered first, so the example stops before the app closes.
  after(async () => {
    if (example && example.child.exitCode === null) {
      const exited = new Promise((resolve) => example!.child.once('exit', resolve));
      example.child.kill('SIGTERM');
      await exited;
    }
  });
  // The tests share what the hook below sets up.
  const t = useTestApp({ env: { ...AGENT_ENV, SVC_AIRS_CONFIRMATION_REQUIRED: 'reports.edit,reports.delete' }, reset: false });
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const gatehouseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${t.container.config.API_PREFIX}`;
    // The integrator's permissions, defined through Gatehouse's API by an administrator.
    const admin = await account(t, { email: 'admin@example.com', is_superuser: true });
    for (const code of ['reports.view', 'reports.edit', 'reports.delete']) {
      expectStatus(await userApi(t)('POST', 'permissions/', admin, { code, name: code }), 201);
    }
    alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['reports.view', 'reports.edit', 'reports.delete']);
    token = (await delegate(t, alice, { agent_id: 'analyst', permissions: ['reports.view', 'reports.edit', 'reports.delete'] })).token;
    narrowToken = (await delegate(t, alice, { agent_id: 'reader', permissions: ['reports.edit'] })).token;
    example = await startExample({ GATEHOUSE_URL: gatehouseUrl, GATEHOUSE_ACCESS_KEY: t.credentials.access_key,
      GATEHOUSE_ACCESS_SECRET: t.credentials.access_secret });
  });

  /** The agent calling the integrator's API. */
  const call = async (method: string, path: string, agentToken: string | null, opts: { body?: string; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${example!.origin}${path}`, {
      method, signal: AbortSignal.timeout(10_000),
      headers: { ...(agentToken ? { authorization: `AgentBearer ${agentToken}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { body: opts.body } : {}),
    });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  };
  /** The decision the example passed on, failing when the status is not the one expected. */
  const decisionOf = <K extends Decision['decision']>(res: { status: number; body: unknown }, status: number, kind: K) => {
    const body = res.body as Decision;
    assert.equal(res.status, status, JSON.stringify(body));
    assert.equal(body.decision, kind);
    return body as Extract<Decision, { decision: K }>;
  };
  const approve = async (actionId: number) =>
    expectStatus(await userApi(t)('POST', `ai/pending-actions/${actionId}/approve/`, alice, {}), 200);
  const actedFor = (): ActedFor => ({ agent_id: 'analyst', user_id: alice.id });

  it('allows a granted read, with who the agent acts for', async () => {
    assert.deepEqual(await call('GET', '/reports/7', token),
      { status: 200, body: { report: { id: '7', title: 'Q3 revenue' }, acted_for: actedFor() } });
  });

  it('answers 403 deny for a permission the token lacks, 401 for no or an unknown token', async () => {
    assert.equal(decisionOf(await call('GET', '/reports/7', narrowToken), 403, 'deny').code, 'AGENT_PERMISSION_DENIED');
    for (const agentToken of [null, `gha_${'x'.repeat(43)}`]) {
      assert.equal(decisionOf(await call('GET', '/reports/7', agentToken), 401, 'deny').code, 'AGENT_TOKEN_INVALID');
    }
  });

  it('a deletion waits for approval (202), then the replay runs once', async () => {
    const pending = decisionOf(await call('DELETE', '/reports/8', token, { headers: { 'x-prompt-trace-id': 'run-1' } }), 202, 'pending');
    const listed = expectStatus(await userApi(t)('GET', 'ai/pending-actions/', alice), 200);
    const action = listed.results.find((a: { id: number }) => a.id === pending.action_id);
    assert.deepEqual([action.method, action.path, action.permission, action.prompt_trace_id], ['DELETE', '/reports/8', 'reports.delete', 'run-1']);
    assert.notEqual(decisionOf(await call('DELETE', '/reports/8', token), 202, 'pending').action_id, pending.action_id,
      'without the confirmation it is a new request');
    await approve(pending.action_id);
    const confirmation = { 'x-action-confirmation': pending.confirmation_token };
    assert.deepEqual(await call('DELETE', '/reports/8', token, { headers: confirmation }),
      { status: 200, body: { deleted: '8', acted_for: actedFor() } });
    const replayed = decisionOf(await call('DELETE', '/reports/8', token, { headers: confirmation }), 403, 'deny');
    assert.equal(replayed.code, 'ACTION_CONFIRMATION_INVALID');
  });

  it('an approved edit is bound to its body: another body is refused, the same one runs', async () => {
    const body = JSON.stringify({ title: 'Q3 revenue (restated)' });
    const pending = decisionOf(await call('PUT', '/reports/7', token, { body }), 202, 'pending');
    await approve(pending.action_id);
    const confirmation = { 'x-action-confirmation': pending.confirmation_token };
    const swapped = await call('PUT', '/reports/7', token, { body: JSON.stringify({ title: 'Something else' }), headers: confirmation });
    assert.equal(decisionOf(swapped, 403, 'deny').code, 'ACTION_CONFIRMATION_INVALID');
    const done = await call('PUT', '/reports/7', token, { body, headers: confirmation });
    assert.equal(done.status, 200);
    assert.deepEqual(done.body.report, { id: '7', title: 'Q3 revenue (restated)' });
  });

  it('a sub-agent\'s call: a child the analyst delegated reads within its narrower grant, and stops with its parent', async () => {
    const planner = await delegate(t, alice, { agent_id: 'planner', can_delegate: true, permissions: ['reports.view', 'reports.delete'] });
    const child = expectStatus(await t.api({ method: 'POST', path: `ai/tokens/${planner.id}/delegate/`,
      headers: { authorization: `AgentBearer ${planner.token}` }, payload: { agent_id: 'researcher', permissions: ['reports.view'] } }),
    201) as { id: number; token: string };
    const read = await call('GET', '/reports/7', child.token);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.acted_for, { agent_id: 'researcher', user_id: alice.id });
    // Its parent may delete; the child was not given that.
    assert.equal(decisionOf(await call('DELETE', '/reports/7', child.token), 403, 'deny').code, 'AGENT_PERMISSION_DENIED');
    expectStatus(await userApi(t)('POST', `ai/tokens/${planner.id}/suspend/`, alice, {}), 200);
    const held = decisionOf(await call('GET', '/reports/7', child.token), 403, 'deny') as { code: string; reason?: string };
    assert.deepEqual([held.code, held.reason], ['AGENT_TOKEN_SUSPENDED', 'PARENT_SUSPENDED']);
  });
});
