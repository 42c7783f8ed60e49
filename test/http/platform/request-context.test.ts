import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { useTestApp } from '../../helpers/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const whoAmI: RoutePlugin = async (app) => {
  app.get('/test/client-ip/', { schema: { response: { 200: Type.Object({ ip: Type.String() }) } } },
    async (req) => ({ ip: req.clientIp }));
};

// The apps of the describes below share one database; holding it here avoids reopening it for each.

describe('request id', () => {
  const t = useTestApp({ apiRoutes: [whoAmI], reset: false });

  it('echoes a well-formed X-Request-ID', async () => {
    for (const id of ['abc-123', 'trace.01:span_02', 'A'.repeat(128)]) {
      const res = await t.api({ method: 'GET', path: 'test/client-ip/', headers: { 'x-request-id': id } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-request-id'], id);
    }
  });

  it('generates a UUID when the header is absent', async () => {
    const first = await t.api({ method: 'GET', path: 'test/client-ip/' });
    const second = await t.api({ method: 'GET', path: 'test/client-ip/' });
    assert.match(String(first.headers['x-request-id']), UUID);
    assert.match(String(second.headers['x-request-id']), UUID);
    assert.notEqual(first.headers['x-request-id'], second.headers['x-request-id']);
  });

  it('replaces a malformed or too long X-Request-ID with a generated UUID', async () => {
    for (const id of ['has spaces', '<script>alert(1)</script>', 'line\tbreak', 'ü-nicode', 'A'.repeat(129), '']) {
      const res = await t.api({ method: 'GET', path: 'test/client-ip/', headers: { 'x-request-id': id } });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['x-request-id']), UUID, JSON.stringify(id));
    }
  });

  it('sends the request id on errors, on unknown routes and on root routes', async () => {
    const denied = await t.api({ method: 'GET', path: 'test/client-ip/', appAuth: false, headers: { 'x-request-id': 'req-401' } });
    assert.equal(denied.statusCode, 401);
    assert.equal(denied.headers['x-request-id'], 'req-401');
    const unknown = await t.api({ method: 'GET', path: 'nowhere/', headers: { 'x-request-id': 'req-404' } });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.headers['x-request-id'], 'req-404');
    const live = await t.app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'req-live' } });
    assert.equal(live.headers['x-request-id'], 'req-live');
  });
});

describe('client IP without trusted proxies', () => {
  const t = useTestApp({ apiRoutes: [whoAmI], reset: false });

  it('is the socket peer, and X-Forwarded-For and X-Real-IP are ignored', async () => {
    const res = await t.api({
      method: 'GET', path: 'test/client-ip/', remoteAddress: '192.0.2.10',
      headers: { 'x-forwarded-for': '203.0.113.5', 'x-real-ip': '203.0.113.6', forwarded: 'for=203.0.113.7' },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ip: '192.0.2.10' });
  });

  it('ignores X-Forwarded-For even from loopback', async () => {
    const res = await t.api({ method: 'GET', path: 'test/client-ip/', headers: { 'x-forwarded-for': '203.0.113.5' } });
    assert.deepEqual(res.json(), { ip: '127.0.0.1' });
  });
});

describe('client IP behind trusted proxies', () => {
  const t = useTestApp({ apiRoutes: [whoAmI], env: { SVC_TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/8' }, reset: false });

  const ipFor = async (headers: Record<string, string>, remoteAddress = '127.0.0.1') => {
    const res = await t.api({ method: 'GET', path: 'test/client-ip/', remoteAddress, headers });
    assert.equal(res.statusCode, 200);
    return res.json().ip as string;
  };

  it('takes the right-most X-Forwarded-For entry when the peer is a trusted proxy', async () => {
    assert.equal(await ipFor({ 'x-forwarded-for': '198.51.100.1, 203.0.113.5' }), '203.0.113.5');
  });

  it('skips trusted proxies (addresses and CIDR ranges) from the right', async () => {
    assert.equal(await ipFor({ 'x-forwarded-for': '198.51.100.1, 203.0.113.5, 10.1.2.3, 127.0.0.1' }), '203.0.113.5');
    assert.equal(await ipFor({ 'x-forwarded-for': '203.0.113.9' }, '10.20.30.40'), '203.0.113.9');
  });

  it('does not let a client spoof its address by prepending entries', async () => {
    // A client sends "X-Forwarded-For: 1.2.3.4"; the proxy appends the real peer. The right-most untrusted wins.
    assert.equal(await ipFor({ 'x-forwarded-for': '1.2.3.4, 198.51.100.77' }), '198.51.100.77');
  });

  it('is the socket peer when the peer is not a trusted proxy', async () => {
    assert.equal(await ipFor({ 'x-forwarded-for': '203.0.113.5' }, '192.0.2.10'), '192.0.2.10');
  });

  it('is the trusted peer itself when there is no X-Forwarded-For', async () => {
    assert.equal(await ipFor({}), '127.0.0.1');
  });

  it('trusts no header other than X-Forwarded-For', async () => {
    assert.equal(await ipFor({ 'x-real-ip': '203.0.113.6', forwarded: 'for=203.0.113.7', 'true-client-ip': '203.0.113.8' }), '127.0.0.1');
  });
});
