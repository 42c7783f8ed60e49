import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';

const Ok = Type.Object({ ok: Type.Boolean() });
const limitedRoutes: RoutePlugin = async (app, { guards }) => {
  const ok = async () => ({ ok: true });
  app.get('/test/three-per-minute/', { schema: { response: { 200: Ok } }, onRequest: guards.rateLimit('test-three', [{ max: 3, per: 'minute' }]) }, ok);
  app.get('/test/one-per-minute/', { schema: { response: { 200: Ok } }, onRequest: guards.rateLimit('test-one', [{ max: 1, per: 'minute' }]) }, ok);
  app.get('/test/two-windows/', {
    schema: { response: { 200: Ok } },
    onRequest: guards.rateLimit('test-two-windows', [{ max: 2, per: 'minute' }, { max: 1, per: 'hour' }]),
  }, ok);
  // Two routes naming one limit (as refresh/ and its root alias do) count together.
  for (const path of ['/test/shared-a/', '/test/shared-b/']) {
    app.get(path, { schema: { response: { 200: Ok } }, onRequest: guards.rateLimit('test-shared', [{ max: 2, per: 'minute' }]) }, ok);
  }
};

const OUTSIDE_DEBUG = { SVC_DEBUG: 'false', SVC_RATE_LIMITING_ENABLED: 'true', SVC_TRUSTED_PROXIES: '127.0.0.1' };

/** Each test uses its own client addresses (through the trusted proxy), so counters never leak between tests. */
const get = (t: TestApp, path: string, ip: string) =>
  t.api({ method: 'GET', path, headers: { 'x-forwarded-for': ip } });

async function statuses(t: TestApp, path: string, ip: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await get(t, path, ip)).statusCode);
  return out;
}

function assertThrottled(res: LightMyRequestResponse, maxRetryAfter: number) {
  assert.equal(res.statusCode, 429);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'retry_after']);
  assert.equal(body.code, 'RATE_LIMITED');
  assert.equal(body.error, 'Too many requests, try again later');
  assert.ok(Number.isInteger(body.retry_after), `retry_after ${body.retry_after} is an integer`);
  assert.ok(body.retry_after >= 1 && body.retry_after <= maxRetryAfter, `retry_after ${body.retry_after} in [1, ${maxRetryAfter}]`);
  assert.equal(res.headers['retry-after'], String(body.retry_after));
  return body.retry_after as number;
}

// The apps of the describes below share one database; holding it here avoids reopening it for each.

