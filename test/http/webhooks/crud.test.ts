import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config/load.js';
import { WEBHOOK_EVENTS } from '../../../src/modules/webhooks/events.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { agentApi, delegate } from '../agents/helpers.js';
import { NOT_FOUND, permissionDenied, UNAUTHORIZED } from '../../helpers/answers.js';
import { account, type Account, createWebhook, expectStatus, freshStart, startReceiving, stopReceiving } from './helpers.js';
import type { WebhookReceiver } from './receiver.js';

/** docs/webhooks.md: the `webhooks/` API, its permission, the secret shown once and the URL checks. */
describe('webhooks/', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: Account;

  before(async () => { ({ t, receiver } = await startReceiving()); });
  /** The same database with SVC_WEBHOOK_ALLOW_PRIVATE_URLS off, as outside debug. */
  const strict = useTestApp({ env: { SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }, reset: false });
  after(() => stopReceiving(t, receiver));
  beforeEach(async () => {
    admin = await freshStart(t, receiver);
    strict.clock.set(t.clock.now()); // the two instances agree on the time, as instances of one deployment do
  });

  type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  const api = (method: Method, path: string, token: string | null = admin.token, payload?: object) =>
    t.api({ method, path, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
  /** The strict instance, called with the test application's credentials (both instances share the database). */
  const strictApi = (method: Method, path: string, payload?: object) => strict.app.inject({ method, url: `/api/v1/auth/${path}`,
    headers: { ...t.headers, authorization: `Bearer ${admin.token}` }, ...(payload ? { payload } : {}) });

  describe('access', () => {
    it('needs a bearer (401) holding webhooks.manage (403), which the seeded admin role holds', async () => {
      const user = await account(t, { email: 'user@example.com' });
      assert.deepEqual(expectStatus(await api('GET', 'webhooks/', null), 401), UNAUTHORIZED);
      for (const [method, path] of [['GET', 'webhooks/'], ['POST', 'webhooks/'], ['GET', 'webhooks/1/'], ['PATCH', 'webhooks/1/'],
        ['PUT', 'webhooks/1/'], ['DELETE', 'webhooks/1/'], ['POST', 'webhooks/1/test/'], ['GET', 'webhooks/1/deliveries/'],
        ['POST', 'webhooks/1/deliveries/1/replay/']] as const) {
        assert.deepEqual(expectStatus(await api(method, path, user.token, method === 'GET' || method === 'DELETE' ? undefined : {}), 403),
          permissionDenied('webhooks.manage'), `${method} ${path}`);
      }
      const admins = await t.container.db.selectFrom('role_permissions as rp').innerJoin('roles as r', 'r.id', 'rp.role_id')
        .innerJoin('permissions as p', 'p.id', 'rp.permission_id').select('p.code').where('r.code', '=', 'admin').execute();
      assert.ok(admins.some((p) => p.code === 'webhooks.manage'));
    });

    it('is closed to agents, whatever they were granted', async () => {
      const agent = await delegate(t, admin, { permissions: ['webhooks.manage'] });
      const res = await agentApi(t)('GET', 'webhooks/', agent.token);
      assert.equal(expectStatus(res, 403).code, 'AGENT_NOT_ALLOWED');
    });
  });

  describe('CRUD', () => {
    it('creates a webhook and shows its secret once, stored sealed', async () => {
      const body = await createWebhook(t, admin, receiver, ['user.created', 'session.created', 'user.created']);
      assert.deepEqual(Object.keys(body).sort(), ['message', 'secret', 'warning', 'webhook']);
      assert.match(body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(body.secret.slice(6), 'base64').length, 32);
      const webhook = body.webhook as Record<string, unknown>;
      assert.deepEqual({ ...webhook, id: 0, created_at: '', updated_at: '' }, { id: 0, url: receiver.url,
        events: ['user.created', 'session.created'], is_active: true, description: 'test receiver', created_by: admin.id,
        created_at: '', updated_at: '' });
      const id = body.webhook.id;
      const answers = [await api('GET', `webhooks/${id}/`), await api('GET', 'webhooks/'),
        await api('PATCH', `webhooks/${id}/`, admin.token, { description: 'renamed' }), await api('GET', `webhooks/${id}/deliveries/`)];
      for (const res of answers) {
        expectStatus(res, 200);
        assert.ok(!res.body.includes(body.secret.slice(6)) && !res.body.includes('secret'), res.body);
      }
      const row = await t.container.db.selectFrom('webhooks').select('secret_sealed').where('id', '=', id).executeTakeFirstOrThrow();
      assert.ok(!row.secret_sealed.includes(body.secret.slice(6)));
      assert.match(row.secret_sealed, /^v1\./);
    });

    it('lists webhooks paged, filters by is_active, reads one, and answers 404 for an unknown or malformed id', async () => {
      for (let i = 0; i < 3; i++) await createWebhook(t, admin, receiver, ['user.created'], { is_active: i !== 1 });
      const page = expectStatus(await api('GET', 'webhooks/?page_size=2'), 200);
      assert.deepEqual([page.count, page.total_pages, page.results.length, page.next],
        [3, 2, 2, '/api/v1/auth/webhooks/?page_size=2&page=2']);
      assert.equal(expectStatus(await api('GET', 'webhooks/?is_active=false'), 200).count, 1);
      assert.equal(expectStatus(await api('GET', `webhooks/${page.results[0].id}/`), 200).url, receiver.url);
      assert.deepEqual(expectStatus(await api('GET', 'webhooks/999/'), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('GET', 'webhooks/abc/'), 404), NOT_FOUND);
      assert.deepEqual(expectStatus(await api('DELETE', 'webhooks/999/'), 404), NOT_FOUND);
    });

    it('PATCH changes the fields sent, PUT needs url and events, DELETE removes the webhook and its deliveries', async () => {
      const { webhook } = await createWebhook(t, admin, receiver, ['user.created']);
      const patched = expectStatus(await api('PATCH', `webhooks/${webhook.id}/`, admin.token,
        { events: ['user.banned'], is_active: false }), 200);
      assert.deepEqual([patched.events, patched.is_active, patched.url, patched.description], [['user.banned'], false, receiver.url,
        'test receiver']);
      assert.deepEqual(expectStatus(await api('PUT', `webhooks/${webhook.id}/`, admin.token, { events: ['user.banned'] }), 400).details,
        { url: ['This field is required.'] });
      const put = expectStatus(await api('PUT', `webhooks/${webhook.id}/`, admin.token, { url: `${receiver.url}&v=2`,
        events: ['user.created', 'user.deleted'] }), 200);
      assert.deepEqual([put.url, put.events, put.is_active], [`${receiver.url}&v=2`, ['user.created', 'user.deleted'], false]);
      expectStatus(await api('PATCH', `webhooks/${webhook.id}/`, admin.token, { is_active: true }), 200);
      expectStatus(await api('POST', `webhooks/${webhook.id}/test/`, admin.token), 202);
      assert.deepEqual(expectStatus(await api('DELETE', `webhooks/${webhook.id}/`), 200), { message: 'Webhook deleted' });
      assert.deepEqual(expectStatus(await api('GET', `webhooks/${webhook.id}/`), 404), NOT_FOUND);
      assert.equal((await t.container.db.selectFrom('webhook_deliveries').selectAll().execute()).length, 0);
    });

    it('answers 400 for an unknown event, no events, a URL that is not http(s), carries credentials, and unknown fields', async () => {
      const create = (payload: object) => api('POST', 'webhooks/', admin.token, payload);
      assert.deepEqual(expectStatus(await create({ url: receiver.url, events: ['user.created', 'user.exploded'] }), 400).details, {
        events: [`Unknown event type: user.exploded. Known: ${WEBHOOK_EVENTS.join(', ')}.`] });
      assert.ok(expectStatus(await create({ url: receiver.url, events: [] }), 400).details.events);
      for (const [url, message] of [
        ['ftp://127.0.0.1/hooks', 'Only http and https URLs are accepted.'],
        ['javascript:alert(1)', 'Only http and https URLs are accepted.'],
        ['file:///etc/passwd', 'Only http and https URLs are accepted.'],
        ['not a url', 'Enter a valid absolute URL.'],
        ['/relative/path', 'Enter a valid absolute URL.'],
        ['http://user:pass@127.0.0.1/hooks', 'Credentials in the URL are not accepted: verify the webhook-signature header instead.'],
      ]) {
        assert.deepEqual(expectStatus(await create({ url, events: ['user.created'] }), 400), { error: 'Validation error',
          code: 'VALIDATION_ERROR', details: { url: [message] } }, url);
      }
      assert.deepEqual(expectStatus(await create({ url: receiver.url, events: ['user.created'], secret: 'mine' }), 400).details,
        { secret: ['Unknown field.'] });
      assert.equal(expectStatus(await api('GET', 'webhooks/'), 200).count, 0);
    });
  });

  describe('server-side request forgery (SVC_WEBHOOK_ALLOW_PRIVATE_URLS off)', () => {
    it('refuses with 400 a URL whose host is or resolves to a loopback, private, link-local, unique-local, CGNAT or metadata address',
      async () => {
      for (const url of ['http://127.0.0.1:9/hooks', 'http://localhost:9/hooks', 'http://10.0.0.5/hooks', 'http://192.168.1.20/',
        'http://172.16.3.4/', 'http://169.254.169.254/latest/meta-data/', 'http://100.100.100.200/', 'http://0.0.0.0:8000/',
        'http://[::1]:8080/', 'http://[fd00:ec2::254]/', 'http://[fe80::1]/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/']) {
        const res = await strictApi('POST', 'webhooks/', { url, events: ['user.created'] });
        const body = expectStatus(res, 400);
        assert.equal(body.code, 'VALIDATION_ERROR', url);
        assert.match(body.details.url[0], /^The host resolves to a forbidden address \(.+ is not a public address\)\.$/, url);
      }
      // A public address is accepted (an IP literal: nothing is resolved, and the webhook stays inactive, so nothing is sent).
      const ok = expectStatus(await strictApi('POST', 'webhooks/', { url: 'https://93.184.215.14/hooks', events: ['user.created'],
        is_active: false }), 201);
      const moved = await strictApi('PATCH', `webhooks/${ok.webhook.id}/`, { url: 'http://127.0.0.1/hooks' });
      assert.match(expectStatus(moved, 400).details.url[0], /forbidden address/);
      // With the setting on (debug's default), loopback receivers are accepted.
      expectStatus(await api('POST', 'webhooks/', admin.token, { url: 'http://localhost:9/hooks', events: ['user.created'] }), 201);
    });

    it('is on by default in debug only, and an explicit value wins', () => {
      const base = { SVC_JWT_SECRET_KEY: 'a-secret-key-that-is-at-least-32-bytes-long', SVC_DATA_DIR: 'memory://' };
      assert.equal(loadConfig({ ...base, SVC_DEBUG: 'true' }).config.WEBHOOK_ALLOW_PRIVATE_URLS, true);
      assert.equal(loadConfig({ ...base, SVC_DEBUG: 'true', SVC_SHORTCUT_SECURE_MODE: 'robust' }).config.WEBHOOK_ALLOW_PRIVATE_URLS, true);
      assert.equal(loadConfig(base).config.WEBHOOK_ALLOW_PRIVATE_URLS, false);
      assert.equal(loadConfig({ ...base, SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).config.WEBHOOK_ALLOW_PRIVATE_URLS, true);
      const explicitOff = loadConfig({ ...base, SVC_DEBUG: 'true', SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
      assert.equal(explicitOff.config.WEBHOOK_ALLOW_PRIVATE_URLS, false);
    });
  });
});
