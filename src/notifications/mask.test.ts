import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { loadConfig } from '../config/load.js';
import { MASK, maskSecrets } from './mask.js';
import { createNotifier } from './senders.js';
import { PURPOSES, renderEmail, renderSms, type Language, type TemplateVars } from './templates.js';

const CODE = '493817';
const TOKEN = 'Qm9uam91ci1sZS1tb25kZS1jZWNpLWVzdC11bi10b2s';
const LINK = `https://app.example.com/auth/magic?next=%2Fhome&token=${TOKEN}`;

describe('maskSecrets', () => {
  it('masks one-time codes, tokens and the path and query of links, keeping their scheme and host', () => {
    assert.equal(maskSecrets(`Your verification code is ${CODE}.`), `Your verification code is ${MASK}.`);
    assert.equal(maskSecrets(`Your invitation token: ${TOKEN}`), `Your invitation token: ${MASK}`);
    assert.equal(maskSecrets(`Open\n${LINK}\nsoon`), `Open\nhttps://app.example.com/${MASK}\nsoon`);
    assert.equal(maskSecrets('myapp://reset/abc?token=x'), `myapp://reset/${MASK}`);
    assert.equal(maskSecrets('http://localhost:3000/callback?token=abc'), `http://localhost:3000/${MASK}`);
    assert.equal(maskSecrets('https://user:secret@app.example.com'), `https://app.example.com/${MASK}`);
    assert.equal(maskSecrets('a9f3c2e1b4d5a6f7e8d9c0b1a2f3e4d5'), MASK, 'a hex reference');
    assert.equal(maskSecrets('12345678'), MASK, 'a longer code');
  });

  it('leaves what carries no credential readable: words, dates, durations, a bare origin, a masked address', () => {
    for (const text of ['It expires in 10 minutes.', 'When: 2025-03-01T10:00:00.000Z.', 'Request reference: 42.',
      'Ann Archer invited you to join Acme Corporation as Member.', 'https://app.example.com', 'a**@example.com',
      'Votre code de réinitialisation est prêt.']) {
      assert.equal(maskSecrets(text), text);
    }
  });

  it('leaves no code, token or link in any template, in either language, by email or SMS', () => {
    const vars: TemplateVars = { code: CODE, link: LINK, token: TOKEN, minutes: 10, days: 7, organization: 'Acme', inviter: 'Ann',
      role: 'Member', event: 'a new passkey', date: '2025-03-01', reference: 'a9f3c2e1b4d5a6f7e8d9c0b1a2f3e4d5' };
    for (const purpose of PURPOSES) {
      for (const language of ['en', 'fr'] as Language[]) {
        for (const withLink of [true, false]) {
          const v = withLink ? vars : { ...vars, link: undefined };
          const email = renderEmail(purpose, language, v);
          for (const text of [email.subject, email.text, renderSms(purpose, language, v)]) {
            const shown = maskSecrets(text);
            for (const secret of [CODE, TOKEN, '/auth/magic', 'token=']) {
              assert.ok(!shown.includes(secret), `${purpose} (${language}) shows ${secret}: ${shown}`);
            }
          }
        }
      }
    }
  });
});

describe('the console backends', () => {
  /** The console notifier of a configuration, and everything it printed. */
  function consoleNotifier(debug: boolean) {
    const env = debug ? { SVC_DEBUG: 'true' } : { SVC_JWT_SECRET_KEY: 's'.repeat(32) };
    const { config } = loadConfig({ ...env, SVC_EMAIL_BACKEND: 'console', SVC_SMS_BACKEND: 'console' });
    let printed = '';
    const out = new Writable({ write(chunk, _encoding, done) { printed += String(chunk); done(); } });
    return { notifier: createNotifier(config, out).notifier, printed: () => printed };
  }
  const send = async (notifier: ReturnType<typeof consoleNotifier>['notifier']) => {
    const email = renderEmail('magic_link', 'en', { link: LINK, minutes: 10 });
    await notifier.sendEmail({ to: 'ann@example.com', purpose: 'magic_link', messageId: '<outbox-1@gatehouse>', ...email });
    const otp = renderEmail('otp', 'en', { code: CODE, minutes: 10 });
    await notifier.sendEmail({ to: 'ann@example.com', purpose: 'otp', messageId: '<outbox-2@gatehouse>', ...otp });
    await notifier.sendSms({ to: '+33612345678', purpose: 'password_reset', body: renderSms('password_reset', 'en', { code: CODE, minutes: 10 }) });
  };

  it('outside debug, print each message with its codes and links masked, and its recipient and purpose', async () => {
    const { notifier, printed } = consoleNotifier(false);
    await send(notifier);
    const text = printed();
    assert.ok(!text.includes(CODE) && !text.includes(TOKEN) && !text.includes('/auth/magic'), text);
    assert.match(text, /----- email \(magic_link\) to ann@example\.com -----\nSubject: Your sign-in link\n/);
    assert.ok(text.includes(`https://app.example.com/${MASK}`), text);
    assert.ok(text.includes(`Subject: Your verification code: ${MASK}`), text);
    assert.match(text, /----- sms \(password_reset\) to \+33612345678 -----\nYour password reset code is \*{6}\. It expires in 10 minutes\./);
  });

  it('in debug, print each message as it is: developers read their codes there', async () => {
    const { notifier, printed } = consoleNotifier(true);
    await send(notifier);
    const text = printed();
    assert.ok(text.includes(LINK), text);
    assert.ok(text.includes(`Subject: Your verification code: ${CODE}`), text);
    assert.ok(text.includes(`Your password reset code is ${CODE}.`), text);
    assert.ok(!text.includes(MASK), text);
  });
});
