import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/test-app.js';
import { expectStatus } from '../../helpers/answers.js';

export { account, type Account } from '../../factories/accounts.js';
export { grantDirect } from '../../factories/rbac.js';
export { expectStatus } from '../../helpers/answers.js';
export { auditEvents } from '../../helpers/audit.js';

/** A request with a bearer token (none when null). */
export const call = (t: TestApp, method: 'GET' | 'POST', path: string, token: string | null, payload?: object) =>
  t.api({ method, path, ...(token ? { token } : {}), ...(payload !== undefined ? { payload } : {}) }) as Promise<LightMyRequestResponse>;

/** Emails delivered to `to` so far (the outbox is flushed first), oldest first. */
export async function mailsTo(t: TestApp, to: string) {
  await t.container.services.outbox.flush();
  return t.container.inbox.emails.filter((m) => m.to === to);
}

/** The confirmation token of the latest confirmation email to `to`. */
export async function confirmationToken(t: TestApp, to: string): Promise<string> {
  const mail = (await mailsTo(t, to)).filter((m) => m.purpose === 'deletion_confirmation').at(-1);
  assert.ok(mail, `no confirmation email to ${to}`);
  const token = /^([A-Za-z0-9_-]{43})$/m.exec(mail.text)?.[1];
  assert.ok(token, 'the confirmation email carries the token');
  return token;
}

/** POST request-account-deletion/ answered 201; answers its body. */
export async function requestDeletion(t: TestApp, who: { token: string; password: string | null }, extra: object = {}) {
  return expectStatus(await call(t, 'POST', 'request-account-deletion/', who.token, { password: who.password, ...extra }), 201);
}

/** A request made and confirmed through the API; answers the confirmation's body. */
export async function requestAndConfirm(t: TestApp, who: { token: string; password: string | null; email: string | null }) {
  await requestDeletion(t, who);
  return expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token: await confirmationToken(t, who.email!) }), 200);
}

/** The stored request rows of a user, oldest first, once the emails due have been delivered. */
export async function requestRows(t: TestApp, userId: number) {
  await t.container.services.outbox.flush();
  return t.container.db.selectFrom('account_deletion_requests').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** A password login through the API, whatever it answers. */
export const login = (t: TestApp, who: { email: string | null; password: string | null }, extra: object = {}) =>
  t.api({ method: 'POST', path: 'login/email/', payload: { email: who.email, password: who.password, ...extra } });
