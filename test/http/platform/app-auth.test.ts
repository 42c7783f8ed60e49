import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';

/** A route that needs the application's credentials and nothing else. */
const PROBE = 'password/requirements/';

describe('application authentication', () => {
  const t = useTestApp();

  it('answers 401 APP_AUTH_REQUIRED without the headers', async () => {
    const res = await t.api({ method: 'GET', path: PROBE, appAuth: false });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { error: 'Application credentials are required (X-Access-Key, X-Access-Secret)', code: 'APP_AUTH_REQUIRED' });
  });

  it('answers 401 APP_AUTH_REQUIRED when only one header is present', async () => {
    const res = await t.api({ method: 'GET', path: PROBE, appAuth: false, headers: { 'x-access-key': t.credentials.access_key } });
    assert.equal(res.json().code, 'APP_AUTH_REQUIRED');
  });

  it('answers 401 APP_AUTH_INVALID for a wrong secret and for an unknown key, with identical bodies', async () => {
    const wrongSecret = await t.api({ method: 'GET', path: PROBE, appAuth: false,
      headers: { 'x-access-key': t.credentials.access_key, 'x-access-secret': 'nope' } });
    const unknownKey = await t.api({ method: 'GET', path: PROBE, appAuth: false,
      headers: { 'x-access-key': 'f'.repeat(64), 'x-access-secret': t.credentials.access_secret } });
    assert.equal(wrongSecret.statusCode, 401);
    assert.equal(wrongSecret.json().code, 'APP_AUTH_INVALID');
    assert.equal(unknownKey.body, wrongSecret.body);
  });

  it('accepts valid credentials', async () => {
    const res = await t.api({ method: 'GET', path: PROBE });
    assert.equal(res.statusCode, 200);
    assert.equal(typeof res.json().min_length, 'number');
  });

  it('refuses an inactive application', async () => {
    await t.container.db.updateTable('applications').set({ is_active: false }).where('id', '=', t.credentials.id).execute();
    t.container.services.applications.invalidate();
    const res = await t.api({ method: 'GET', path: PROBE });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'APP_AUTH_INVALID');
  });
});
