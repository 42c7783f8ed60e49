import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import type { Env } from '../../../src/config/load.js';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { Body } from '../../../src/http/schema.js';
import { useTestApp } from '../../helpers/test-app.js';

const testRoutes: RoutePlugin = async (app) => {
  app.post('/test/thing/', {
    schema: { body: Body({ name: Type.String() }), response: { 200: Type.Object({ name: Type.String() }) } },
  }, async (req) => req.body as { name: string });
  app.get('/test/crash/', async () => { throw new Error('boom'); });
};

const SECURITY_HEADERS = ['strict-transport-security', 'x-content-type-options', 'x-frame-options', 'content-security-policy'];

function assertSecurityHeaders(res: LightMyRequestResponse) {
  assert.match(String(res.headers['strict-transport-security']), /^max-age=\d+/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.match(String(res.headers['x-frame-options']), /^(DENY|SAMEORIGIN)$/);
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /(^|;)\s*default-src 'none'/);
  assert.match(csp, /frame-ancestors 'none'/);
}

function assertNoSecurityHeaders(res: LightMyRequestResponse) {
  for (const h of SECURITY_HEADERS) assert.equal(res.headers[h], undefined, h);
}

// The apps of the describes below share one database; holding it here avoids reopening it for each.

describe('Cache-Control on API responses', () => {
  const t = useTestApp({ apiRoutes: [testRoutes], reset: false });

  it('is no-store on a success', async () => {
    const res = await t.api({ method: 'POST', path: 'test/thing/', payload: { name: 'a' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  it('is no-store on every kind of error', async () => {
    const responses = [
      await t.api({ method: 'POST', path: 'test/thing/', payload: {} }),
      await t.api({ method: 'POST', path: 'test/thing/', appAuth: false, payload: { name: 'a' } }),
      await t.api({ method: 'POST', path: 'test/thing/', payload: 'x', headers: { 'content-type': 'text/plain' } }),
      await t.api({ method: 'GET', path: 'test/thing/' }),
      await t.api({ method: 'GET', path: 'no-such-route/' }),
      await t.api({ method: 'GET', path: 'test/crash/' }),
    ];
    assert.deepEqual(responses.map((r) => r.statusCode), [400, 401, 415, 405, 404, 500]);
    for (const res of responses) assert.equal(res.headers['cache-control'], 'no-store', String(res.statusCode));
  });
});

const presets: { name: string; env: Env; on: boolean }[] = [
  { name: 'medium preset', env: { SVC_SHORTCUT_SECURE_MODE: 'medium' }, on: true },
  { name: 'robust preset', env: { SVC_SHORTCUT_SECURE_MODE: 'robust' }, on: true },
  { name: 'development preset', env: { SVC_SHORTCUT_SECURE_MODE: 'development' }, on: false },
  { name: 'development preset with SVC_SECURITY_HEADERS_ENABLED=true',
    env: { SVC_SHORTCUT_SECURE_MODE: 'development', SVC_SECURITY_HEADERS_ENABLED: 'true' }, on: true },
  { name: 'medium preset with SVC_SECURITY_HEADERS_ENABLED=false',
    env: { SVC_SHORTCUT_SECURE_MODE: 'medium', SVC_SECURITY_HEADERS_ENABLED: 'false' }, on: false },
];

for (const preset of presets) {
  describe(`security headers with the ${preset.name}`, () => {
    const t = useTestApp({ apiRoutes: [testRoutes], env: preset.env, reset: false });

    it(preset.on ? 'sends HSTS, nosniff, frame and CSP headers on successes and errors' : 'sends none of them', async () => {
      const ok = await t.api({ method: 'POST', path: 'test/thing/', payload: { name: 'a' } });
      const invalid = await t.api({ method: 'POST', path: 'test/thing/', payload: {} });
      const unknown = await t.api({ method: 'GET', path: 'no-such-route/' });
      assert.deepEqual([ok.statusCode, invalid.statusCode, unknown.statusCode], [200, 400, 404]);
      for (const res of [ok, invalid, unknown]) {
        if (preset.on) assertSecurityHeaders(res);
        else assertNoSecurityHeaders(res);
      }
    });
  });
}
