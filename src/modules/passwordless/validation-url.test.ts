import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAllowedValidationUrl, linkWithToken } from './validation-url.js';

const ALLOWED = ['https://app.example.com/auth/magic', 'http://localhost:3000/callback'];

describe('magic-link validation_url', () => {
  it('accepts an address equal on scheme, host, port and path', () => {
    assert.equal(isAllowedValidationUrl('https://app.example.com/auth/magic', ALLOWED), true);
    assert.equal(isAllowedValidationUrl('http://localhost:3000/callback', ALLOWED), true);
  });

  it('ignores the query and the default port, and compares the host case-insensitively', () => {
    assert.equal(isAllowedValidationUrl('https://app.example.com/auth/magic?next=/home', ALLOWED), true);
    assert.equal(isAllowedValidationUrl('https://app.example.com:443/auth/magic', ALLOWED), true);
    assert.equal(isAllowedValidationUrl('https://APP.example.com/auth/magic', ALLOWED), true);
  });

  it('refuses another scheme, host, port or path', () => {
    for (const url of ['http://app.example.com/auth/magic', 'https://evil.example.com/auth/magic',
      'https://app.example.com:8443/auth/magic', 'https://app.example.com/auth/magic/', 'https://app.example.com/auth/Magic',
      'https://app.example.com.evil.test/auth/magic', 'http://localhost:3001/callback']) {
      assert.equal(isAllowedValidationUrl(url, ALLOWED), false, url);
    }
  });

  it('refuses fragments, credentials, other schemes and malformed values', () => {
    for (const url of ['https://app.example.com/auth/magic#x', 'https://u:p@app.example.com/auth/magic', 'javascript:alert(1)',
      'ftp://app.example.com/auth/magic', '/auth/magic', ' https://app.example.com/auth/magic', '']) {
      assert.equal(isAllowedValidationUrl(url, ALLOWED), false, url);
    }
  });

  it('refuses everything when nothing is allowed', () => {
    assert.equal(isAllowedValidationUrl('https://app.example.com/auth/magic', []), false);
  });

  it('appends the token as a query parameter, after an existing query with &', () => {
    assert.equal(linkWithToken('https://a.test/cb', 'abc_-1'), 'https://a.test/cb?token=abc_-1');
    assert.equal(linkWithToken('https://a.test/cb?next=%2Fhome', 'abc'), 'https://a.test/cb?next=%2Fhome&token=abc');
  });
});
