import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.js';
import type { TestUser } from './users.js';

export interface SignInOptions {
  device_info?: string;
  headers?: Record<string, string>;
}

/** A password login through the API (a new session); fails the test unless it answers 200. */
export async function signIn(t: TestApp, user: Pick<TestUser, 'email' | 'password'>, opts: SignInOptions = {}) {
  const res = await t.api({
    method: 'POST', path: 'login/email/', headers: opts.headers,
    payload: { email: user.email, password: user.password, ...(opts.device_info ? { device_info: opts.device_info } : {}) },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as {
    access_token: string; refresh_token: string; session_id: string; device_id: string; device_summary: string | null;
    expires_in: number; refresh_expires_in: number; token_scope?: string; must_change_password: boolean;
  };
}

/** A device fingerprint in the `v=1|…` form, distinct per `n`. */
export const deviceInfo = (n: number | string) => `v=1|os=Android ${n}|device=Phone ${n}|app=Acme 2.1`;

/** The two JSON parts of a JWT, unverified. */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header, payload] = token.split('.');
  const part = (s: string | undefined) => JSON.parse(Buffer.from(s ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: part(header), payload: part(payload) };
}

/** The refresh token a Set-Cookie header carries, with its attributes. */
export function parseSetCookie(header: string | string[] | undefined, name = 'refresh_token') {
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const line = all.find((h) => h.startsWith(`${name}=`));
  if (!line) return undefined;
  const [pair, ...attrs] = line.split(';').map((s) => s.trim());
  return { value: decodeURIComponent(pair!.slice(name.length + 1)), attributes: attrs, line };
}

/**
 * A session opened directly through the session service, for accounts that cannot sign in by password
 * (passwordless) or to get a token of a given scope without a login flow.
 */
export async function openSession(t: TestApp, userId: number, scope: 'full' | 'password_change_only' = 'full') {
  const meta = { ip: '127.0.0.1', userAgent: null, applicationId: t.credentials.id };
  return t.container.db.transaction().execute((trx) =>
    t.container.services.sessions.open(trx, { id: userId, max_sessions: null, max_devices: null }, scope, null, meta));
}
