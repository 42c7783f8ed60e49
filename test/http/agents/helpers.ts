import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/test-app.js';
import type { Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';

export { account, type Account } from '../../factories/accounts.js';
export { grantDirect } from '../../factories/rbac.js';
export { expectStatus } from '../../helpers/answers.js';

export const AGENT_ENV = { SVC_AUDIT_LOGGING_ENABLED: 'true' };

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Requests of a signed-in user (`Bearer`). */
export const userApi = (t: TestApp) => (method: Method, path: string, who: Account, payload?: unknown, headers: Record<string, string> = {}) =>
  t.api({ method, path, token: who.token, headers, ...(payload !== undefined ? { payload: payload as object } : {}) }) as Promise<LightMyRequestResponse>;

/** Requests of an agent (`AgentBearer <token>`), with extra headers (X-Org-Slug, X-Prompt-Trace-ID, X-Action-Confirmation…). */
export const agentApi = (t: TestApp) => (method: Method, path: string, token: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.api({ method, path, headers: { authorization: `AgentBearer ${token}`, ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}) }) as Promise<LightMyRequestResponse>;

export interface CreatedToken {
  id: number;
  token: string;
  agent_id: string;
  status: string;
  expires_at: string;
  granted_permissions: string[];
  organization: string | null;
  budget_limit_usd: number | null;
}

/** An agent token delegated by `who` through POST ai/tokens/ (201 expected). */
export async function delegate(t: TestApp, who: Account, body: Record<string, unknown> = {}): Promise<CreatedToken> {
  return expectStatus(await userApi(t)('POST', 'ai/tokens/', who, { agent_id: 'assistant', ...body }), 201);
}

/** The error code of a response, failing when the status is not the one expected. */
export function expectError(res: LightMyRequestResponse, status: number, code: string) {
  const body = expectStatus(res, status);
  if (body.code !== code) throw new Error(`expected ${code}, got ${body.code}: ${res.body}`);
  return body;
}
