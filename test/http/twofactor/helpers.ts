import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { totpNow } from '../../factories/twofactor.js';
import type { TestApp } from '../../helpers/test-app.js';

/** A clock time 10 s into a TOTP time step, so `advance(30)` always lands in the next step. */
export const NOW = new Date('2025-03-01T10:00:10.000Z');

export const post = (t: TestApp, path: string, token: string | undefined, payload?: object) =>
  t.api({ method: 'POST', path, token, ...(payload ? { payload } : {}) });

export const status = async (t: TestApp, token: string) => {
  const res = await t.api({ method: 'GET', path: '2fa/status/', token });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { is_enabled: boolean; backup_codes_remaining: number };
};

export interface SetupBody {
  message: string; secret: string; qr_code: string; provisioning_uri: string; backup_codes: string[]; warning: string;
}

export async function startSetup(t: TestApp, token: string): Promise<SetupBody> {
  const res = await post(t, '2fa/setup/', token);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** 2FA set up and confirmed through the API with the current code; the clock then moves to the next step. */
export async function enableThroughApi(t: TestApp, token: string) {
  const setup = await startSetup(t, token);
  const res = await post(t, '2fa/confirm/', token, { code: totpNow(t, setup.secret) });
  assert.equal(res.statusCode, 200, res.body);
  t.clock.advance(30);
  return setup;
}

export const loginEmail = (t: TestApp, email: string | null, password: string | null, totp_code?: string) =>
  t.api({ method: 'POST', path: 'login/email/', payload: { email, password, ...(totp_code !== undefined ? { totp_code } : {}) } });

/** How many of the answers have each status code, e.g. `{ 200: 1, 401: 9 }`. */
export function statusCounts(answers: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const res of answers) counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
  return counts;
}

export const auditTypes = async (t: TestApp, userId: number) =>
  (await t.container.db.selectFrom('audit_events').select(['event_type', 'severity']).where('user_id', '=', userId)
    .where('event_type', 'in', ['2fa_enabled', '2fa_disabled', 'backup_codes_regenerated']).orderBy('id').execute());
