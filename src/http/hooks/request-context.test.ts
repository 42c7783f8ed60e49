import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { clientIpResolver, genReqId } from './request-context.js';

const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('clientIpResolver', () => {
  it('without trusted proxies, returns the socket peer even when X-Forwarded-For is present', () => {
    const resolve = clientIpResolver([]);
    assert.equal(resolve(request('203.0.113.7', { 'x-forwarded-for': '1.1.1.1, 2.2.2.2' })), '203.0.113.7');
    assert.equal(resolve(request('203.0.113.7')), '203.0.113.7');
  });

  it('from a trusted proxy, returns the right-most X-Forwarded-For entry that is not trusted', () => {
    const resolve = clientIpResolver(['127.0.0.1']);
    assert.equal(resolve(request('127.0.0.1', { 'x-forwarded-for': '1.1.1.1, 2.2.2.2' })), '2.2.2.2');
  });

  it('skips every trusted hop in the chain', () => {
    const resolve = clientIpResolver(['127.0.0.1', '2.2.2.2']);
    assert.equal(resolve(request('127.0.0.1', { 'x-forwarded-for': '1.1.1.1, 2.2.2.2' })), '1.1.1.1');
  });

  it('ignores the header of a peer that is not trusted', () => {
    const resolve = clientIpResolver(['127.0.0.1']);
    assert.equal(resolve(request('198.51.100.9', { 'x-forwarded-for': '1.1.1.1, 2.2.2.2' })), '198.51.100.9');
  });

  it('returns a trusted peer itself when it sends no X-Forwarded-For', () => {
    assert.equal(clientIpResolver(['127.0.0.1'])(request('127.0.0.1')), '127.0.0.1');
  });

  it('trusts proxies given as CIDR ranges', () => {
    const resolve = clientIpResolver(['10.0.0.0/8']);
    assert.equal(resolve(request('10.1.2.3', { 'x-forwarded-for': '1.1.1.1, 10.9.9.9' })), '1.1.1.1');
  });

  it('recognizes an IPv4 proxy behind an IPv4-mapped IPv6 socket address', () => {
    const resolve = clientIpResolver(['127.0.0.1']);
    assert.equal(resolve(request('::ffff:127.0.0.1', { 'x-forwarded-for': '1.1.1.1' })), '1.1.1.1');
  });

  it('consults no other header', () => {
    const resolve = clientIpResolver(['127.0.0.1']);
    assert.equal(resolve(request('127.0.0.1', { 'x-real-ip': '1.1.1.1', forwarded: 'for=1.1.1.1' })), '127.0.0.1');
  });
});

describe('genReqId', () => {
  it('echoes a well-formed X-Request-ID', () => {
    assert.equal(genReqId(request('127.0.0.1', { 'x-request-id': 'abc-123.def:4_5' })), 'abc-123.def:4_5');
  });

  it('replaces a malformed or oversized X-Request-ID with a generated UUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    assert.match(genReqId(request('127.0.0.1', { 'x-request-id': 'has space\ninjected' })), uuid);
    assert.match(genReqId(request('127.0.0.1', { 'x-request-id': 'a'.repeat(129) })), uuid);
    assert.match(genReqId(request('127.0.0.1')), uuid);
  });

  it('generates a different id for each request without one', () => {
    assert.notEqual(genReqId(request('127.0.0.1')), genReqId(request('127.0.0.1')));
  });
});
