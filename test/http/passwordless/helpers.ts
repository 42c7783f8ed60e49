import assert from 'node:assert/strict';
import type { TestApp } from '../../helpers/test-app.js';
import { lastSmsCode } from '../otp/helpers.js';

export { clearInbox, lastSmsCode, otherCode } from '../otp/helpers.js';

export const OTP_LOGIN_ON = { SVC_OTP_LOGIN_ENABLED: 'true' };
export const MAGIC_LINK_ON = { SVC_MAGIC_LINK_ENABLED: 'true' };

/** The form fields of a French number in E.164 (`+33` and the 9 national digits). */
export const phoneParts = (phone: string) => ({ phone_country_code: '+33', phone_number: phone.slice(3) });

export const requestLoginCode = (t: TestApp, phone: string, headers?: Record<string, string>) =>
  t.api({ method: 'POST', path: 'login/otp/request/', payload: phoneParts(phone), headers });

/** Requests a login code and answers the code the SMS carried. */
export async function loginCodeFor(t: TestApp, phone: string): Promise<string> {
  const res = await requestLoginCode(t, phone);
  assert.equal(res.statusCode, 200, res.body);
  return lastSmsCode(t, phone);
}

export const verifyLoginCode = (t: TestApp, phone: string, otp_code: string, extra: Record<string, unknown> = {},
  headers?: Record<string, string>) =>
  t.api({ method: 'POST', path: 'login/otp/verify/', payload: { ...phoneParts(phone), otp_code, ...extra }, headers });

export const requestMagicLink = (t: TestApp, payload: Record<string, unknown>, headers?: Record<string, string>) =>
  t.api({ method: 'POST', path: 'magic-link/request/', payload, headers });

export const verifyMagicLink = (t: TestApp, query: Record<string, string>, headers?: Record<string, string>) =>
  t.api({ method: 'GET', path: `magic-link/verify/?${new URLSearchParams(query).toString()}`, headers });

/** The link of the last email delivered to `to`. */
export async function lastMagicLink(t: TestApp, to: string): Promise<string> {
  await t.container.services.outbox.flush();
  const mail = t.container.inbox.emails.filter((m) => m.to === to).at(-1);
  assert.ok(mail, `an email to ${to}`);
  assert.equal(mail.purpose, 'magic_link');
  const link = /(https?:\/\/\S+)/.exec(mail.text)?.[1];
  assert.ok(link, `a link in ${mail.text}`);
  return link;
}

/** The token carried by the last magic link delivered to `to`. */
export async function lastMagicToken(t: TestApp, to: string): Promise<string> {
  const token = new URL(await lastMagicLink(t, to)).searchParams.get('token');
  assert.ok(token, 'a token in the link');
  return token;
}

/** Fires `n` copies of a request at once and answers their status codes. */
export async function inParallel(n: number, send: () => Promise<{ statusCode: number }>): Promise<number[]> {
  return (await Promise.all(Array.from({ length: n }, send))).map((r) => r.statusCode);
}
