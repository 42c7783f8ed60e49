import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Type } from 'typebox';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { Body } from '../../../src/http/schema.js';
import { useTestApp } from '../../helpers/test-app.js';

const testRoutes: RoutePlugin = async (app) => {
  app.post('/test/thing/', {
    schema: { body: Body({ name: Type.String() }), response: { 200: Type.Object({ name: Type.String() }) } },
  }, async (req) => req.body as { name: string });
};

const OWN_ORIGIN = 'http://localhost:3000'; // allowed by the test application
const OTHER_APP_ORIGIN = 'https://other-app.example'; // allowed only by a second application
const UNKNOWN_ORIGIN = 'https://evil.example';

const preflight = (origin: string, path = 'test/thing/') => ({
  method: 'OPTIONS' as const, path, appAuth: false,
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-access-key' },
});

describe('CORS from each application\'s allowed_origins', () => {
  const t = useTestApp({ apiRoutes: [testRoutes], reset: false });
  let other: { access_key: string; access_secret: string };
  before(async () => {
    const created = await t.container.services.applications.create({ name: 'Other App', allowed_origins: [OTHER_APP_ORIGIN] });
    other = created.credentials;
  });

  it('answers a preflight from an allowed origin with 204 and the allowed origin, credentials, methods and headers', async () => {
    const res = await t.api(preflight(OWN_ORIGIN));
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal(res.headers['access-control-allow-origin'], OWN_ORIGIN);
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.match(String(res.headers.vary), /Origin/);
    const methods = String(res.headers['access-control-allow-methods']).split(/,\s*/);
    for (const m of ['GET', 'POST', 'PATCH', 'DELETE']) assert.ok(methods.includes(m), m);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    for (const h of ['content-type', 'authorization', 'x-access-key', 'x-access-secret', 'x-org-slug', 'x-prompt-trace-id', 'x-action-confirmation']) {
      assert.ok(allowed.includes(h), h);
    }
  });

  it('answers a preflight for any API path, without application credentials', async () => {
    for (const path of ['docs/schema/', 'some/future/route/']) {
      const res = await t.api(preflight(OWN_ORIGIN, path));
      assert.equal(res.statusCode, 204, path);
      assert.equal(res.headers['access-control-allow-origin'], OWN_ORIGIN, path);
    }
  });

  it('gives a preflight from an origin no application allows no allow-origin header', async () => {
    const res = await t.api(preflight(UNKNOWN_ORIGIN));
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
    assert.equal(res.headers['access-control-allow-headers'], undefined);
  });

  it('answers a preflight for an origin some application allows (a preflight carries no credentials)', async () => {
    const res = await t.api(preflight(OTHER_APP_ORIGIN));
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], OTHER_APP_ORIGIN);
  });

  it('still answers a plain OPTIONS request (no preflight headers) with 405 and Allow', async () => {
    const res = await t.api({ method: 'OPTIONS', path: 'test/thing/' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'POST');
    assert.equal(res.json().code, 'METHOD_NOT_ALLOWED');
    const unknown = await t.api({ method: 'OPTIONS', path: 'no-such-route/' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'NOT_FOUND');
  });

  it('adds allow-origin to an actual request from an origin its application allows', async () => {
    const res = await t.api({ method: 'POST', path: 'test/thing/', payload: { name: 'a' }, headers: { origin: OWN_ORIGIN } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], OWN_ORIGIN);
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.match(String(res.headers['access-control-expose-headers']), /X-Request-ID/i);
    assert.match(String(res.headers.vary), /Origin/);
  });

  it('adds allow-origin to error answers too, so the browser can read them', async () => {
    const res = await t.api({ method: 'POST', path: 'test/thing/', payload: {}, headers: { origin: OWN_ORIGIN } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers['access-control-allow-origin'], OWN_ORIGIN);
  });

  it('gives no allow-origin to a request from an origin only another application allows', async () => {
    const res = await t.api({ method: 'POST', path: 'test/thing/', payload: { name: 'a' }, headers: { origin: OTHER_APP_ORIGIN } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
  });

  it('gives allow-origin to that origin when the request carries the other application\'s credentials', async () => {
    const res = await t.api({
      method: 'POST', path: 'test/thing/', payload: { name: 'a' }, appAuth: false,
      headers: { origin: OTHER_APP_ORIGIN, 'x-access-key': other.access_key, 'x-access-secret': other.access_secret },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], OTHER_APP_ORIGIN);
    const own = await t.api({
      method: 'POST', path: 'test/thing/', payload: { name: 'a' }, appAuth: false,
      headers: { origin: OWN_ORIGIN, 'x-access-key': other.access_key, 'x-access-secret': other.access_secret },
    });
    assert.equal(own.headers['access-control-allow-origin'], undefined);
  });

  it('gives no allow-origin to an origin no application allows', async () => {
    const res = await t.api({ method: 'POST', path: 'test/thing/', payload: { name: 'a' }, headers: { origin: UNKNOWN_ORIGIN } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  it('matches origins exactly (scheme, host and port)', async () => {
    for (const origin of ['https://localhost:3000', 'http://localhost:3001', 'http://localhost:3000.evil.example', 'http://localhost']) {
      const res = await t.api({ method: 'POST', path: 'test/thing/', payload: { name: 'a' }, headers: { origin } });
      assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
      const pre = await t.api(preflight(origin));
      assert.equal(pre.headers['access-control-allow-origin'], undefined, origin);
    }
  });

  it('adds no CORS headers to a request without Origin', async () => {
    const res = await t.api({ method: 'POST', path: 'test/thing/', payload: { name: 'a' } });
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });
});
