import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { openSession } from '../../factories/sessions.js';
import { createUser, type TestUser, type UserOverrides } from '../../factories/users.js';
import type { TestApp } from '../../helpers/test-app.js';
import { lastMagicToken, loginCodeFor, phoneParts, requestMagicLink, verifyLoginCode, verifyMagicLink } from '../passwordless/helpers.js';
import { grantDirect } from '../../factories/rbac.js';

export { expectStatus, permissionDenied, UNAUTHORIZED } from '../../helpers/answers.js';

/** Every sign-in method with an HTTP path today, organizations, and the audit log. */
export const DASHBOARD_ENV = {
  SVC_ORGANIZATIONS_ENABLED: 'true', SVC_AUDIT_LOGGING_ENABLED: 'true', SVC_OTP_LOGIN_ENABLED: 'true', SVC_MAGIC_LINK_ENABLED: 'true',
};

/** Moves the test clock to an ISO 8601 instant. */
export const at = (t: TestApp, iso: string) => t.clock.set(new Date(iso));

/** An account created at the clock's time through the user service (no sign-in). */
export const accountAt = (t: TestApp, iso: string, overrides: UserOverrides = {}) => {
  at(t, iso);
  return createUser(t, overrides);
};

/**
 * The dashboard reader: an account holding `dashboard.view`, created (and never signed in) at `iso`, long before the
 * periods under test, so that it adds to `total_users` only.
 */
export async function createViewer(t: TestApp, iso = '2025-12-01T00:00:00.000Z', codes = ['dashboard.view']) {
  const viewer = await accountAt(t, iso, { email: 'viewer@example.com' });
  if (codes.length) await grantDirect(t, viewer.id, codes);
  return viewer;
}

/**
 * A GET on behalf of `who` at the clock's time, with the access token of a session opened directly (no sign-in
 * attempt is recorded; the session and its refresh token are live: one active session, one active refresh token).
 */
export async function getAs(t: TestApp, who: { id: number }, path: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const { access_token } = await openSession(t, who.id);
  return t.api({ method: 'GET', path, token: access_token, headers });
}

/** A password sign-in through login/email/ at `iso`; answers the status. */
export async function emailLogin(t: TestApp, iso: string, email: string, password: string): Promise<number> {
  at(t, iso);
  return (await t.api({ method: 'POST', path: 'login/email/', payload: { email, password } })).statusCode;
}

/** A password sign-in through login/phone/ at `iso` (a French number in E.164); answers the status. */
export async function phoneLogin(t: TestApp, iso: string, phone: string, password: string): Promise<number> {
  at(t, iso);
  return (await t.api({ method: 'POST', path: 'login/phone/', payload: { ...phoneParts(phone), password } })).statusCode;
}

/** A code sign-in through login/otp/request/ and login/otp/verify/ at `iso`. */
export async function otpLogin(t: TestApp, iso: string, phone: string): Promise<void> {
  at(t, iso);
  const res = await verifyLoginCode(t, phone, await loginCodeFor(t, phone));
  assert.equal(res.statusCode, 200, res.body);
}

/** A sign-in through magic-link/request/ and magic-link/verify/ at `iso`. */
export async function magicLinkLogin(t: TestApp, iso: string, user: Pick<TestUser, 'email'>): Promise<void> {
  at(t, iso);
  const sent = await requestMagicLink(t, { email: user.email, validation_url: 'http://localhost:3000/callback' });
  assert.equal(sent.statusCode, 200, sent.body);
  const res = await verifyMagicLink(t, { token: await lastMagicToken(t, user.email!) });
  assert.equal(res.statusCode, 200, res.body);
}

/** An audit event written through the audit service at `iso` (for events with no HTTP path in a test). */
export async function auditAt(t: TestApp, iso: string, event: { event_type: string; severity?: 'info' | 'warning' | 'critical';
  user_id?: number | null; ip_address?: string | null; details?: Record<string, unknown> }) {
  at(t, iso);
  await t.container.services.audit.record(event);
}
