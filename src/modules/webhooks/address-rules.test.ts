import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forbiddenAddressReason } from './address-rules.js';

describe('forbiddenAddressReason', () => {
  it('refuses loopback, private, link-local, unique-local, CGNAT, metadata and reserved addresses', () => {
    for (const address of ['127.0.0.1', '127.255.1.2', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
      '100.64.0.1', '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.2.10',
      '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd00:ec2::254', 'ff02::1', '2001:db8::1', '[::1]',
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '::127.0.0.1']) {
      assert.match(forbiddenAddressReason(address) ?? '', /not a public address/, address);
    }
  });

  it('accepts public IPv4 and IPv6 addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111',
      '2a00:1450:4007:80e::200e', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      assert.equal(forbiddenAddressReason(address), undefined, address);
    }
  });

  it('refuses what is not an IP address', () => {
    assert.equal(forbiddenAddressReason('example.com'), 'not an IP address');
  });
});
