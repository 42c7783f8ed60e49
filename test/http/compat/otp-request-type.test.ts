import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertValidation } from '../auth/assertions.js';
import { clearInbox, lastEmailCode, lastSmsCode } from '../otp/helpers.js';
import { expectStatus } from '../../helpers/answers.js';

const PHONE = '+33612345678';
const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** SDK compatibility (docs/migrating-from-tenxyte.md): otp/request/ sends `{type: "email_verification" | "phone_verification"}` beside `otp_type`. */
describe('SDK compatibility: type on otp/request/', () => {
  const t = useTestApp();
  let token: string;
  beforeEach(async () => {
    clearInbox(t);
    token = (await signIn(t, await createUser(t, { email: 'ann@example.com', phone: PHONE }))).access_token;
  });

  const request = (payload: object) => t.api({ method: 'POST', path: 'otp/request/', token, headers: SDK_HEADERS, payload });
  const sent = async () => {
    await t.container.services.outbox.flush();
    return t.container.inbox.emails.length + t.container.inbox.sms.length;
  };

  it('emails a code for {type: "email_verification"} that verifies the email address', async () => {
    const body = expectStatus(await request({ type: 'email_verification' }), 200);
    assert.equal(body.channel, 'email');
    assert.equal(body.masked_recipient, 'a**@example.com');
    assert.equal(typeof body.otp_id, 'string');
    assert.equal(typeof body.expires_at, 'string');
    const code = await lastEmailCode(t, 'ann@example.com');
    const verified = await t.api({ method: 'POST', path: 'otp/verify/email/', token, headers: SDK_HEADERS, payload: { code } });
    assert.equal(expectStatus(verified, 200).email_verified, true);
  });

  it('texts a code for {type: "phone_verification"} that verifies the phone number', async () => {
    const body = expectStatus(await request({ type: 'phone_verification' }), 200);
    assert.equal(body.channel, 'sms');
    assert.equal(body.masked_recipient, '+*******5678');
    const code = await lastSmsCode(t, PHONE);
    const verified = await t.api({ method: 'POST', path: 'otp/verify/phone/', token, headers: SDK_HEADERS, payload: { code } });
    assert.equal(expectStatus(verified, 200).phone_verified, true);
  });

  it('accepts otp_type and type together when they agree', async () => {
    assert.equal(expectStatus(await request({ otp_type: 'phone', type: 'phone_verification' }), 200).channel, 'sms');
  });

  it('answers 400 validation on type when it disagrees with otp_type, and sends nothing', async () => {
    assertValidation(await request({ otp_type: 'email', type: 'phone_verification' }), 'type');
    assertValidation(await request({ otp_type: 'phone', type: 'email_verification' }), 'type');
    assert.equal(await sent(), 0);
  });

  it('answers 400 validation on type for an unknown value, and on otp_type when neither is sent', async () => {
    for (const type of ['email', 'sms_verification', 'password_reset', '']) assertValidation(await request({ type }), 'type');
    assertValidation(await request({}), 'otp_type');
    assert.equal(await sent(), 0);
  });
});
