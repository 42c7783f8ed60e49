import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectedOrigins } from './origins.js';

describe('expectedOrigins', () => {
  const config = { WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGINS: [] as string[], PUBLIC_URL: null, PORT: 8000 };

  it('takes https://<rp id> and the application\'s origins on the RP ID or under it, nothing else', () => {
    const origins = expectedOrigins(config, ['https://app.example.com', 'http://localhost:3000', 'https://example.com.evil.net',
      'https://notexample.com', 'https://a.b.example.com/', 'not a url']);
    assert.deepEqual(origins, ['https://example.com', 'https://app.example.com', 'https://a.b.example.com']);
  });

  it('takes the origin of SVC_PUBLIC_URL when it is on the RP ID, port and scheme included', () => {
    assert.deepEqual(expectedOrigins({ ...config, PUBLIC_URL: 'https://auth.example.com:8443/gate' }, []),
      ['https://auth.example.com:8443', 'https://example.com']);
    assert.deepEqual(expectedOrigins({ ...config, PUBLIC_URL: 'https://auth.other.org' }, []), ['https://example.com']);
  });

  it('reads the default http://127.0.0.1:<port> as the same server named localhost, the RP ID then', () => {
    assert.deepEqual(expectedOrigins({ ...config, WEBAUTHN_RP_ID: 'localhost' }, ['http://localhost:3000']),
      ['http://localhost:8000', 'https://localhost', 'http://localhost:3000']);
  });

  it('takes SVC_WEBAUTHN_ORIGINS alone when it is set', () => {
    assert.deepEqual(expectedOrigins({ ...config, WEBAUTHN_ORIGINS: ['https://login.example.com'] }, ['https://app.example.com']),
      ['https://login.example.com']);
  });
});
