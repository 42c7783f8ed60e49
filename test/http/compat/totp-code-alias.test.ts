import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { totpNow } from '../../factories/twofactor.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation } from '../auth/assertions.js';
import { expectStatus } from '../../helpers/answers.js';
import { enableThroughApi, NOW, startSetup, status } from '../twofactor/helpers.js';

const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** SDK compatibility (docs/migrating-from-tenxyte.md): 2fa/confirm/, 2fa/disable/ and 2fa/backup-codes/ send `totp_code`, accepted beside `code`. */
describe('SDK compatibility: totp_code on the 2FA endpoints', () => {
  const t = useTestApp({ now: NOW });
  let user: TestUser;
  let token: string;
  beforeEach(async () => {
    user = await createUser(t, { email: 'ann@example.com' });
    token = (await signIn(t, user)).access_token;
  });

  const sdk = (path: string, payload: object) => t.api({ method: 'POST', path, token, headers: SDK_HEADERS, payload });

  it('confirms setup with {totp_code} and answers {message, is_enabled: true}', async () => {
    const setup = await startSetup(t, token);
    const body = expectStatus(await sdk('2fa/confirm/', { totp_code: totpNow(t, setup.secret) }), 200);
    assert.equal(body.is_enabled, true);
    assert.equal(typeof body.message, 'string');
    assert.equal((await status(t, token)).is_enabled, true);
  });

  it('regenerates backup codes with {totp_code}: {message, backup_codes (10), warning}', async () => {
    const setup = await enableThroughApi(t, token);
    const body = expectStatus(await sdk('2fa/backup-codes/', { totp_code: totpNow(t, setup.secret) }), 200);
    assert.equal(body.backup_codes.length, 10);
    assert.equal(typeof body.message, 'string');
    assert.equal(typeof body.warning, 'string');
  });

  it('disables 2FA with {totp_code, password} and answers {message, is_enabled: false}', async () => {
    const setup = await enableThroughApi(t, token);
    const body = expectStatus(await sdk('2fa/disable/', { totp_code: totpNow(t, setup.secret), password: user.password }), 200);
    assert.equal(body.is_enabled, false);
    assert.equal((await status(t, token)).is_enabled, false);
  });

  it('checks the totp_code it is given: a wrong one answers 400 INVALID_CODE', async () => {
    const setup = await startSetup(t, token);
    const wrong = totpNow(t, setup.secret, 5);
    assertError(await sdk('2fa/confirm/', { totp_code: wrong }), 400, 'INVALID_CODE');
    assertError(await sdk('2fa/disable/', { totp_code: wrong, password: user.password }), 400, 'INVALID_CODE');
  });

  it('answers 400 validation on totp_code when code and totp_code differ, and acts on neither', async () => {
    const setup = await startSetup(t, token);
    const code = totpNow(t, setup.secret);
    assertValidation(await sdk('2fa/confirm/', { code, totp_code: totpNow(t, setup.secret, -1) }), 'totp_code');
    assertValidation(await sdk('2fa/confirm/', { code: '', totp_code: code }), 'totp_code');
    assert.equal((await status(t, token)).is_enabled, false);
    expectStatus(await sdk('2fa/confirm/', { code, totp_code: code }), 200);
    t.clock.advance(30);
    const next = totpNow(t, setup.secret);
    assertValidation(await sdk('2fa/backup-codes/', { code: next, totp_code: setup.backup_codes[0]! }), 'totp_code');
    assertValidation(await sdk('2fa/disable/', { code: setup.backup_codes[0]!, totp_code: next, password: user.password }), 'totp_code');
    assert.deepEqual(await status(t, token), { is_enabled: true, backup_codes_remaining: 10 });
  });
});
