import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/test-app.js';

/** What the SDK's HTTP client sends on every call (the application headers are added by `t.api`). */
export const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A call as the Tenxyte SDK's client makes it with fetch: the JSON headers always, `body` as JSON text when there is
 * one; a POST, PUT or PATCH without one goes out with `Content-Length: 0`, as fetch sends it.
 */
export function sdk(t: TestApp, method: Method, path: string, opts: { token?: string; body?: object } = {})
  : Promise<LightMyRequestResponse> {
  const empty = opts.body === undefined && method !== 'GET' && method !== 'DELETE';
  return t.api({
    method, path, token: opts.token,
    headers: { ...SDK_HEADERS, ...(empty ? { 'content-length': '0' } : {}) },
    ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
  });
}
