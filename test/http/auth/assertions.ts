import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

/** The user object (docs/authentication.md) as registration and login answer it. */
export const USER_FIELDS = ['avatar', 'bio', 'created_at', 'custom_fields', 'email', 'first_name', 'id', 'is_2fa_enabled', 'is_active',
  'is_email_verified', 'is_phone_verified', 'language', 'last_login', 'last_name', 'permissions', 'phone', 'preferences', 'roles',
  'timezone', 'username'];

/** The token response (docs/authentication.md "Tokens") of a password login with a full-scope token. */
export const TOKEN_RESPONSE_FIELDS = ['access_token', 'device_id', 'device_summary', 'expires_in', 'must_change_password',
  'refresh_expires_in', 'refresh_token', 'requires_2fa', 'session_id', 'token_type', 'user'];

/** The `POST refresh/` success body, with the SDK's `access` and `refresh` beside it (docs/migrating-from-tenxyte.md). */
export const REFRESH_RESPONSE_FIELDS = ['access', 'access_token', 'expires_in', 'must_change_password', 'refresh', 'refresh_expires_in',
  'refresh_token', 'token_type'];

/** A 400 validation answer whose details name `field`; answers the body. */
export function assertValidation(res: LightMyRequestResponse, field: string) {
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json();
  assert.equal(body.error, 'Validation error');
  assert.equal(body.code, 'VALIDATION_ERROR');
  assert.ok(Array.isArray(body.details?.[field]) && body.details[field].length > 0, `details.${field} in ${res.body}`);
  return body;
}

/** The standard error body `{error, code}` with exactly `status` and `code` (and no details). */
export function assertError(res: LightMyRequestResponse, status: number, code: string, extra: Record<string, unknown> = {}) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.equal(body.code, code, res.body);
  assert.equal(typeof body.error, 'string');
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', ...Object.keys(extra)].sort(), res.body);
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) assert.deepEqual(body[key], value, key);
  return body;
}
