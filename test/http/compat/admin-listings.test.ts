import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertValidation } from '../auth/assertions.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';
import { sdk } from './sdk-request.js';

const PAGE_FIELDS = ['count', 'next', 'page', 'page_size', 'previous', 'results', 'total_pages'];

/** The fields the SDK's admin module types for each row. */
const ROW_FIELDS: Record<string, string[]> = {
  'admin/login-attempts/': ['id', 'identifier', 'ip_address', 'application', 'success', 'failure_reason', 'created_at'],
  'admin/audit-logs/': ['id', 'user', 'user_email', 'action', 'ip_address', 'user_agent', 'application', 'application_name', 'details',
    'created_at'],
  'admin/refresh-tokens/': ['id', 'user', 'user_email', 'application', 'application_name', 'device_info', 'ip_address', 'is_revoked',
    'is_expired', 'expires_at', 'created_at', 'last_used_at'],
  'admin/blacklisted-tokens/': ['id', 'token_jti', 'user', 'user_email', 'blacklisted_at', 'expires_at', 'reason', 'is_expired'],
};

/**
 * SDK compatibility (docs/migrating-from-tenxyte.md): admin/login-attempts/, audit-logs/, refresh-tokens/ and blacklisted-tokens/ are paged lists;
 * audit rows carry SDK `action` codes.
 */
describe('SDK compatibility: admin listings', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let auditor: Account;
  let ann: TestUser;
  beforeEach(async () => {
    auditor = await account(t, { email: 'auditor@example.com' });
    await grantDirect(t, auditor.id, ['audit.view']);
    ann = await createUser(t, { email: 'ann@example.com' });
  });

  const list = async (path: string) => expectStatus(await sdk(t, 'GET', path, { token: auditor.token }), 200);

  /** ann's day, all through the API: a failed login, a login, a refresh, a logout, a login and a password change. */
  async function annsDay() {
    expectStatus(await sdk(t, 'POST', 'login/email/', { body: { email: ann.email, password: 'not the password' } }), 401);
    const first = expectStatus(await sdk(t, 'POST', 'login/email/', { body: { email: ann.email, password: ann.password } }), 200);
    const refreshed = expectStatus(await sdk(t, 'POST', 'refresh/', { body: { refresh_token: first.refresh_token } }), 200);
    expectStatus(await sdk(t, 'POST', 'logout/', { token: refreshed.access_token, body: { refresh_token: refreshed.refresh_token } }), 200);
    const second = expectStatus(await sdk(t, 'POST', 'login/email/', { body: { email: ann.email, password: ann.password } }), 200);
    expectStatus(await sdk(t, 'POST', 'password/change/', { token: second.access_token,
      body: { current_password: ann.password, new_password: 'another horse battery staple' } }), 200);
  }

  it('answers each listing as a page whose rows carry the fields the SDK reads', async () => {
    await annsDay();
    for (const [path, fields] of Object.entries(ROW_FIELDS)) {
      const body = await list(path);
      assert.deepEqual(Object.keys(body).sort(), PAGE_FIELDS, path);
      assert.ok(body.count > 0 && body.results.length > 0, `${path} lists something`);
      for (const field of fields) assert.ok(field in body.results[0], `${path} rows carry ${field}`);
    }
    const paged = await list('admin/login-attempts/?page=2&page_size=1');
    assert.deepEqual([paged.page, paged.page_size, paged.total_pages, paged.results.length], [2, 1, paged.count, 1]);
  });

  it('audit rows carry the action codes login, login_failed, logout, token_refresh and password_change', async () => {
    await annsDay();
    const actions = (await list(`admin/audit-logs/?user_id=${ann.id}&page_size=100`)).results.map((r: { action: string }) => r.action);
    for (const action of ['login', 'login_failed', 'logout', 'token_refresh', 'password_change']) {
      assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
    }
  });

  it('names events the SDK spells differently by its code (register → account_created), and filters by action', async () => {
    await annsDay();
    expectStatus(await sdk(t, 'POST', 'register/', { body: { email: 'bob@example.com', password: 'correct horse battery staple' } }), 201);
    const created = await list('admin/audit-logs/?action=account_created');
    assert.deepEqual(created.results.map((r: { action: string; event_type: string }) => [r.action, r.event_type]),
      [['account_created', 'register']]);
    const failed = await list(`admin/audit-logs/?action=login_failed&user_id=${ann.id}`);
    assert.ok(failed.count === 1 && failed.results[0].action === 'login_failed', JSON.stringify(failed.results));
    assert.equal((await list('admin/audit-logs/?action=account_created&event_type=register')).count, 1);
  });

  it('refuses action and event_type naming different events (400 naming action)', async () => {
    assertValidation(await sdk(t, 'GET', 'admin/audit-logs/?action=login&event_type=logout', { token: auditor.token }), 'action');
    assertValidation(await sdk(t, 'GET', 'admin/audit-logs/?action=account_created&event_type=account_created', { token: auditor.token }),
      'action');
  });
});
