import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { seed, seedOptionsOf } from '../../src/db/seed/seed.js';
import { CONSOLE_CSP } from '../../src/modules/console/console.routes.js';
import { useTestApp } from '../helpers/test-app.js';

// The console is served from console/dist, which `npm run build` (run by `npm ci`) produces.

describe('the console at /console/ (SVC_CONSOLE_ENABLED on)', () => {
  const t = useTestApp({ env: { SVC_CONSOLE_ENABLED: 'true' }, reset: false });
  before(async () => { await seed(t.container.db, seedOptionsOf(t.container.config)); });

  it('serves the page without application credentials, under a strict policy, revalidated on every load', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/console/' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
    assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    // Every script is a file of the origin: no inline script for the policy to refuse.
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0);
    for (const [, attrs, inline] of scripts) {
      assert.match(attrs!, /src="\/console\/assets\/[^"]+\.js"/);
      assert.equal(inline!.trim(), '');
    }
  });

  it('serves the hashed assets the page names, cached for a year', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/console/' })).body;
    const assets = [...page.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), page);
    for (const asset of assets) {
      const res = await t.app.inject({ method: 'GET', url: asset });
      assert.equal(res.statusCode, 200, asset);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', asset);
      assert.match(asset, /-[A-Za-z0-9_-]{8}\.(js|css|svg)$/, 'a content hash in the name');
    }
  });

  it('/console answers the page too, and a file outside the build is not found', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/console' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<div id="root">/);
    for (const url of ['/console/assets/../index.html', '/console/assets/%2e%2e/%2e%2e/package.json', '/console/src/main.tsx']) {
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
  });

  it('config.json names the API prefix and the console application\'s key, never a secret', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/console/config.json' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const app = await t.container.db.selectFrom('applications').select(['access_key', 'kind', 'secret_hash', 'allowed_origins'])
      .where('builtin', '=', 'console').executeTakeFirstOrThrow();
    assert.equal(app.kind, 'public');
    assert.equal(app.secret_hash, null);
    assert.deepEqual(res.json(), { api_prefix: t.container.config.API_PREFIX, access_key: app.access_key, origins: app.allowed_origins,
      oauth: false });
    assert.equal(app.allowed_origins.length, 1);
  });

  it('config.json answers 404 FEATURE_DISABLED once the console application is deactivated', async () => {
    await t.container.db.updateTable('applications').set({ is_active: false }).where('builtin', '=', 'console').execute();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/console/config.json' });
      assert.equal(res.statusCode, 404);
      assert.deepEqual([res.json().code, res.json().details], ['FEATURE_DISABLED', { setting: null, reason: 'console_application_inactive' }]);
    } finally {
      await t.container.db.updateTable('applications').set({ is_active: true }).where('builtin', '=', 'console').execute();
    }
  });
});

describe('the console with SVC_CONSOLE_ENABLED off', () => {
  const t = useTestApp({ env: { SVC_CONSOLE_ENABLED: 'false' }, reset: false });

  it('is not served: 404 FEATURE_DISABLED naming SVC_CONSOLE_ENABLED', async () => {
    for (const url of ['/console/', '/console/config.json', '/console/assets/index.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), { error: 'This feature is not enabled', code: 'FEATURE_DISABLED', details: { setting: 'SVC_CONSOLE_ENABLED' } });
    }
  });
});