describe('rate limits outside debug', () => {
  const t = useTestApp({ apiRoutes: [limitedRoutes], env: OUTSIDE_DEBUG, reset: false });

  it('answers N times, then 429 RATE_LIMITED with retry_after and Retry-After', async () => {
    assert.deepEqual(await statuses(t, 'test/three-per-minute/', '198.51.100.1', 3), [200, 200, 200]);
    const res = await get(t, 'test/three-per-minute/', '198.51.100.1');
    assertThrottled(res, 60);
    assert.equal(res.headers['cache-control'], 'no-store');
    assertThrottled(await get(t, 'test/three-per-minute/', '198.51.100.1'), 60);
  });

  it('counts every window of a route: with 2/min and 1/hour the hour window trips first', async () => {
    assert.equal((await get(t, 'test/two-windows/', '198.51.100.2')).statusCode, 200);
    const retryAfter = assertThrottled(await get(t, 'test/two-windows/', '198.51.100.2'), 3600);
    assert.ok(retryAfter > 60, `retry_after ${retryAfter} comes from the hour window`);
  });

  it('keeps separate counters per client IP', async () => {
    assert.deepEqual(await statuses(t, 'test/one-per-minute/', '198.51.100.3', 2), [200, 429]);
    assert.deepEqual(await statuses(t, 'test/one-per-minute/', '198.51.100.4', 2), [200, 429]);
    assert.equal((await get(t, 'test/one-per-minute/', '198.51.100.3')).statusCode, 429);
  });

  it('keys on the right-most untrusted X-Forwarded-For entry, so a spoofed left entry does not reset the counter', async () => {
    assert.equal((await get(t, 'test/one-per-minute/', '203.0.113.50, 198.51.100.5')).statusCode, 200);
    assert.equal((await get(t, 'test/one-per-minute/', '203.0.113.51, 198.51.100.5')).statusCode, 429);
  });

  // docs/security.md "Rate limits": one client is routinely given a whole /64, and would otherwise step through it.
  it('counts an IPv6 client by its /64: two addresses of one /64 share the limit, another /64 has its own', async () => {
    assert.equal((await get(t, 'test/one-per-minute/', '2001:db8:60:1::1')).statusCode, 200);
    assertThrottled(await get(t, 'test/one-per-minute/', '2001:db8:60:1:ffff:ffff:ffff:fffe'), 60);
    assertThrottled(await get(t, 'test/one-per-minute/', '2001:0db8:0060:0001:0:0:0:9'), 60);
    assert.equal((await get(t, 'test/one-per-minute/', '2001:db8:60:2::1')).statusCode, 200);
    assert.equal((await get(t, 'test/one-per-minute/', '2001:db8:61:1::1')).statusCode, 200);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, and IPv4 addresses one by one', async () => {
    assert.equal((await get(t, 'test/one-per-minute/', '::ffff:198.51.100.80')).statusCode, 200);
    assertThrottled(await get(t, 'test/one-per-minute/', '198.51.100.80'), 60);
    assert.equal((await get(t, 'test/one-per-minute/', '198.51.100.81')).statusCode, 200);
  });

  it('keeps separate counters per route', async () => {
    assert.deepEqual(await statuses(t, 'test/one-per-minute/', '198.51.100.6', 2), [200, 429]);
    assert.equal((await get(t, 'test/three-per-minute/', '198.51.100.6')).statusCode, 200);
  });

  it('counts routes that name the same limit in one counter, without Redis too', async () => {
    assert.deepEqual(await statuses(t, 'test/shared-a/', '198.51.100.9', 2), [200, 200]);
    assert.equal((await get(t, 'test/shared-b/', '198.51.100.9')).statusCode, 429);
  });

  it('does not count requests refused for missing application credentials', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.api({ method: 'GET', path: 'test/one-per-minute/', appAuth: false, headers: { 'x-forwarded-for': '198.51.100.7' } });
      assert.equal(res.statusCode, 401);
    }
    assert.equal((await get(t, 'test/one-per-minute/', '198.51.100.7')).statusCode, 200);
  });
});

describe('rate limits without trusted proxies', () => {
  const t = useTestApp({ apiRoutes: [limitedRoutes], env: { ...OUTSIDE_DEBUG, SVC_TRUSTED_PROXIES: '' }, reset: false });

  it('keys on the socket peer, so a made-up X-Forwarded-For does not escape the limit', async () => {
    const peer = '192.0.2.60';
    const at = (xff: string) => t.api({ method: 'GET', path: 'test/one-per-minute/', remoteAddress: peer, headers: { 'x-forwarded-for': xff } });
    assert.equal((await at('198.51.100.61')).statusCode, 200);
    assertThrottled(await at('198.51.100.62'), 60);
    assertThrottled(await at('198.51.100.63'), 60);
    const otherPeer = await t.api({ method: 'GET', path: 'test/one-per-minute/', remoteAddress: '192.0.2.61' });
    assert.equal(otherPeer.statusCode, 200);
  });

  it('keys an IPv6 peer on its /64', async () => {
    const from = (remoteAddress: string) => t.api({ method: 'GET', path: 'test/one-per-minute/', remoteAddress });
    assert.equal((await from('2001:db8:62:1::10')).statusCode, 200);
    assertThrottled(await from('2001:db8:62:1:8000::20'), 60);
    assert.equal((await from('2001:db8:62:2::10')).statusCode, 200);
    // What a dual-stack socket reports for an IPv4 client: counted as that IPv4 address.
    assert.equal((await from('::ffff:192.0.2.70')).statusCode, 200);
    assertThrottled(await from('192.0.2.70'), 60);
  });
});

