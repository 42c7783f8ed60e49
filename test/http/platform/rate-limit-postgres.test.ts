import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

// docs/deployment.md "Several instances": without Redis, or while it fails, rate limits count in PostgreSQL, so instances
// sharing the database share the counts. Two apps on one database stand for two instances.

const skip = process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL: the embedded database is held by one process';
const Ok = Type.Object({ ok: Type.Boolean() });
const limitedRoutes: RoutePlugin = async (app, { guards }) => {
  app.get('/test/three-per-minute/', { schema: { response: { 200: Ok } }, onRequest: guards.rateLimit('pg-three', [{ max: 3, per: 'minute' }]) },
    async () => ({ ok: true }));
};
const env = (extra: Record<string, string> = {}) => ({ SVC_DEBUG: 'false', SVC_RATE_LIMITING_ENABLED: 'true', SVC_TRUSTED_PROXIES: '127.0.0.1',
  SVC_REDIS_KEY_PREFIX: `test:${process.pid}:pg:${randomBytes(4).toString('hex')}:`, ...extra });
const get = (t: TestApp, ip: string) => t.api({ method: 'GET', path: 'test/three-per-minute/', headers: { 'x-forwarded-for': ip } });
const statuses = async (apps: TestApp[], ip: string) => {
  const out: number[] = [];
  for (const t of apps) out.push((await get(t, ip)).statusCode);
  return out;
};

for (const variant of [
  { name: 'without Redis', redis: null },
  // A port where nothing listens: every Redis command fails at once, as during an outage.
  { name: 'while Redis is unreachable', redis: 'redis://127.0.0.1:1' },
]) {
  describe(`rate-limit counters in PostgreSQL, ${variant.name}`, { skip }, () => {
    let a: TestApp;
    let b: TestApp;
    const shared = env();
    before(async () => {
      const settings = variant.redis ? { ...shared, SVC_REDIS_URL: variant.redis } : shared;
      // TEST_REDIS_URL, when set, would give the apps a working Redis: the variant's value (or none) replaces it.
      const saved = process.env.TEST_REDIS_URL;
      delete process.env.TEST_REDIS_URL;
      try {
        a = await createTestApp({ apiRoutes: [limitedRoutes], env: settings });
        b = await createTestApp({ apiRoutes: [limitedRoutes], env: settings });
      } finally {
        if (saved !== undefined) process.env.TEST_REDIS_URL = saved;
      }
    });
    after(async () => {
      await a.close();
      await b.close();
    });

    it('two instances count one client in one counter: the fourth request overall is refused', async () => {
      assert.deepEqual(await statuses([a, b, a, b, a], '203.0.113.10'), [200, 200, 200, 429, 429]);
      assert.deepEqual(await statuses([b], '203.0.113.11'), [200], 'another client has its own counter');
      const rows = await a.container.db.selectFrom('rate_limit_counters').select(['key', 'count'])
        .where('key', '=', `${shared.SVC_REDIS_KEY_PREFIX}rl:pg-three:60000:203.0.113.10`).execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.count, 5);
    });

    it('counts an IPv6 client by its /64, under the same key as Redis and memory', async () => {
      assert.deepEqual(await Promise.all(['2001:db8:70:1::1', '2001:db8:70:1::2', '2001:db8:70:1:ffff::3', '2001:db8:70:1::4']
        .map(async (ip, i) => (await get(i % 2 ? b : a, ip)).statusCode)).then((s) => s.sort()), [200, 200, 200, 429]);
      assert.deepEqual(await statuses([b], '2001:db8:70:2::1'), [200], 'another /64 has its own counter');
      const rows = await a.container.db.selectFrom('rate_limit_counters').select(['key', 'count'])
        .where('key', 'like', `${shared.SVC_REDIS_KEY_PREFIX}rl:pg-three:60000:2001:db8:70:%`).orderBy('key').execute();
      assert.deepEqual(rows, [{ key: `${shared.SVC_REDIS_KEY_PREFIX}rl:pg-three:60000:2001:db8:70:1::/64`, count: 4 },
        { key: `${shared.SVC_REDIS_KEY_PREFIX}rl:pg-three:60000:2001:db8:70:2::/64`, count: 1 }]);
    });

    it('concurrent requests lose no count: 20 at once over both instances, exactly 3 admitted', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => get(i % 2 ? a : b, '203.0.113.20')));
      assert.equal(answers.filter((r) => r.statusCode === 200).length, 3);
      assert.equal(answers.filter((r) => r.statusCode === 429).length, 17);
    });

    it('a window that has ended starts again at one', async () => {
      assert.deepEqual(await statuses([a, a, a, a], '203.0.113.30'), [200, 200, 200, 429]);
      a.clock.advance(61);
      assert.deepEqual(await statuses([a], '203.0.113.30'), [200]);
    });
  });
}
