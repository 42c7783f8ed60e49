import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { addSeconds } from '../../src/core/clock.js';
import { createUser } from '../factories/users.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { useTestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('outbox delivery through a real SMTP server and a real SMS webhook', () => {
  let smtp: SmtpSink;
  let webhook: WebhookReceiver;
  let smtpPort: number;

  before(async () => {
    smtp = await startSmtpSink();
    smtpPort = smtp.port;
    webhook = await startWebhookReceiver();
  });
  const t = useTestApp(() => ({ env: {
    SVC_EMAIL_BACKEND: 'smtp', SVC_SMTP_HOST: '127.0.0.1', SVC_SMTP_PORT: String(smtpPort), SVC_EMAIL_FROM: 'auth@gatehouse.test',
    SVC_SMS_BACKEND: 'webhook', SVC_SMS_WEBHOOK_URL: webhook.url, SVC_OUTBOX_MAX_ATTEMPTS: '3',
  } }));
  beforeEach(() => {
    smtp.messages.length = 0;
    webhook.received.length = 0;
    webhook.status = 200;
  });
  after(async () => {
    await smtp.stop();
    await webhook.stop();
  });

  const outbox = () => t.container.services.outbox;
  const enqueueOtp = (to = 'ann@example.com', language: string | null = 'en', expiresIn = 600, dedupKey?: string) =>
    t.container.db.transaction().execute((trx) => outbox().enqueue(trx, {
      channel: 'email', to, purpose: 'otp', language, vars: { code: '493817', minutes: 10 },
      expiresAt: addSeconds(t.clock.now(), expiresIn), ...(dedupKey ? { dedupKey } : {}),
    }));
  const rows = () => t.container.db.selectFrom('outbox_messages').select(['status', 'attempts', 'payload', 'last_error']).orderBy('id').execute();

  it('delivers an email with subject, text and HTML parts from SVC_EMAIL_FROM', async () => {
    await enqueueOtp();
    const report = await outbox().flush();
    assert.deepEqual(report, { sent: 1, retried: 0, failed: 0, expired: 0, dropped: 0 });
    const [mail] = await smtp.waitFor(1);
    assert.equal(mail!.subject, 'Your verification code: 493817');
    assert.match(mail!.text ?? '', /Your verification code is 493817\./);
    assert.match(String(mail!.html), /<p>Your verification code is 493817\.<\/p>/);
    assert.equal(mail!.from?.value[0]?.address, 'auth@gatehouse.test');
    assert.equal((mail!.to as { value: Array<{ address: string }> }).value[0]!.address, 'ann@example.com');
  });

  it('renders in the recipient language', async () => {
    await enqueueOtp('bea@example.com', 'fr-CA');
    await outbox().flush();
    const [mail] = await smtp.waitFor(1);
    assert.equal(mail!.subject, 'Votre code de vérification : 493817');
  });

  it('keeps the payload sealed while waiting and wipes it once sent', async () => {
    await enqueueOtp();
    const [waiting] = await rows();
    assert.ok(waiting!.payload.startsWith('v1.'));
    assert.ok(!waiting!.payload.includes('493817'));
    await outbox().flush();
    const [sent] = await rows();
    assert.equal(sent!.status, 'sent');
    assert.equal(sent!.payload, '');
  });

  it('survives an SMTP outage and delivers exactly once after the server returns', async () => {
    await smtp.stop();
    await enqueueOtp();
    const down = await outbox().flush();
    assert.deepEqual(down, { sent: 0, retried: 1, failed: 0, expired: 0, dropped: 0 });
    const [pending] = await rows();
    assert.equal(pending!.status, 'pending');
    assert.ok(pending!.last_error);
    assert.ok(!pending!.last_error!.includes('493817'));
    // Not due yet: the backoff holds it back.
    assert.deepEqual(await outbox().flush(), { sent: 0, retried: 0, failed: 0, expired: 0, dropped: 0 });
    smtp = await startSmtpSink(smtpPort);
    t.clock.advance(6);
    assert.deepEqual(await outbox().flush(), { sent: 1, retried: 0, failed: 0, expired: 0, dropped: 0 });
    t.clock.advance(3600);
    await outbox().flush();
    const mails = await smtp.waitFor(1);
    assert.equal(mails.length, 1);
    assert.equal((await rows())[0]!.status, 'sent');
  });

  it('answers a reset request normally while SMTP is down, and the code arrives exactly once after it returns', async () => {
    await createUser(t, { email: 'ann@example.com' });
    await smtp.stop();
    const res = await t.api({ method: 'POST', path: 'password/reset/request/', payload: { email: 'ann@example.com' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), ['channel', 'expires_at', 'message', 'otp_id']);
    assert.deepEqual(await outbox().flush(), { sent: 0, retried: 1, failed: 0, expired: 0, dropped: 0 });
    smtp = await startSmtpSink(smtpPort);
    t.clock.advance(6);
    assert.deepEqual(await outbox().flush(), { sent: 1, retried: 0, failed: 0, expired: 0, dropped: 0 });
    t.clock.advance(60);
    await outbox().flush();
    const mails = await smtp.waitFor(1);
    assert.equal(mails.length, 1);
    const code = /\b(\d{6})\b/.exec(mails[0]!.text ?? '')?.[1];
    assert.ok(code);
    const confirmed = await t.api({ method: 'POST', path: 'password/reset/confirm/',
      payload: { email: 'ann@example.com', otp_code: code, new_password: 'violet submarine orchestra' } });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
  });

  it('sends each reset code queued during an outage once it ends, the same code on each attempt; the newest one works', async () => {
    await createUser(t, { email: 'ann@example.com' });
    await smtp.stop();
    const reset = () => t.api({ method: 'POST', path: 'password/reset/request/', payload: { email: 'ann@example.com' } });
    assert.equal((await reset()).statusCode, 200);
    assert.equal((await reset()).statusCode, 200);
    // Both codes were written when their messages were first tried, the second retiring the first; both wait.
    await outbox().flush();
    assert.deepEqual((await rows()).map((r) => [r.status, r.attempts]), [['pending', 1], ['pending', 1]]);
    const hmacs = async () => (await t.container.db.selectFrom('otp_codes').select('code_hmac').orderBy('created_at').execute())
      .map((r) => r.code_hmac);
    const written = await hmacs();
    assert.equal(written.length, 2);
    smtp = await startSmtpSink(smtpPort);
    t.clock.advance(6);
    assert.deepEqual(await outbox().flush(), { sent: 2, retried: 0, failed: 0, expired: 0, dropped: 0 });
    assert.deepEqual(await hmacs(), written, 'a retry sends the code written at the first attempt, and writes none');
    const mails = await smtp.waitFor(2);
    const codes = mails.map((m) => /\b(\d{6})\b/.exec(m.text ?? '')?.[1]);
    const confirm = (code: string | undefined) => t.api({ method: 'POST', path: 'password/reset/confirm/',
      payload: { email: 'ann@example.com', otp_code: code, new_password: 'violet submarine orchestra' } });
    assert.equal((await confirm(codes[0])).statusCode, 401, 'the older code was retired by the newer one');
    const confirmed = await confirm(codes[1]);
    assert.equal(confirmed.statusCode, 200, confirmed.body);
  });

  it('sends a queued reset code to no one when the address has no account, and keeps nothing of it', async () => {
    const res = await t.api({ method: 'POST', path: 'password/reset/request/', payload: { email: 'nobody@example.com' } });
    assert.equal(res.statusCode, 200, res.body);
    // The request's own pass may have dropped it already; either way nothing is left.
    await outbox().flush();
    assert.deepEqual(await rows(), []);
    assert.equal(smtp.messages.length, 0);
  });

  it('drops a message that expired while undeliverable instead of sending it stale', async () => {
    await smtp.stop();
    await enqueueOtp('ann@example.com', 'en', 30);
    await outbox().flush();
    smtp = await startSmtpSink(smtpPort);
    t.clock.advance(60);
    assert.deepEqual(await outbox().flush(), { sent: 0, retried: 0, failed: 0, expired: 1, dropped: 0 });
    assert.equal(smtp.messages.length, 0);
    const [row] = await rows();
    assert.equal(row!.status, 'expired');
    assert.equal(row!.payload, '');
  });

  it('gives up after SVC_OUTBOX_MAX_ATTEMPTS with exponential backoff between attempts', async () => {
    webhook.status = 503;
    await t.container.db.transaction().execute((trx) => outbox().enqueue(trx, {
      channel: 'sms', to: '+14155552671', purpose: 'otp', vars: { code: '111222' }, expiresAt: addSeconds(t.clock.now(), 3600),
    }));
    assert.equal((await outbox().flush()).retried, 1);
    t.clock.advance(4);
    assert.equal((await outbox().flush()).retried, 0, 'first retry is due after 5 s');
    t.clock.advance(1);
    assert.equal((await outbox().flush()).retried, 1);
    t.clock.advance(9);
    assert.equal((await outbox().flush()).retried, 0, 'second retry is due after 10 s more');
    t.clock.advance(1);
    assert.equal((await outbox().flush()).failed, 1);
    const [row] = await rows();
    assert.equal(row!.status, 'failed');
    assert.equal(row!.attempts, 3);
    assert.equal(row!.payload, '');
  });

  it('enqueues a message with a deduplication key once', async () => {
    await enqueueOtp('ann@example.com', 'en', 600, 'otp:1:42');
    assert.equal(await enqueueOtp('ann@example.com', 'en', 600, 'otp:1:42'), null);
    await outbox().flush();
    assert.equal((await smtp.waitFor(1)).length, 1);
    assert.equal((await rows()).length, 1);
  });

  it('posts SMS as JSON {to, body, purpose} to the webhook, and retries through its outage exactly once', async () => {
    webhook.status = 503;
    await t.container.db.transaction().execute((trx) => outbox().enqueue(trx, {
      channel: 'sms', to: '+14155552671', purpose: 'password_reset', vars: { code: '654321', minutes: 10 },
      expiresAt: addSeconds(t.clock.now(), 600),
    }));
    await outbox().flush();
    assert.equal(webhook.received.length, 0);
    webhook.status = 200;
    t.clock.advance(5);
    await outbox().flush();
    t.clock.advance(600);
    await outbox().flush();
    assert.equal(webhook.received.length, 1);
    assert.deepEqual(webhook.received[0]!.body, {
      to: '+14155552671', body: 'Your password reset code is 654321. It expires in 10 minutes.', purpose: 'password_reset',
    });
    assert.match(String(webhook.received[0]!.headers['content-type']), /application\/json/);
  });
});
