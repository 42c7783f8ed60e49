import type { Writable } from 'node:stream';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config/settings.js';
import { maskSecrets } from './mask.js';
import type { Purpose } from './templates.js';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  purpose: Purpose;
  /** Stable per outbox message, so a receiver can recognise a repeat. */
  messageId: string;
}

export interface SmsMessage {
  to: string;
  body: string;
  purpose: Purpose;
}

/** The notifier port: a backend delivers or throws. */
export interface Notifier {
  sendEmail(message: EmailMessage): Promise<void>;
  sendSms(message: SmsMessage): Promise<void>;
}

/** What the `memory` backends received (tests read codes and links from here). */
export interface MemoryInbox {
  emails: EmailMessage[];
  sms: SmsMessage[];
}

const SEND_TIMEOUT_MS = 10_000;

/**
 * What the `console` backends print: in debug the message as it is (a developer reads the code from `npm start`'s
 * output); outside debug, with its codes, tokens and links masked, since nothing is delivered and the output reaches
 * log files (docs/deployment.md "Email and SMS").
 */
const printable = (config: Pick<Config, 'DEBUG'>) => (config.DEBUG ? (text: string) => text : maskSecrets);

function emailSender(config: Config, inbox: MemoryInbox, out: Writable): Notifier['sendEmail'] {
  switch (config.EMAIL_BACKEND) {
    case 'memory':
      return async (msg) => { inbox.emails.push(msg); };
    case 'smtp': {
      // The SMTP client is loaded with the first message, not at start-up.
      let transport: Promise<Transporter> | undefined;
      return async (msg) => {
        transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({
          host: config.SMTP_HOST, port: config.SMTP_PORT, secure: config.SMTP_SECURE,
          ...(config.SMTP_USER ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } } : {}),
          connectionTimeout: SEND_TIMEOUT_MS, greetingTimeout: SEND_TIMEOUT_MS, socketTimeout: SEND_TIMEOUT_MS,
        }));
        await (await transport).sendMail({ from: config.EMAIL_FROM, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html,
          messageId: msg.messageId, headers: { 'X-Gatehouse-Purpose': msg.purpose } });
      };
    }
    default: {
      // Development delivery: the message is printed, as a mail client would show it, on the server's stdout.
      const shown = printable(config);
      return async (msg) => {
        out.write(`\n----- email (${msg.purpose}) to ${msg.to} -----\nSubject: ${shown(msg.subject)}\n\n${shown(msg.text)}\n-----\n`);
      };
    }
  }
}

function smsSender(config: Config, inbox: MemoryInbox, out: Writable): Notifier['sendSms'] {
  switch (config.SMS_BACKEND) {
    case 'memory':
      return async (msg) => { inbox.sms.push(msg); };
    case 'webhook':
      return async (msg) => {
        const res = await fetch(config.SMS_WEBHOOK_URL!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ to: msg.to, body: msg.body, purpose: msg.purpose }),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        await res.body?.cancel().catch(() => undefined);
        if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`);
      };
    default: {
      const shown = printable(config);
      return async (msg) => { out.write(`\n----- sms (${msg.purpose}) to ${msg.to} -----\n${shown(msg.body)}\n-----\n`); };
    }
  }
}

export function createNotifier(config: Config, out: Writable = process.stdout): { notifier: Notifier; inbox: MemoryInbox } {
  const inbox: MemoryInbox = { emails: [], sms: [] };
  return { notifier: { sendEmail: emailSender(config, inbox, out), sendSms: smsSender(config, inbox, out) }, inbox };
}
