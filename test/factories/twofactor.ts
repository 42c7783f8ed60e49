import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.js';
import { base32Decode, timeStep, totpAt } from '../../src/security/totp.js';
import type { SignInOptions } from './sessions.js';
import type { TestUser } from './users.js';

const NO_META = { applicationId: null, ip: null, userAgent: null, requestId: null };

/** The current TOTP code of a base32 secret at the test clock's time, `offset` steps away. */
export const totpNow = (t: TestApp, secret: string, offset = 0) =>
  totpAt(base32Decode(secret), timeStep(t.clock.now()) + offset);

/**
 * 2FA set up and confirmed through the two-factor service. The confirmation uses the previous time step's
 * code, so the current step is still unused and a login at the same clock time can use `code()`.
 * Answers the secret, the backup codes and `code(offset)`, the code at the test clock's current time.
 */
export async function enableTotp(t: TestApp, user: Pick<TestUser, 'id' | 'email'>) {
  const twofactor = t.container.services.twofactor;
  const account = { id: user.id, email: user.email, phone: null, username: null };
  const setup = await twofactor.setup(account);
  await twofactor.confirm(account, totpNow(t, setup.secret, -1), NO_META);
  return { secret: setup.secret, backupCodes: setup.backupCodes, code: (offset = 0) => totpNow(t, setup.secret, offset) };
}

/**
 * An administrator's password login (is_staff or is_superuser): 2FA is enabled first when it is not yet, and the
 * login carries the current code, or the next backup code for a repeated sign-in within one time step.
 */
export async function signInAdmin(t: TestApp, user: Pick<TestUser, 'id' | 'email' | 'password'>, opts: SignInOptions = {}) {
  if (!enrolled.has(t)) enrolled.set(t, new Map());
  const row = await t.container.db.selectFrom('users').select('is_2fa_enabled').where('id', '=', user.id).executeTakeFirstOrThrow();
  let totp = row.is_2fa_enabled ? enrolled.get(t)!.get(user.id) : undefined;
  if (!totp) {
    assert.ok(!row.is_2fa_enabled, 'signInAdmin: 2FA was enabled outside this factory; sign in with its code instead');
    totp = { ...(await enableTotp(t, user)), lastStep: null };
    enrolled.get(t)!.set(user.id, totp);
  }
  const step = timeStep(t.clock.now());
  const totp_code = totp.lastStep === step ? totp.backupCodes.pop()! : totp.code();
  totp.lastStep = step;
  const res = await t.api({
    method: 'POST', path: 'login/email/', headers: opts.headers,
    payload: { email: user.email, password: user.password, totp_code, ...(opts.device_info ? { device_info: opts.device_info } : {}) },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { access_token: string; refresh_token: string; session_id: string; token_scope?: string; must_change_password: boolean };
}

type Enrolled = Awaited<ReturnType<typeof enableTotp>> & { lastStep: number | null };
/** Accounts enrolled by signInAdmin, per test app (ids repeat after `t.reset()`: the row's 2FA flag tells a stale entry). */
const enrolled = new WeakMap<TestApp, Map<number, Enrolled>>();