describe('rate limits in debug mode', () => {
  const t = useTestApp({ apiRoutes: [limitedRoutes], env: { ...OUTSIDE_DEBUG, SVC_DEBUG: 'true' }, reset: false });

  it('multiplies every limit by 10', async () => {
    assert.deepEqual(await statuses(t, 'test/one-per-minute/', '198.51.100.20', 10), Array(10).fill(200));
    assertThrottled(await get(t, 'test/one-per-minute/', '198.51.100.20'), 60);
  });
});

describe('rate limiting switched off (SVC_RATE_LIMITING_ENABLED=false)', () => {
  const t = useTestApp({ apiRoutes: [limitedRoutes], env: { ...OUTSIDE_DEBUG, SVC_RATE_LIMITING_ENABLED: 'false' }, reset: false });

  it('never answers 429', async () => {
    assert.deepEqual(await statuses(t, 'test/one-per-minute/', '198.51.100.30', 5), Array(5).fill(200));
    assert.deepEqual(await statuses(t, 'test/two-windows/', '198.51.100.30', 5), Array(5).fill(200));
  });
});

describe('rate-limit counters shared through Redis', { skip: process.env.TEST_REDIS_URL ? false : 'needs TEST_REDIS_URL (a running Redis)' }, () => {
  const env = { ...OUTSIDE_DEBUG, SVC_REDIS_KEY_PREFIX: `test:${process.pid}:shared:${randomBytes(4).toString('hex')}:` };
  const a = useTestApp({ apiRoutes: [limitedRoutes], env, reset: false });
  const b = useTestApp({ apiRoutes: [limitedRoutes], env, reset: false });

  it('counts requests to two instances with the same key prefix in one counter', async () => {
    assert.equal((await get(a, 'test/three-per-minute/', '198.51.100.40')).statusCode, 200);
    assert.equal((await get(b, 'test/three-per-minute/', '198.51.100.40')).statusCode, 200);
    assert.equal((await get(a, 'test/three-per-minute/', '198.51.100.40')).statusCode, 200);
    assertThrottled(await get(b, 'test/three-per-minute/', '198.51.100.40'), 60);
    assertThrottled(await get(a, 'test/three-per-minute/', '198.51.100.40'), 60);
  });

  it('counts the addresses of one IPv6 /64 in one counter across instances', async () => {
    assert.equal((await get(a, 'test/three-per-minute/', '2001:db8:63:1::1')).statusCode, 200);
    assert.equal((await get(b, 'test/three-per-minute/', '2001:db8:63:1::2')).statusCode, 200);
    assert.equal((await get(a, 'test/three-per-minute/', '2001:db8:63:1:a::3')).statusCode, 200);
    assertThrottled(await get(b, 'test/three-per-minute/', '2001:db8:63:1:b::4'), 60);
    assert.equal((await get(b, 'test/three-per-minute/', '2001:db8:63:2::1')).statusCode, 200);
  });
});

describe('rate limits with an unreachable Redis', () => {
  const t = useTestApp({ apiRoutes: [limitedRoutes], env: { ...OUTSIDE_DEBUG, SVC_REDIS_URL: 'redis://127.0.0.1:1' }, reset: false });

  it('falls back to counting in PostgreSQL (in memory on the embedded database): still limits and never answers 500', async () => {
    assert.deepEqual(await statuses(t, 'test/three-per-minute/', '198.51.100.50', 5), [200, 200, 200, 429, 429]);
    assertThrottled(await get(t, 'test/three-per-minute/', '198.51.100.50'), 60);
    assert.deepEqual(await statuses(t, 'test/two-windows/', '198.51.100.50', 2), [200, 429]);
  });
});
