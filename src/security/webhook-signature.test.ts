import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook } from './webhook-signature.js';

describe('signWebhook', () => {
  it('matches the Standard Webhooks reference library, both ways', () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { ok: true } });
    const signature = signWebhook(secret, 'msg_1', timestamp, body);
    const wh = new Webhook(secret);
    assert.equal(wh.sign('msg_1', new Date(timestamp * 1000), body), signature);
    assert.deepEqual(wh.verify(body, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature }),
      JSON.parse(body));
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    assert.throws(() => wh.verify(`${body} `, headers));
  });

  it('refuses a secret without the whsec_ prefix', () => {
    assert.throws(() => signWebhook('secret', 'msg_1', 1, '{}'), /Not a webhook secret/);
  });
});
