import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { SDK_HEADERS } from './sdk-request.js';

const ORIGIN = 'http://localhost:3000'; // allowed by the test application
/** Every header the SDK may add to a request, as a browser lists them in a preflight. */
const SDK_REQUEST_HEADERS = ['content-type', 'authorization', 'x-access-key', 'x-access-secret', 'x-org-slug', 'x-prompt-trace-id',
  'x-action-confirmation'];

const listOf = (value: unknown) => String(value ?? '').toLowerCase().split(/,\s*/).filter(Boolean);

/** SDK compatibility (docs/migrating-from-tenxyte.md): CORS allows the SDK's request headers and exposes `Retry-After`. */
describe('SDK compatibility: CORS', () => {
  const t = useTestApp();

  const preflight = (origin: string, method: string, path: string) => t.api({ method: 'OPTIONS', path, appAuth: false, headers: {
    origin, 'access-control-request-method': method, 'access-control-request-headers': SDK_REQUEST_HEADERS.join(','),
  } });

  it('answers a preflight for the SDK\'s headers on its routes with each of them allowed', async () => {
    for (const [method, path] of [['GET', 'organizations/acme/members/'], ['POST', 'admin/refresh-tokens/1/revoke/'],
      ['DELETE', 'roles/1/permissions/']]) {
      const res = await preflight(ORIGIN, method!, path!);
      assert.equal(res.statusCode, 204, path);
      assert.equal(res.headers['access-control-allow-origin'], ORIGIN, path);
      assert.ok(listOf(res.headers['access-control-allow-methods']).includes(method!.toLowerCase()), path);
      const allowed = listOf(res.headers['access-control-allow-headers']);
      for (const header of SDK_REQUEST_HEADERS) assert.ok(allowed.includes(header), `${header} allowed on ${path}`);
    }
  });

  it('exposes Retry-After, so the SDK can read it from a 423 in a browser', async () => {
    const user = await createUser(t, { locked_until: new Date(t.clock.now().getTime() + 60_000) });
    const res = await t.api({ method: 'POST', path: 'login/email/', headers: { ...SDK_HEADERS, origin: ORIGIN },
      payload: { email: user.email, password: user.password } });
    assert.equal(res.statusCode, 423, res.body);
    assert.equal(res.headers['access-control-allow-origin'], ORIGIN);
    const exposed = res.headers['access-control-expose-headers'];
    assert.ok(listOf(exposed).includes('retry-after'), String(exposed));
    assert.equal(res.headers['retry-after'], '60');
  });

  it('allows nothing to an origin no application allows', async () => {
    const res = await preflight('https://evil.example', 'GET', 'roles/');
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.headers['access-control-allow-headers'], undefined);
  });
});
