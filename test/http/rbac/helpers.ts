import type { LightMyRequestResponse } from 'fastify';
import { createUser, type UserOverrides } from '../../factories/users.js';
import { signIn } from '../../factories/sessions.js';
import { signInAdmin } from '../../factories/twofactor.js';
import type { TestApp } from '../../helpers/test-app.js';

const DENIED = { error: 'You do not have permission to perform this action', code: 'PERMISSION_DENIED' };
/** 403 PERMISSION_DENIED naming the permissions the caller lacks, every one of them needed (docs/access-control.md "Refusals"). */
export const permissionDenied = (...missing: string[]) =>
  ({ ...DENIED, details: { missing_permissions: [...missing].sort(), requires: 'all' } });
/** 403 PERMISSION_DENIED for a change no permission allows: a superuser's to make, or one's own account. */
export const refusedBecause = (reason: 'superuser_required' | 'own_account') => ({ ...DENIED, details: { reason } });
export const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND' };
export const UNAUTHORIZED = { error: 'Authentication credentials were not provided', code: 'UNAUTHORIZED' };

/**
 * An account created through the user service and signed in through login/email/ (an administrator with 2FA, as
 * the admin gate requires); answers it with its access token.
 */
export async function account(t: TestApp, overrides: UserOverrides = {}) {
  const user = await createUser(t, overrides);
  const { access_token } = overrides.is_staff || overrides.is_superuser ? await signInAdmin(t, user) : await signIn(t, user);
  return { ...user, token: access_token };
}

export type Account = Awaited<ReturnType<typeof account>>;

/** Direct permissions given to a user without going through the API. */
export async function grantDirect(t: TestApp, userId: number, codes: string[]) {
  const rows = await t.container.db.selectFrom('permissions').select('id').where('code', 'in', codes).execute();
  await t.container.db.insertInto('user_permissions').values(rows.map((r) => ({ user_id: userId, permission_id: r.id }))).execute();
}

/** The body of a response, failing with the body text when the status is not the one expected. */
export function expectStatus(res: LightMyRequestResponse, status: number) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** Audit events of a type, oldest first. */
export const auditEvents = (t: TestApp, eventType: string) =>
  t.container.db.selectFrom('audit_events').select(['event_type', 'severity', 'user_id', 'actor_id', 'details'])
    .where('event_type', '=', eventType).orderBy('id').execute();
