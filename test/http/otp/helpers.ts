import assert from 'node:assert/strict';
import type { TestApp } from '../../helpers/test-app.js';

/** Empties the memory inbox (it outlives `t.reset()`). */
export function clearInbox(t: TestApp) {
  t.container.inbox.emails.length = 0;
  t.container.inbox.sms.length = 0;
}

const codeIn = (text: string) => {
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  assert.ok(code, `a 6-digit code in ${text}`);
  return code;
};

/** The code of the last email delivered to `to`. */
export async function lastEmailCode(t: TestApp, to: string): Promise<string> {
  await t.container.services.outbox.flush();
  const mail = t.container.inbox.emails.filter((m) => m.to === to).at(-1);
  assert.ok(mail, `an email to ${to}`);
  return codeIn(mail.text);
}

/** The code of the last SMS delivered to `to`. */
export async function lastSmsCode(t: TestApp, to: string): Promise<string> {
  await t.container.services.outbox.flush();
  const sms = t.container.inbox.sms.filter((m) => m.to === to).at(-1);
  assert.ok(sms, `an SMS to ${to}`);
  return codeIn(sms.body);
}

/** A 6-digit code different from `code`. */
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
