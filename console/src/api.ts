/**
 * The console's only way to the server: the public API, as the "Gatehouse Console" public application (its key only,
 * no secret; the server checks the origin). The access token lives in this module's memory; the refresh token never
 * reaches JavaScript: the server keeps it in an HttpOnly cookie for a public application.
 */
import type { paths } from './api-types';

/** An API path as the server's OpenAPI document names it, relative to the prefix: `admin/users/{id}/`. */
export type ApiPath = keyof paths;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<P extends ApiPath, M extends Method> = paths[P][M] extends { responses: infer R } ? R : never;

/**
 * The JSON answer of a successful `method` on `path`, as the server's OpenAPI document describes it (api-types.ts is
 * generated from it: docs/console.md).
 */
export type Answer<P extends ApiPath, M extends Method = 'get'> =
  JsonOf<Responses<P, M>[Extract<keyof Responses<P, M>, 200 | 201 | 202>]>;

/** The JSON body `method` on `path` takes. */
export type Body<P extends ApiPath, M extends Method> =
  paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** One row of a paged list's answer (`{ results: T[], … }`). */
export type Row<P extends ApiPath> = Answer<P> extends { results: Array<infer T> } ? T : never;

export interface ConsoleConfig {
  api_prefix: string;
  access_key: string;
  /** The origins the console's application is accepted from: SVC_PUBLIC_URL's. */
  origins: string[];
  /** Whether the authorization server is on (SVC_OAUTH_ENABLED): the OAuth grants are shown only then. */
  oauth: boolean;
}

/** An API refusal as the server put it: its catalogue code, its message and any details. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly body: Record<string, unknown>) {
    super(message);
  }
}

let config: ConsoleConfig | undefined;
let accessToken: string | null = null;

export async function loadConfig(): Promise<ConsoleConfig> {
  if (config) return config;
  const res = await fetch('/console/config.json', { headers: { accept: 'application/json' } });
  if (!res.ok) throw new ApiError(res.status, 'CONSOLE_UNAVAILABLE', 'The console is not configured on this server.', {});
  config = (await res.json()) as ConsoleConfig;
  return config;
}

export const setAccessToken = (token: string | null) => {
  accessToken = token;
  markSession(token !== null);
};
export const hasAccessToken = () => accessToken !== null;

/** What a call may add: the organization it is about (`X-Org-Slug`), for the routes that take it from the header. */
export interface CallOptions {
  orgSlug?: string;
}

async function send(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<Response> {
  const { api_prefix, access_key } = await loadConfig();
  const headers: Record<string, string> = { 'x-access-key': access_key, accept: 'application/json' };
  if (opts.orgSlug) headers['x-org-slug'] = opts.orgSlug;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  return fetch(`${api_prefix}${path}`, {
    method, headers, credentials: 'same-origin', ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

async function answerOf<T>(res: Response): Promise<T> {
  const text = await res.text();
  const data = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  if (!res.ok) {
    throw new ApiError(res.status, String(data.code ?? `HTTP_${res.status}`), String(data.error ?? res.statusText), data);
  }
  return data as T;
}

/**
 * Whether this browser signed in and has not signed out: the refresh cookie is HttpOnly, so the page cannot see it, and a
 * refresh tried without one only earns a 401 in the browser's console. The mark is no credential.
 */
const SESSION_MARK = 'gatehouse-console-session';
export const markSession = (on: boolean) => {
  if (on) localStorage.setItem(SESSION_MARK, '1');
  else localStorage.removeItem(SESSION_MARK);
};

/** Trades the refresh cookie for a new access token; false when there is no session to resume. */
export async function refresh(): Promise<boolean> {
  if (!localStorage.getItem(SESSION_MARK)) return false;
  const res = await send('POST', 'refresh/', {});
  if (!res.ok) {
    accessToken = null;
    markSession(false);
    return false;
  }
  accessToken = (await answerOf<{ access_token: string }>(res)).access_token;
  return true;
}

/** Calls the API; an expired access token is refreshed once, silently, and the call made again. */
export async function api<T>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
  let res = await send(method, path, body, opts);
  if (res.status === 401 && accessToken) {
    const code = (await res.clone().json().catch(() => ({})) as { code?: string }).code;
    if (code === 'TOKEN_EXPIRED' && await refresh()) res = await send(method, path, body, opts);
  }
  return answerOf<T>(res);
}
