import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-db.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { apiClient, createApplication, SKIP_WITHOUT_POSTGRES as skip, sleep, type Answer, type ApiClient } from './helpers.js';

// Email and SMS leave through the outbox, after commit: with the SMTP server or the SMS webhook down (refusing, failing
// or silent), the requests that send them answer exactly as when delivery works, and once the provider is back every
// queued message arrives, once (docs/decisions.md "Several instances": "mail waits in the outbox").

/** A correctness bound: these answers wait on no provider; one that did would wait for its 10 s send timeout. */
const ANSWER_BOUND_MS = 3_000;
/**
 * How long the outbox may take to deliver after a recovery: a message that failed is retried after 5 s, then 10 s, 20 s
 * (the backoff doubles), and a silent provider first holds the worker until the 10 s send timeout.
 */
const DELIVERY_BOUND_MS = 45_000;

const PASSWORD = 'Notify-Fault-Pass-8d2c';

/**
 * One account per phase. The masked recipients in the answers (`a******@example.com`, `+*******5678`) are the same for
 * all three, so each phase's answers can be compared with the others' field by field.
 */
const ACCOUNTS = {
  working: { email: 'amy.one@example.com', phone: '611115678' },
  refused: { email: 'amy.two@example.com', phone: '622225678' },
  stalled: { email: 'amy.six@example.com', phone: '633335678' },
} as const;
type Phase = keyof typeof ACCOUNTS;
const e164 = (phone: string) => `+33${phone}`;

/**
 * Messages each phase asks for: the email verification code registration sends (docs/passwords-and-codes.md), an email and
 * an SMS verification code asked for again, a password reset by email and by SMS.
 */
const EMAILS_PER_PHASE = 3;
const SMS_PER_PHASE = 2;

/** Fields that differ from one account or request to the next: replaced by their name before answers are compared. */
const PER_REQUEST = new Set(['id', 'email', 'phone', 'created_at', 'access_token', 'refresh_token', 'session_id', 'device_id',
  'otp_id', 'expires_at']);
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, PER_REQUEST.has(k) && typeof v === 'string' ? `<${k}>` : comparable(v)]));
}

