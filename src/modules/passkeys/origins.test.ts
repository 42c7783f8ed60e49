import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectedOrigins } from './origins.js';

describe('expectedOrigins', () => {
  const config = { WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGINS: [] as string[] };

  it('takes https://<rp id> and the application\'s origins on the RP ID or under it, nothing else', () => {
    const origins = expectedOrigins(config, ['https://app.example.com', 'http://localhost:3000', 'https://example.com.evil.net',
      'https://notexample.com', 'https://a.b.example.com/', 'not a url']);
    assert.deepEqual(origins, ['https://example.com', 'https://app.example.com', 'https://a.b.example.com']);
  });

  it('takes SVC_WEBAUTHN_ORIGINS alone when it is set', () => {
    assert.deepEqual(expectedOrigins({ ...config, WEBAUTHN_ORIGINS: ['https://login.example.com'] }, ['https://app.example.com']),
      ['https://login.example.com']);
  });
});
