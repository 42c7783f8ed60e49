import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertValidation } from '../auth/assertions.js';
import { clearInbox, lastEmailCode, lastSmsCode } from '../otp/helpers.js';
import { expectStatus } from '../../helpers/answers.js';

const PHONE = '+33612345678';
const PHONE_PAIR = { phone_country_code: '+33', phone_number: '612345678' };
const NEW_PASSWORD = 'violet submarine orchestra';
const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** SDK compatibility (docs/migrating-from-tenxyte.md): password/reset/confirm/ sends `confirm_password`, which must equal `new_password`. */
describe('SDK compatibility: confirm_password on password/reset/confirm/', () => {
  const t = useTestApp();
  let user: TestUser;
  beforeEach(async () => {
    clearInbox(t);
    user = await createUser(t, { email: 'ann@example.com', phone: PHONE });
  });

  const post = (path: string, payload: object) => t.api({ method: 'POST', path, headers: SDK_HEADERS, payload });
  const login = (password: string) => post('login/email/', { email: 'ann@example.com', password });
  const emailCode = async () => {
    expectStatus(await post('password/reset/request/', { email: 'ann@example.com' }), 200);
    return lastEmailCode(t, 'ann@example.com');
  };

  it('resets with {email, otp_code, new_password, confirm_password} and answers {message}', async () => {
    const otp_code = await emailCode();
    const res = await post('password/reset/confirm/', {
      email: 'ann@example.com', otp_code, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD,
    });
    assert.equal(typeof expectStatus(res, 200).message, 'string');
    expectStatus(await login(NEW_PASSWORD), 200);
  });

  it('resets by phone pair with confirm_password', async () => {
    expectStatus(await post('password/reset/request/', PHONE_PAIR), 200);
    const otp_code = await lastSmsCode(t, PHONE);
    const body = { ...PHONE_PAIR, otp_code, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD };
    expectStatus(await post('password/reset/confirm/', body), 200);
    expectStatus(await login(NEW_PASSWORD), 200);
  });

  it('answers 400 validation on confirm_password when it differs, without spending the code or changing the password', async () => {
    const otp_code = await emailCode();
    const body = { email: 'ann@example.com', otp_code, new_password: NEW_PASSWORD };
    assertValidation(await post('password/reset/confirm/', { ...body, confirm_password: `${NEW_PASSWORD}!` }), 'confirm_password');
    assertValidation(await post('password/reset/confirm/', { ...body, confirm_password: NEW_PASSWORD.toUpperCase() }), 'confirm_password');
    assertValidation(await post('password/reset/confirm/', { ...body, confirm_password: '' }), 'confirm_password');
    expectStatus(await login(user.password!), 200);
    expectStatus(await post('password/reset/confirm/', { ...body, confirm_password: NEW_PASSWORD }), 200);
  });

  it('treats forms equal after NFKC as the same password, as the hash does', async () => {
    const otp_code = await emailCode();
    const res = await post('password/reset/confirm/', {
      email: 'ann@example.com', otp_code, new_password: 'n\u00e4ive fine passphrase', confirm_password: 'na\u0308ive fine passphrase',
    });
    expectStatus(res, 200);
    expectStatus(await login('n\u00e4ive fine passphrase'), 200);
  });
});