describe('gatehouse serve when the SMTP server or the SMS webhook is down', { skip }, () => {
  let database: ScratchDatabase;
  let sink: SmtpSink;
  let receiver: WebhookReceiver;
  let smtpProxy: TcpProxy;
  let smsProxy: TcpProxy;
  let server: RunningServer;
  let api: ApiClient;
  const answers = new Map<Phase, Answer[]>();
  const tokens = new Map<Phase, string>();

  before(async () => {
    database = await createScratchDatabase('postgres', { prepared: true });
    const app = await createApplication(database.env);
    sink = await startSmtpSink();
    receiver = await startWebhookReceiver();
    // Both providers are reached through proxies the tests can cut or stall.
    smtpProxy = await startTcpProxy({ host: '127.0.0.1', port: sink.port });
    const receiverUrl = new URL(receiver.url);
    smsProxy = await startTcpProxy({ host: '127.0.0.1', port: Number(receiverUrl.port) });
    receiverUrl.port = String(smsProxy.port);
    server = await startServer({ env: {
      ...database.env,
      SVC_EMAIL_BACKEND: 'smtp', SVC_SMTP_HOST: '127.0.0.1', SVC_SMTP_PORT: String(smtpProxy.port),
      SVC_SMS_BACKEND: 'webhook', SVC_SMS_WEBHOOK_URL: receiverUrl.toString(),
      // The worker looks for due messages every second, so a retry leaves as soon as its backoff allows.
      SVC_OUTBOX_POLL_INTERVAL: '1',
      // Several codes to one address in a few seconds: the limits are not what is tested here.
      SVC_RATE_LIMITING_ENABLED: 'false',
    } });
    api = apiClient(server, app);
  });
  after(async () => {
    await server?.kill();
    await smtpProxy?.close();
    await smsProxy?.close();
    await sink?.stop();
    await receiver?.stop();
    await database?.drop();
  });

  /** Registers the phase's account, then asks for each message; every answer within the bound. */
  async function requestMessages(phase: Phase): Promise<Answer[]> {
    const { email, phone } = ACCOUNTS[phase];
    const byPhone = { phone_country_code: '+33', phone_number: phone };
    const registered = await api.post('register/', { email, ...byPhone, password: PASSWORD, login: true });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const token = registered.body.access_token as string;
    tokens.set(phase, token);
    const result = [
      registered,
      await api.post('otp/request/', { otp_type: 'email' }, token),
      await api.post('otp/request/', { otp_type: 'phone' }, token),
      await api.post('password/reset/request/', { email }),
      await api.post('password/reset/request/', byPhone),
    ];
    for (const answer of result) assert.ok(answer.ms < ANSWER_BOUND_MS, `answered in ${answer.ms} ms`);
    answers.set(phase, result);
    return result;
  }

  /** The same statuses and bodies as with delivery working, but for what differs per account and request. */
  function assertSameAsWorking(phase: Phase): void {
    const expected = answers.get('working')!;
    const actual = answers.get(phase)!;
    assert.deepEqual(actual.map((a) => a.status), expected.map((a) => a.status));
    assert.deepEqual(actual.map((a) => comparable(a.body)), expected.map((a) => comparable(a.body)));
  }

  /** The phase's rows in the outbox. */
  const outboxOf = (phase: Phase) => database.inspect(async (db) => (await sql<{ status: string; attempts: number; last_error: string | null }>`
    select status, attempts, last_error from outbox_messages where recipient in (${ACCOUNTS[phase].email}, ${e164(ACCOUNTS[phase].phone)})
    order by id`.execute(db)).rows);

  /** Polls the phase's outbox rows until `done` holds for each of them. */
  async function waitForOutbox(phase: Phase, done: (row: { status: string; attempts: number; last_error: string | null }) => boolean) {
    const deadline = Date.now() + DELIVERY_BOUND_MS;
    for (;;) {
      const rows = await outboxOf(phase);
      if ((rows.length === EMAILS_PER_PHASE + SMS_PER_PHASE && rows.every(done)) || Date.now() > deadline) return rows;
      await sleep(200);
    }
  }

  type Sms = { to: string; body: string; purpose: string };
  const emailsTo = (phase: Phase) => sink.messages.filter((m) => !Array.isArray(m.to) && m.to?.text === ACCOUNTS[phase].email);
  const smsTo = (phase: Phase) => receiver.received.map((r) => r.body as Sms).filter((m) => m.to === e164(ACCOUNTS[phase].phone));
  const codeIn = (text: string | undefined) => /verification code is (\d{6})/.exec(text ?? '')?.[1];

  /** Every message of the phase arrived, and its verification codes verify: they are the ones the requests issued. */
  async function assertDelivered(phase: Phase): Promise<void> {
    const deadline = Date.now() + DELIVERY_BOUND_MS;
    while ((emailsTo(phase).length < EMAILS_PER_PHASE || smsTo(phase).length < SMS_PER_PHASE) && Date.now() < deadline) await sleep(200);
    const emails = emailsTo(phase);
    const sms = smsTo(phase);
    assert.equal(emails.length, EMAILS_PER_PHASE, 'emails delivered');
    assert.equal(sms.length, SMS_PER_PHASE, 'SMS delivered');
    assert.deepEqual(emails.map((m) => m.headers.get('x-gatehouse-purpose')).sort(), ['otp', 'otp', 'password_reset']);
    assert.deepEqual(sms.map((m) => m.purpose).sort(), ['otp', 'password_reset']);

    // Asking again replaces registration's code, and delivery after an outage need not keep the order: one of the two
    // emailed codes verifies.
    const smsCode = codeIn(sms.find((m) => m.purpose === 'otp')?.body);
    const token = tokens.get(phase)!;
    const emailCodes = emails.filter((m) => m.headers.get('x-gatehouse-purpose') === 'otp').map((m) => codeIn(m.text));
    const statuses: number[] = [];
    for (const code of emailCodes.reverse()) {
      statuses.push((await api.post('otp/verify/email/', { code }, token)).status);
      if (statuses.at(-1) === 200) break;
    }
    assert.equal(statuses.at(-1), 200, JSON.stringify(statuses));
    const verifiedPhone = await api.post('otp/verify/phone/', { code: smsCode }, token);
    assert.equal(verifiedPhone.status, 200, JSON.stringify(verifiedPhone.body));

    const rows = await waitForOutbox(phase, (r) => r.status === 'sent');
    assert.deepEqual(rows.map((r) => r.status), Array(EMAILS_PER_PHASE + SMS_PER_PHASE).fill('sent'));
  }

  it('with both providers working: each request answers and each message arrives', async () => {
    const result = await requestMessages('working');
    assert.deepEqual(result.map((a) => a.status), [201, 200, 200, 200, 200]);
    await assertDelivered('working');
  });

  it('SMTP refusing connections and the SMS webhook answering 500: the same answers, the messages wait in the outbox', async () => {
    await smtpProxy.cut();
    receiver.status = 500;
    await requestMessages('refused');
    assertSameAsWorking('refused');
    // Each message was tried and failed, and waits for its retry.
    const rows = await waitForOutbox('refused', (r) => r.attempts >= 1 && r.last_error !== null);
    for (const row of rows) {
      assert.ok(row.attempts >= 1 && row.last_error, JSON.stringify(row));
      assert.notEqual(row.status, 'sent');
    }
    assert.equal(emailsTo('refused').length + smsTo('refused').length, 0);
    const ready = await fetch(`${server.origin}/health/ready`);
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { checks: { outbox_backlog: number } }).checks.outbox_backlog, EMAILS_PER_PHASE + SMS_PER_PHASE);
  });

  it('once both providers are back, every waiting message is delivered, once, and its code works', async () => {
    await smtpProxy.restore();
    receiver.status = 200;
    await assertDelivered('refused');
  });

  it('SMTP and the SMS webhook silent (accepting, never answering): the same answers at once', async () => {
    smtpProxy.stall();
    smsProxy.stall();
    await requestMessages('stalled');
    assertSameAsWorking('stalled');
    // Meanwhile the worker is held by a silent provider: it has claimed a message it cannot finish.
    const deadline = Date.now() + DELIVERY_BOUND_MS;
    let rows = await outboxOf('stalled');
    while (!rows.some((r) => r.status === 'sending') && Date.now() < deadline) rows = await sleep(200).then(() => outboxOf('stalled'));
    assert.equal(rows.length, EMAILS_PER_PHASE + SMS_PER_PHASE);
    assert.ok(rows.some((r) => r.status === 'sending'), JSON.stringify(rows));
    assert.equal(emailsTo('stalled').length + smsTo('stalled').length, 0);
  });

  it('once the providers answer again, every message of the silent outage is delivered, once', async () => {
    await smtpProxy.restore();
    await smsProxy.restore();
    await assertDelivered('stalled');
  });

  it('nothing lost, nothing twice: as many emails and SMS delivered as requested, and the outbox is empty', async () => {
    assert.equal(sink.messages.length, 3 * EMAILS_PER_PHASE);
    assert.equal(receiver.received.length, 3 * SMS_PER_PHASE);
    assert.equal(new Set(sink.messages.map((m) => m.messageId)).size, sink.messages.length, 'each email once');
    const ready = await fetch(`${server.origin}/health/ready`);
    assert.equal(((await ready.json()) as { checks: { outbox_backlog: number } }).checks.outbox_backlog, 0);
  });
});
