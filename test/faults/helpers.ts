import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Env } from '../../src/config/load.js';
import type { Db } from '../../src/db/database.js';
import { runCli, type RunningServer } from '../helpers/cli.js';
import type { TcpProxy } from '../helpers/tcp-proxy.js';

// What the fault suite shares: its skip reasons, a small HTTP client of a running server, and the checks that what a
// registration commits is whole.

export const SKIP_WITHOUT_POSTGRES = process.env.TEST_DATABASE_URL
  ? false : 'TEST_DATABASE_URL is not set: these tests need a PostgreSQL server';
export const SKIP_WITHOUT_REDIS = SKIP_WITHOUT_POSTGRES || (process.env.TEST_REDIS_URL
  ? false : 'TEST_REDIS_URL is not set: these tests need a Redis server');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Host and port of a `postgres://` or `redis://` URL: where a proxy in front of it forwards. */
export function targetOf(serviceUrl: string): { host: string; port: number } {
  const url = new URL(serviceUrl);
  return { host: url.hostname, port: Number(url.port || (url.protocol === 'redis:' ? 6379 : 5432)) };
}

/** `serviceUrl` reached through `proxy` (with `password`, if given, in it). */
export function throughProxy(serviceUrl: string, proxy: TcpProxy, password?: string): string {
  const url = new URL(serviceUrl);
  url.host = `127.0.0.1:${proxy.port}`;
  if (password) url.password = encodeURIComponent(password);
  return url.toString();
}

export interface AppCredentials { access_key: string; access_secret: string }

/** `gatehouse app create` against the database `env` names. */
export async function createApplication(env: Env, name = 'Fault test'): Promise<AppCredentials> {
  const created = await runCli(['app', 'create', '--name', name, '--json'], { env });
  assert.equal(created.code, 0, created.stderr);
  return JSON.parse(created.stdout) as AppCredentials;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  /** Milliseconds from sending to the end of the body. */
  ms: number;
}

/** Long enough for any answer on a loaded machine; a request that hangs past it fails its test instead of the run. */
const ANSWER_TIMEOUT_MS = 60_000;

/** Calls under the API prefix of `server` as application `app`, with a bearer token when given. */
export function apiClient(server: RunningServer, app: AppCredentials) {
  async function call(method: 'GET' | 'POST', path: string, body?: object, token?: string): Promise<Answer> {
    const started = Date.now();
    const headers: Record<string, string> = { 'x-access-key': app.access_key, 'x-access-secret': app.access_secret };
    if (body) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${server.apiUrl}${path}`, {
      method, headers, ...(body ? { body: JSON.stringify(body) } : {}), signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown>, headers: res.headers, ms: Date.now() - started };
  }
  return {
    post: (path: string, body: object = {}, token?: string) => call('POST', path, body, token),
    get: (path: string, token?: string) => call('GET', path, undefined, token),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

/** The 503 every request answers while the database is unreachable. */
export function assertUnavailable(answer: Answer): void {
  assert.equal(answer.status, 503, JSON.stringify(answer.body));
  assert.deepEqual(answer.body, { error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE', retry_after: 5 });
}

/**
 * Subscribes a webhook to `user.created` (through the API, as an administrator), so each registration also writes its
 * outbox row (`webhook_deliveries`) in its transaction: one more table that must hold a row per committed account.
 */
export async function subscribeToUserCreated(api: ApiClient, env: Env, receiverUrl: string): Promise<void> {
  const email = 'ops@example.com';
  const password = 'Lantern-Orchard-Pass-93e1';
  const created = await runCli(['user', 'create', '--email', email, '--password-stdin', '--role', 'admin', '--json'], { env, input: password });
  assert.equal(created.code, 0, created.stderr);
  const login = await api.post('login/email/', { email, password });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const hook = await api.post('webhooks/', { url: receiverUrl, events: ['user.created'] }, login.body.access_token as string);
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
}

export interface AccountRows {
  id: number;
  /** Role codes held. */
  roles: string[];
  passwordHistory: number;
  /** `user.created` events in the webhook outbox. */
  createdEvents: number;
}

/** What registration wrote in its transaction for each of `emails` that has an account. */
export async function accountRows(db: Db, emails: string[]): Promise<Map<string, AccountRows>> {
  if (emails.length === 0) return new Map();
  const { rows } = await sql<{ email: string; id: number; roles: string[]; history: number; events: number }>`
    select u.email, u.id,
      coalesce((select array_agg(r.code order by r.code) from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = u.id), '{}') as roles,
      (select count(*)::int from password_history h where h.user_id = u.id) as history,
      (select count(*)::int from webhook_deliveries d where d.user_id = u.id and d.type = 'user.created') as events
    from users u where u.email in (${sql.join(emails)})`.execute(db);
  return new Map(rows.map((r) => [r.email, { id: r.id, roles: r.roles, passwordHistory: r.history, createdEvents: r.events }]));
}

/** A whole account: the default role, its password remembered, its `user.created` event in the outbox. */
export function assertWhole(email: string, rows: AccountRows | undefined): void {
  assert.ok(rows, `${email} has no account`);
  assert.deepEqual(rows.roles, ['user'], `${email}: roles`);
  assert.equal(rows.passwordHistory, 1, `${email}: password history`);
  assert.equal(rows.createdEvents, 1, `${email}: user.created event`);
}

/** Accounts made through the API (so not the administrator) that lack a row their registration writes. */
export async function partialAccounts(db: Db, domain: string): Promise<string[]> {
  const { rows } = await sql<{ email: string }>`
    select u.email from users u
    where u.email like ${`%@${domain}`} and (
      not exists (select 1 from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id and r.code = 'user')
      or not exists (select 1 from password_history h where h.user_id = u.id)
      or not exists (select 1 from webhook_deliveries d where d.user_id = u.id and d.type = 'user.created'))`.execute(db);
  return rows.map((r) => r.email);
}
