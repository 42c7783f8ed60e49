import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimitKey } from './rate-limit-key.js';

describe('rateLimitKey', () => {
  it('counts an IPv4 address alone', () => {
    assert.equal(rateLimitKey('198.51.100.7'), '198.51.100.7');
    assert.notEqual(rateLimitKey('198.51.100.7'), rateLimitKey('198.51.100.8'));
  });

  it('counts an IPv6 address by its /64, whatever its spelling', () => {
    const key = '2001:db8:1:2::/64';
    for (const ip of ['2001:db8:1:2::1', '2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2:a:b:c:d', '2001:db8:1:2:0:0:0:0',
      '2001:db8:1:2::198.51.100.7', '2001:db8:1:2::1%eth0']) {
      assert.equal(rateLimitKey(ip), key, ip);
    }
    assert.equal(rateLimitKey('2001:db8:1:3::1'), '2001:db8:1:3::/64');
    assert.equal(rateLimitKey('2001:db8::'), '2001:db8:0:0::/64');
    assert.equal(rateLimitKey('::1'), '0:0:0:0::/64');
    assert.equal(rateLimitKey('::'), '0:0:0:0::/64');
    assert.equal(rateLimitKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address it is', () => {
    assert.equal(rateLimitKey('::ffff:198.51.100.7'), '198.51.100.7');
    assert.equal(rateLimitKey('::FFFF:c633:6407'), '198.51.100.7');
    assert.equal(rateLimitKey('0:0:0:0:0:ffff:198.51.100.7'), '198.51.100.7');
  });

  it('keeps anything that is not an address as it is', () => {
    assert.equal(rateLimitKey('unknown'), 'unknown');
    assert.equal(rateLimitKey(''), '');
  });
});
