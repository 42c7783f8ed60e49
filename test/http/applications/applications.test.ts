import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { sha256Hex } from '../../../src/security/random.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus, NOT_FOUND, permissionDenied } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const APP_AUTH_INVALID = { error: 'Invalid application credentials', code: 'APP_AUTH_INVALID' };
const WARNING = 'Save the access_secret now: it is never shown again.';

describe('applications/', () => {
  const t = useTestApp({ now: NOW, env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let root: Account;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
  });

  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const api = (method: Method, path: string, payload?: object, token = root.token) => t.api({ method, path, token, payload });
  const create = async (payload: object) => expectStatus(await api('POST', 'applications/', payload), 201);
  /** An API request made with another application's credentials (no bearer: password/requirements/ needs only the application). */
  const callAs = (credentials: { access_key: string; access_secret: string }) => t.api({
    method: 'GET', path: 'password/requirements/', appAuth: false,
    headers: { 'x-access-key': credentials.access_key, 'x-access-secret': credentials.access_secret },
  });

  describe('POST applications/', () => {
    it('answers 201 {message, application, credentials{access_key, access_secret}, warning}; the credentials work at once', async () => {
      const body = await create({ name: 'Billing portal', description: 'Invoices', redirect_uris: ['https://billing.example.com/callback'],
        allowed_origins: ['https://billing.example.com'] });
      assert.deepEqual(Object.keys(body).sort(), ['application', 'client_id', 'client_secret', 'credentials', 'id', 'message', 'warning']);
      assert.equal(body.message, 'Application created');
      assert.equal(body.warning, WARNING);
      assert.match(body.credentials.access_key, /^[0-9a-f]{64}$/);
      assert.match(body.credentials.access_secret, /^[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(body.application, {
        id: body.application.id, name: 'Billing portal', description: 'Invoices', kind: 'confidential', access_key: body.credentials.access_key,
        is_active: true, redirect_uris: ['https://billing.example.com/callback'], post_logout_redirect_uris: [],
        allowed_origins: ['https://billing.example.com'], created_by: root.id, created_at: NOW.toISOString(), updated_at: NOW.toISOString(),
      });
      assert.equal((await callAs(body.credentials)).statusCode, 200);
      const row = await t.container.db.selectFrom('applications').select('secret_hash').where('id', '=', body.application.id).executeTakeFirstOrThrow();
      assert.equal(row.secret_hash, sha256Hex(body.credentials.access_secret));
    });

    it('refuses redirect URIs that are not absolute http(s) URLs and origins that are not bare origins', async () => {
      const res = await api('POST', 'applications/', { name: 'X',
        redirect_uris: ['https://ok.example.com/cb', '/relative', 'myapp://cb', 'https://ok.example.com/cb#frag', 'https://ok.example.com/cb'],
        allowed_origins: ['https://ok.example.com', 'https://ok.example.com/', 'https://ok.example.com/path', '*'] });
      assert.deepEqual(expectStatus(res, 400).details, {
        redirect_uris: ['/relative is not an absolute http(s) URL.', 'myapp://cb is not an absolute http(s) URL.',
          'https://ok.example.com/cb#frag must not contain a fragment (#).', 'https://ok.example.com/cb is listed twice.'],
        allowed_origins: [
          'https://ok.example.com/ is not a bare origin such as https://app.example.com (lower-case, no path or trailing slash).',
          'https://ok.example.com/path is not a bare origin such as https://app.example.com (lower-case, no path or trailing slash).',
          '* is not a bare origin such as https://app.example.com (lower-case, no path or trailing slash).'],
      });
      assert.equal(expectStatus(await api('GET', 'applications/?search=X'), 200).count, 0);
    });

    it('takes post_logout_redirect_uris under the redirect URIs\' rules, and PATCH changes them (docs/oauth.md "Clients")', async () => {
      const bad = await api('POST', 'applications/', { name: 'Y', post_logout_redirect_uris: ['/relative', 'https://ok.example.com/bye#x'] });
      assert.deepEqual(expectStatus(bad, 400).details, { post_logout_redirect_uris: ['/relative is not an absolute http(s) URL.',
        'https://ok.example.com/bye#x must not contain a fragment (#).'] });
      const body = await create({ name: 'Y', post_logout_redirect_uris: ['https://y.example.com/bye'] });
      assert.deepEqual(body.application.post_logout_redirect_uris, ['https://y.example.com/bye']);
      const patched = expectStatus(await api('PATCH', `applications/${body.id}/`, { post_logout_redirect_uris: [] }), 200);
      assert.deepEqual(patched.post_logout_redirect_uris, []);
    });

    it('answers 400 validation for a missing or blank name and unknown fields', async () => {
      assert.deepEqual(expectStatus(await api('POST', 'applications/', {}), 400).details, { name: ['This field is required.'] });
      assert.deepEqual(expectStatus(await api('POST', 'applications/', { name: '  ' }), 400).details, { name: ['This field may not be blank.'] });
      assert.deepEqual(expectStatus(await api('POST', 'applications/', { name: 'X', access_key: 'mine' }), 400).details, { access_key: ['Unknown field.'] });
      assert.deepEqual(expectStatus(await api('POST', 'applications/', { name: 'X', redirect_uris: 'https://a.example/cb' }), 400).details,
        { redirect_uris: ['Must be of type array.'] });
    });

    it('records application_created with the actor', async () => {
      const body = await create({ name: 'Audited' });
      const [event] = await auditEvents(t, 'application_created');
      assert.deepEqual([event?.actor_id, event?.details.target_application_id], [root.id, body.application.id]);
    });
  });

  describe('GET applications/ and applications/<id>/', () => {
    it('lists applications without any secret, ordered by name by default', async () => {
      await create({ name: 'Zeta' });
      await create({ name: 'Alpha' });
      const body = expectStatus(await api('GET', 'applications/'), 200);
      assert.deepEqual(body.results.map((a: { name: string }) => a.name), ['Alpha', 'Test App', 'Zeta']);
      for (const app of body.results) {
        assert.deepEqual(Object.keys(app).sort(), ['access_key', 'allowed_origins', 'created_at', 'created_by', 'description', 'id',
          'is_active', 'kind', 'name', 'post_logout_redirect_uris', 'redirect_uris', 'updated_at']);
      }
      const one = expectStatus(await api('GET', `applications/${t.credentials.id}/`), 200);
      assert.equal(one.access_key, t.credentials.access_key);
      assert.equal(JSON.stringify(one).includes(t.credentials.access_secret), false);
    });

    it('filters by search (name, description) and is_active and orders by every allowed value', async () => {
      const a = await create({ name: 'Bravo', description: 'internal tools' });
      t.clock.advance(60);
      await create({ name: 'Charlie', is_active: false });
      t.clock.advance(60);
      await create({ name: 'Alpha' });
      t.clock.advance(60);
      expectStatus(await api('PATCH', `applications/${a.application.id}/`, { description: 'internal tools v2' }), 200);
      const names = async (query: string) => expectStatus(await api('GET', `applications/${query}`), 200).results.map((x: { name: string }) => x.name);
      assert.deepEqual(await names('?search=INTERNAL'), ['Bravo']);
      assert.deepEqual(await names('?is_active=false'), ['Charlie']);
      assert.deepEqual(await names('?is_active=true&ordering=-name'), ['Test App', 'Bravo', 'Alpha']);
      const expected: Record<string, string[]> = {
        name: ['Alpha', 'Bravo', 'Charlie'], '-name': ['Charlie', 'Bravo', 'Alpha'],
        created_at: ['Bravo', 'Charlie', 'Alpha'], '-created_at': ['Alpha', 'Charlie', 'Bravo'],
        updated_at: ['Charlie', 'Alpha', 'Bravo'], '-updated_at': ['Bravo', 'Alpha', 'Charlie'],
      };
      for (const [ordering, order] of Object.entries(expected)) {
        assert.deepEqual((await names(`?ordering=${ordering}`)).filter((n: string) => n !== 'Test App'), order, ordering);
      }
      assert.deepEqual(expectStatus(await api('GET', 'applications/?ordering=access_key'), 400).details,
        { ordering: ['Must be one of: name, -name, created_at, -created_at, updated_at, -updated_at.'] });
      assert.deepEqual(expectStatus(await api('GET', 'applications/?is_active=yes'), 400).details, { is_active: ['Must be of type boolean.'] });
    });

    it('answers 404 NOT_FOUND for a missing or malformed id on every application route', async () => {
      for (const id of ['999999', 'x1']) {
        for (const [method, path, payload] of [['GET', 'applications/:id/'], ['PUT', 'applications/:id/', { name: 'N' }],
          ['PATCH', 'applications/:id/', {}], ['DELETE', 'applications/:id/'],
          ['POST', 'applications/:id/regenerate/', { confirmation: 'REGENERATE' }]] as const) {
          assert.deepEqual(expectStatus(await api(method, path.replace(':id', id), payload), 404), NOT_FOUND, `${method} ${path} ${id}`);
        }
      }
    });
  });

  describe('PUT, PATCH, DELETE applications/<id>/', () => {
    it('PUT needs name and keeps the fields left out; PATCH changes only what it is sent', async () => {
      const { application } = await create({ name: 'Portal', description: 'd', redirect_uris: ['https://p.example/cb'] });
      t.clock.advance(30);
      const put = expectStatus(await api('PUT', `applications/${application.id}/`, { name: 'Portal 2', allowed_origins: ['https://p.example'] }), 200);
      assert.deepEqual(put, { ...application, name: 'Portal 2', allowed_origins: ['https://p.example'], updated_at: new Date(NOW.getTime() + 30_000).toISOString() });
      assert.deepEqual(expectStatus(await api('PUT', `applications/${application.id}/`, { description: 'x' }), 400).details, { name: ['This field is required.'] });
      const patched = expectStatus(await api('PATCH', `applications/${application.id}/`, { redirect_uris: [] }), 200);
      assert.deepEqual([patched.name, patched.description, patched.redirect_uris], ['Portal 2', 'd', []]);
      assert.deepEqual(expectStatus(await api('PATCH', `applications/${application.id}/`, { allowed_origins: ['https://p.example/'] }), 400).details,
        { allowed_origins: ['https://p.example/ is not a bare origin such as https://app.example.com (lower-case, no path or trailing slash).'] });
    });

    it('deactivating an application makes its credentials fail at once', async () => {
      const { application, credentials } = await create({ name: 'Soon inactive' });
      assert.equal((await callAs(credentials)).statusCode, 200);
      assert.equal(expectStatus(await api('PATCH', `applications/${application.id}/`, { is_active: false }), 200).is_active, false);
      assert.deepEqual(expectStatus(await callAs(credentials), 401), APP_AUTH_INVALID);
      expectStatus(await api('PATCH', `applications/${application.id}/`, { is_active: true }), 200);
      assert.equal((await callAs(credentials)).statusCode, 200);
    });

    it('DELETE removes the application and its credentials fail at once', async () => {
      const { application, credentials } = await create({ name: 'Doomed' });
      assert.equal((await callAs(credentials)).statusCode, 200);
      assert.deepEqual(expectStatus(await api('DELETE', `applications/${application.id}/`), 200), { message: 'Application deleted' });
      assert.deepEqual(expectStatus(await callAs(credentials), 401), APP_AUTH_INVALID);
      assert.deepEqual(expectStatus(await api('GET', `applications/${application.id}/`), 404), NOT_FOUND);
      const [event] = await auditEvents(t, 'application_deleted');
      assert.deepEqual([event?.actor_id, event?.severity, event?.details.name], [root.id, 'warning', 'Doomed']);
    });

    it('refuses to delete or deactivate the application making the request', async () => {
      const selfError = (what: string) => ({ error: 'Validation error', code: 'VALIDATION_ERROR',
        details: { non_field_errors: [`The application making this request cannot ${what} itself.`] } });
      assert.deepEqual(expectStatus(await api('DELETE', `applications/${t.credentials.id}/`), 400), selfError('delete'));
      assert.deepEqual(expectStatus(await api('PATCH', `applications/${t.credentials.id}/`, { is_active: false }), 400), selfError('deactivate'));
      assert.equal(expectStatus(await api('GET', `applications/${t.credentials.id}/`), 200).is_active, true);
    });
  });

  describe('POST applications/<id>/regenerate/', () => {
    it('answers 400 CONFIRMATION_REQUIRED without the exact phrase REGENERATE, and changes nothing', async () => {
      const { application, credentials } = await create({ name: 'Keep' });
      for (const payload of [undefined, {}, { confirmation: 'regenerate' }, { confirmation: 'yes' }]) {
        assert.deepEqual(expectStatus(await api('POST', `applications/${application.id}/regenerate/`, payload), 400), {
          error: 'Send {"confirmation": "REGENERATE"} to replace the credentials', code: 'CONFIRMATION_REQUIRED' });
      }
      assert.equal((await callAs(credentials)).statusCode, 200);
    });

    it('replaces both key and secret: the old pair fails at once (even just after use), the new one works', async () => {
      const { application, credentials: old } = await create({ name: 'Rotate' });
      assert.equal((await callAs(old)).statusCode, 200);
      const body = expectStatus(await api('POST', `applications/${application.id}/regenerate/`, { confirmation: 'REGENERATE' }), 200);
      assert.deepEqual(Object.keys(body).sort(), ['application', 'client_id', 'client_secret', 'credentials', 'id', 'message', 'warning']);
      assert.equal(body.message, 'Credentials regenerated');
      assert.equal(body.warning, WARNING);
      assert.notEqual(body.credentials.access_key, old.access_key);
      assert.notEqual(body.credentials.access_secret, old.access_secret);
      assert.equal(body.application.access_key, body.credentials.access_key);
      assert.deepEqual(expectStatus(await callAs(old), 401), APP_AUTH_INVALID);
      assert.deepEqual(expectStatus(await callAs({ access_key: body.credentials.access_key, access_secret: old.access_secret }), 401), APP_AUTH_INVALID);
      assert.equal((await callAs(body.credentials)).statusCode, 200);
      const [event] = await auditEvents(t, 'application_credentials_regenerated');
      assert.deepEqual([event?.actor_id, event?.severity], [root.id, 'warning']);
    });
  });

  it('applications.view reads but does not change; applications.manage changes', async () => {
    const viewer = await account(t);
    await grantDirect(t, viewer.id, ['applications.view']);
    expectStatus(await api('GET', 'applications/', undefined, viewer.token), 200);
    assert.deepEqual(expectStatus(await api('POST', 'applications/', { name: 'No' }, viewer.token), 403), permissionDenied('applications.manage'));
    const manager = await account(t);
    await grantDirect(t, manager.id, ['applications.manage']);
    expectStatus(await api('POST', 'applications/', { name: 'Yes' }, manager.token), 201);
    assert.deepEqual(expectStatus(await api('GET', 'applications/', undefined, manager.token), 403), permissionDenied('applications.view'));
  });
});
