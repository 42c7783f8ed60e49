import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, the spec the `standardwebhooks` reference library
 * implements): the secret is `whsec_` + base64 of the key, and each delivery is signed with HMAC-SHA256 over
 * `<webhook-id>.<webhook-timestamp>.<body>`, sent as `webhook-signature: v1,<base64>`.
 */
const PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes (the spec asks for 24 to 64), shown to the operator once. */
export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** The `webhook-signature` header of one attempt; `timestamp` is in whole seconds since the epoch. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  if (!secret.startsWith(PREFIX)) throw new TypeError('Not a webhook secret');
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
