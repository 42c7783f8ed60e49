import type { Request } from 'autocannon';
import { AGENT_PERMISSION, AGENT_TOKENS, agentGrandchildToken, agentToken, homeLeafSlug, userEmail } from '../lib/fixtures.js';
import type { LoadJob, LoadKind } from '../lib/types.js';
import { authorizationUrl, codeOf, oauthGrants, tokenRequest, type OauthGrant } from './oauth.js';
import { betterAuthCookies, gatehouseHeaders, gatehouseLogins } from './prepare.js';

/**
 * One scenario as autocannon sends it: a single request whose `setupRequest` varies the body or credentials — or, with
 * `steps`, a sequence each connection sends in turn, of which the last answers `expectedStatus` and the others
 * `stepStatus` (neither counted as unexpected; the rate counts the sequences completed).
 */
export interface Scenario {
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  request: Request;
  expectedStatus: number;
  steps?: Request[];
  stepStatus?: number;
}

const json = (value: unknown) => JSON.stringify(value);

/** Cycles through 1..n, shared by every connection of the load child. */
function roundRobin(n: number) {
  let next = 0;
  return () => (next++ % n) + 1;
}

/** Unique per request across warm-up and measurement (both run in this process). */
function sequence(prefix: string) {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

async function gatehouseLogin(job: LoadJob): Promise<Scenario> {
  const nextUser = roundRobin(job.userCount);
  return {
    path: `${job.apiPrefix}login/email/`, method: 'POST', headers: gatehouseHeaders(job), expectedStatus: 200,
    request: { setupRequest: (req) => ({ ...req, body: json({ email: userEmail(nextUser()), password: job.password }) }) },
  };
}

/**
 * A GET of `path` on behalf of one signed-in account per connection, cycled; `extra` adds headers for an account
 * (by its number). `prime` sends one request first, outside the measurement, with a long timeout.
 */
async function signedInGet(job: LoadJob, path: string, extra: (account: number) => Record<string, string> = () => ({}),
  prime = false): Promise<Scenario> {
  const signedIn = await gatehouseLogins(job, Math.min(job.connections, job.userCount));
  const perAccount = signedIn.map((t) => ({ authorization: `Bearer ${t.access_token}`, ...extra(t.account) }));
  const next = roundRobin(perAccount.length);
  const base = gatehouseHeaders(job);
  if (prime) {
    const res = await fetch(`${job.origin}${job.apiPrefix}${path}`, { headers: { ...base, ...perAccount[0] }, signal: AbortSignal.timeout(600_000) });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
  }
  return {
    path: `${job.apiPrefix}${path}`, method: 'GET', headers: base, expectedStatus: 200,
    request: { setupRequest: (req) => ({ ...req, headers: { ...base, ...perAccount[next() - 1] } }) },
  };
}

const gatehouseMe = (job: LoadJob) => signedInGet(job, 'me/');

/**
 * A dashboard figure read by accounts holding `dashboard.view`, primed: on a database the dashboard never read, the
 * first request counts every past hour once (`dashboard_counts`), which is not what the scenario measures.
 */
const dashboardGet = (job: LoadJob, path: string) => signedInGet(job, path, () => ({}), true);

/** Each account's depth-5 leaf of its home tree, where its role is inherited from the root (seed-organizations.ts). */
const gatehouseOrgDetail = (job: LoadJob) => signedInGet(job, 'organizations/detail/', (account) => ({ 'x-org-slug': homeLeafSlug(account) }));

/**
 * `AgentBearer` headers of the seeded agent tokens (or of their depth-3 grandchildren), one per connection, cycled
 * (`setup/seed-agent-tokens.ts`).
 */
function agentBearers(job: LoadJob, secret: (i: number) => string = agentToken): () => Record<string, string> {
  const headers = Array.from({ length: Math.min(job.connections, AGENT_TOKENS, job.userCount) },
    (_, k) => ({ authorization: `AgentBearer ${secret(k + 1)}` }));
  const next = roundRobin(headers.length);
  return () => headers[next() - 1]!;
}

/**
 * An integrator's backend asking about its agent's request: `POST ai/authorize/` with the application's keys and
 * the forwarded token (the request counted against the token's breakers, the double check) → 200 allow.
 */
async function gatehouseAuthorize(job: LoadJob, secret: (i: number) => string = agentToken): Promise<Scenario> {
  const bearer = agentBearers(job, secret);
  const base = gatehouseHeaders(job);
  return {
    path: `${job.apiPrefix}ai/authorize/`, method: 'POST', headers: base, expectedStatus: 200,
    request: { body: json({ permission: AGENT_PERMISSION }), setupRequest: (req) => ({ ...req, headers: { ...base, ...bearer() } }) },
  };
}

/** An agent reading `GET roles/` with its own token: authentication and breakers, the double check, the route. */
async function gatehouseAgentRoles(job: LoadJob): Promise<Scenario> {
  const bearer = agentBearers(job);
  const base = gatehouseHeaders(job);
  return {
    path: `${job.apiPrefix}roles/`, method: 'GET', headers: base, expectedStatus: 200,
    request: { setupRequest: (req) => ({ ...req, headers: { ...base, ...bearer() } }) },
  };
}

/**
 * Rotation retires a refresh token on use; presenting it again after the grace window ends the session. So every
 * token is sent once: the request takes one from the pool, and its response puts the successor back. The pool
 * starts with three tokens per connection, as requests cut off at the end of the warm-up lose theirs.
 */
async function gatehouseRefresh(job: LoadJob): Promise<Scenario> {
  const pool = (await gatehouseLogins(job, Math.min(job.connections * 3, job.userCount))).map((t) => t.refresh_token);
  return {
    path: `${job.apiPrefix}refresh/`, method: 'POST', headers: gatehouseHeaders(job), expectedStatus: 200,
    request: {
      // An empty pool sends a token that cannot work, so the shortfall shows as unexpected responses.
      setupRequest: (req) => ({ ...req, body: json({ refresh_token: pool.shift() ?? 'pool-exhausted' }) }),
      onResponse: (status, body) => {
        if (status !== 200) return;
        const successor = (JSON.parse(body) as { refresh_token?: string }).refresh_token;
        if (successor) pool.push(successor);
      },
    },
  };
}

/** Unknown accounts, a new address each time, so no identifier reaches the lockout threshold. */
async function gatehouseLoginFailed(job: LoadJob): Promise<Scenario> {
  const nextEmail = sequence(`nobody-${job.runId}`);
  return {
    path: `${job.apiPrefix}login/email/`, method: 'POST', headers: gatehouseHeaders(job), expectedStatus: 401,
    request: { setupRequest: (req) => ({ ...req, body: json({ email: `${nextEmail()}@example.com`, password: job.password }) }) },
  };
}

async function gatehouseRegister(job: LoadJob): Promise<Scenario> {
  const nextEmail = sequence(`new-${job.runId}`);
  return {
    path: `${job.apiPrefix}register/`, method: 'POST', headers: gatehouseHeaders(job), expectedStatus: 201,
    request: { setupRequest: (req) => ({ ...req, body: json({ email: `${nextEmail()}@example.com`, password: job.password }) }) },
  };
}

async function betterAuthSignIn(job: LoadJob): Promise<Scenario> {
  const nextUser = roundRobin(job.userCount);
  return {
    path: '/api/auth/sign-in/email', method: 'POST', expectedStatus: 200,
    headers: { 'content-type': 'application/json', origin: job.origin },
    request: { setupRequest: (req) => ({ ...req, body: json({ email: userEmail(nextUser()), password: job.password }) }) },
  };
}

async function betterAuthGetSession(job: LoadJob): Promise<Scenario> {
  const cookies = await betterAuthCookies(job, Math.min(job.connections, job.userCount));
  const next = roundRobin(cookies.length);
  return {
    path: '/api/auth/get-session', method: 'GET', headers: {}, expectedStatus: 200,
    request: { setupRequest: (req) => ({ ...req, headers: { cookie: cookies[next() - 1]! } }) },
  };
}

async function bareArgon2Route(job: LoadJob): Promise<Scenario> {
  return {
    path: '/verify', method: 'POST', headers: { 'content-type': 'application/json' }, expectedStatus: 200,
    request: { setupRequest: (req) => ({ ...req, body: json({ password: job.password }) }) },
  };
}

async function bareSelect(job: LoadJob): Promise<Scenario> {
  const nextRow = roundRobin(job.userCount);
  return {
    path: '/select/1', method: 'GET', headers: {}, expectedStatus: 200,
    request: { setupRequest: (req) => ({ ...req, path: `/select/${nextRow()}` }) },
  };
}

async function bareInsertUpdate(job: LoadJob): Promise<Scenario> {
  const nextRow = roundRobin(job.userCount);
  return {
    path: '/insert-update', method: 'POST', headers: { 'content-type': 'application/json' }, expectedStatus: 200,
    request: { setupRequest: (req) => ({ ...req, body: json({ id: nextRow() }) }) },
  };
}

/** One OAuth grant per connection (`oauth.ts`): accounts 1..n went through the pages once. */
async function grantsPerConnection(job: LoadJob) {
  const grants = await oauthGrants(job, Math.min(job.connections, AGENT_TOKENS, job.userCount));
  const next = roundRobin(grants.length);
  return () => grants[next() - 1]!;
}

/**
 * `ai/authorize/` with an OAuth access token (docs/oauth.md "Grants and ai/authorize/"): the same call as `authorize`,
 * the grant's JWT forwarded as `Bearer` instead of an agent token, counted against the grant's delegation → 200 allow.
 */
async function gatehouseOauthAuthorize(job: LoadJob): Promise<Scenario> {
  const grant = await grantsPerConnection(job);
  const base = gatehouseHeaders(job);
  return {
    path: `${job.apiPrefix}ai/authorize/`, method: 'POST', headers: base, expectedStatus: 200,
    request: { body: json({ permission: AGENT_PERMISSION }),
      setupRequest: (req) => ({ ...req, headers: { ...base, authorization: `Bearer ${grant().accessToken}` } }) },
  };
}

/** A resource server introspecting a grant's JWT with its own credentials (RFC 7662) → 200 `{active: true}`. */
async function gatehouseOauthIntrospect(job: LoadJob): Promise<Scenario> {
  const grant = await grantsPerConnection(job);
  const { resourceClientId, resourceClientSecret } = job.oauth!;
  const headers = { 'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from(`${resourceClientId}:${resourceClientSecret}`).toString('base64')}` };
  return {
    path: '/oauth/introspect', method: 'POST', headers, expectedStatus: 200,
    request: { setupRequest: (req) => ({ ...req, body: new URLSearchParams({ token: grant().accessToken }).toString() }) },
  };
}

/**
 * The code flow of a client whose grant already covers the request: the authorization request (the pages' session
 * cookie; consent is skipped) answers 303 with a code, which the client exchanges at the token endpoint (PKCE,
 * `resource`, the confidential client's secret) → 200 with a JWT access token. The rate counts completed exchanges.
 */
async function gatehouseOauthCode(job: LoadJob): Promise<Scenario> {
  const nextGrant = await grantsPerConnection(job);
  const oauth = job.oauth!;
  type Context = { grant?: OauthGrant; code?: string };
  const authorize: Request = {
    method: 'GET',
    setupRequest: (req, context: Context) => {
      context.grant ??= nextGrant();
      const url = new URL(authorizationUrl(job, oauth, context.grant.challenge));
      return { ...req, method: 'GET', path: `${url.pathname}${url.search}`, headers: { cookie: context.grant.cookie } };
    },
    // autocannon hands the headers with the names as sent (`Location`).
    onResponse: (_status, _body, context: Context, headers) => {
      const location = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'location')?.[1];
      context.code = codeOf(typeof location === 'string' ? location : undefined);
    },
  };
  const exchange: Request = {
    method: 'POST',
    setupRequest: (req, context: Context) => {
      const { headers, body } = tokenRequest(oauth, context.code ?? 'no-code', context.grant!.verifier);
      return { ...req, method: 'POST', path: '/oauth/token', headers, body };
    },
  };
  return { path: '/oauth/authorize', method: 'GET', headers: {}, expectedStatus: 200, request: authorize, steps: [authorize, exchange],
    stepStatus: 303 };
}

export const SCENARIOS: Record<LoadKind, (job: LoadJob) => Promise<Scenario>> = {
  'gatehouse-oauth-authorize': gatehouseOauthAuthorize,
  'gatehouse-oauth-introspect': gatehouseOauthIntrospect,
  'gatehouse-oauth-code': gatehouseOauthCode,
  'gatehouse-login': gatehouseLogin,
  'gatehouse-me': gatehouseMe,
  'gatehouse-refresh': gatehouseRefresh,
  'gatehouse-login-failed': gatehouseLoginFailed,
  'gatehouse-register': gatehouseRegister,
  'gatehouse-org-detail': gatehouseOrgDetail,
  'gatehouse-authorize': (job) => gatehouseAuthorize(job),
  // The same call by a depth-3 child: the statement checks and counts its two ancestors too.
  'gatehouse-authorize-child': (job) => gatehouseAuthorize(job, agentGrandchildToken),
  'gatehouse-agent-roles': gatehouseAgentRoles,
  'gatehouse-dashboard-stats': (job) => dashboardGet(job, 'dashboard/stats/?period=90d'),
  'gatehouse-dashboard-auth': (job) => dashboardGet(job, 'dashboard/auth/'),
  'better-auth-sign-in': betterAuthSignIn,
  'better-auth-get-session': betterAuthGetSession,
  'bare-argon2-route': bareArgon2Route,
  'bare-select': bareSelect,
  'bare-insert-update': bareInsertUpdate,
};
