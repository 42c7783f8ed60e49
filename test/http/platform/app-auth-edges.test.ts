import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import type { RoutePlugin } from '../../../src/http/route-plugin.js';
import { Body } from '../../../src/http/schema.js';
import { useTestApp } from '../../helpers/test-app.js';

const Ok = Type.Object({ ok: Type.Boolean() });
const testRoutes: RoutePlugin = async (app) => {
  app.post('/test/strict/', {
    schema: { body: Body({ name: Type.String({ minLength: 1 }) }), response: { 200: Ok } },
  }, async () => ({ ok: true }));
  app.get('/test/public/', { config: { appAuth: false }, schema: { response: { 200: Ok } } }, async () => ({ ok: true }));
  app.get('/test/private/', { schema: { response: { 200: Ok } } }, async () => ({ ok: true }));
};

const REQUIRED = { error: 'Application credentials are required (X-Access-Key, X-Access-Secret)', code: 'APP_AUTH_REQUIRED' };
const INVALID = { error: 'Invalid application credentials', code: 'APP_AUTH_INVALID' };

// The apps of the describes below share one database; holding it here avoids reopening it for each.

describe('application authentication on', () => {
  const t = useTestApp({ apiRoutes: [testRoutes], reset: false });

  it('lets routes marked appAuth: false answer without headers, and no others', async () => {
    const open = await t.api({ method: 'GET', path: 'test/public/', appAuth: false });
    assert.equal(open.statusCode, 200);
    assert.deepEqual(open.json(), { ok: true });
    const closed = await t.api({ method: 'GET', path: 'test/private/', appAuth: false });
    assert.equal(closed.statusCode, 401);
    assert.deepEqual(closed.json(), REQUIRED);
  });

  it('serves the docs viewer pages and the schema without headers', async () => {
    for (const path of ['docs/', 'docs/redoc/', 'docs/redoc/init.js', 'docs/schema/', 'docs/json', 'docs/yaml']) {
      const res = await t.api({ method: 'GET', path, appAuth: false });
      assert.equal(res.statusCode, 200, path);
    }
  });

  it('checks credentials before validating the body: a bad body without them answers 401, not 400', async () => {
    const bad = await t.api({ method: 'POST', path: 'test/strict/', appAuth: false, payload: { name: 42, extra: true } });
    assert.equal(bad.statusCode, 401);
    assert.deepEqual(bad.json(), REQUIRED);
    const wrong = await t.api({
      method: 'POST', path: 'test/strict/', appAuth: false, payload: { extra: true },
      headers: { 'x-access-key': t.credentials.access_key, 'x-access-secret': 'wrong' },
    });
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), INVALID);
    const withCredentials = await t.api({ method: 'POST', path: 'test/strict/', payload: { name: 42 } });
    assert.equal(withCredentials.statusCode, 400);
  });

  it('checks credentials before reading the body: malformed JSON, a wrong content type or an oversize body answer 401', async () => {
    const cases = [
      { payload: '{"name":', headers: { 'content-type': 'application/json' } },
      { payload: 'name=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { payload: JSON.stringify({ name: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } },
    ];
    for (const c of cases) {
      const res = await t.api({ method: 'POST', path: 'test/strict/', appAuth: false, ...c });
      assert.equal(res.statusCode, 401, c.headers['content-type']);
      assert.deepEqual(res.json(), REQUIRED);
    }
  });

  it('treats empty header values as missing', async () => {
    const res = await t.api({ method: 'GET', path: 'test/private/', appAuth: false, headers: { 'x-access-key': '', 'x-access-secret': '' } });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), REQUIRED);
  });

  it('answers APP_AUTH_INVALID for an oversized key or secret', async () => {
    const res = await t.api({
      method: 'GET', path: 'test/private/', appAuth: false,
      headers: { 'x-access-key': 'k'.repeat(10_000), 'x-access-secret': t.credentials.access_secret },
    });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), INVALID);
  });
});

describe('application authentication switched off (SVC_APPLICATION_AUTH_ENABLED=false, debug)', () => {
  const t = useTestApp({ apiRoutes: [testRoutes], env: { SVC_APPLICATION_AUTH_ENABLED: 'false' }, reset: false });

  it('lets API requests through without headers', async () => {
    const route = await t.api({ method: 'GET', path: 'test/private/', appAuth: false });
    assert.equal(route.statusCode, 200);
    assert.deepEqual(route.json(), { ok: true });
  });

  it('does not check headers that are present', async () => {
    const res = await t.api({
      method: 'GET', path: 'test/private/', appAuth: false, headers: { 'x-access-key': 'unknown', 'x-access-secret': 'wrong' },
    });
    assert.equal(res.statusCode, 200);
  });

  it('still validates bodies', async () => {
    const res = await t.api({ method: 'POST', path: 'test/strict/', appAuth: false, payload: {} });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'Validation error', code: 'VALIDATION_ERROR', details: { name: ['This field is required.'] } });
  });

  it('documents no application credentials requirement in the OpenAPI schema', async () => {
    const res = await t.api({ method: 'GET', path: 'docs/schema/', appAuth: false });
    assert.deepEqual(res.json().security ?? [], []);
  });
});
