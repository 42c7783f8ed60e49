import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';
import { SDK_HEADERS, sdk } from './sdk-request.js';

const CONFIRMATION_REQUIRED = { error: 'Send {"confirmation": "REVOKE"} to revoke this token', code: 'CONFIRMATION_REQUIRED' };

/**
 * SDK compatibility (docs/migrating-from-tenxyte.md): `admin/refresh-tokens/<id>/revoke/` without a body revokes; any body sent, `{}` included,
 * must carry `confirmation: "REVOKE"`.
 */
describe('SDK compatibility: refresh-token revoke without a body', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let operator: Account;
  let ann: TestUser;
  beforeEach(async () => {
    operator = await account(t, { email: 'operator@example.com' });
    await grantDirect(t, operator.id, ['security.view', 'audit.view']);
    ann = await createUser(t, { email: 'ann@example.com' });
  });

  /** A new session of ann's; answers its refresh-token record id and its refresh token. */
  async function session() {
    const { refresh_token } = await signIn(t, ann);
    const list = expectStatus(await sdk(t, 'GET', `admin/refresh-tokens/?user_id=${ann.id}&is_revoked=false`,
      { token: operator.token }), 200);
    assert.equal(list.count, 1);
    return { id: list.results[0].id as string, refresh_token };
  }
  const refresh = (refresh_token: string) => sdk(t, 'POST', 'refresh/', { body: { refresh_token } });
  /** A revoke with hand-made headers and body, for the forms the SDK client does not produce. */
  const raw = (id: string, headers: Record<string, string>, payload?: string) =>
    t.api({ method: 'POST', path: `admin/refresh-tokens/${id}/revoke/`, token: operator.token, headers, payload });

  it('revokeRefreshToken (POST, no body, Content-Length: 0) revokes: the refresh token stops working', async () => {
    const { id, refresh_token } = await session();
    const body = expectStatus(await sdk(t, 'POST', `admin/refresh-tokens/${id}/revoke/`, { token: operator.token }), 200);
    assert.deepEqual([body.token.id, body.token.is_revoked, body.token.user], [id, true, ann.id]);
    assert.equal(expectStatus(await refresh(refresh_token), 401).code, 'REFRESH_FAILED');
    const [event] = await auditEvents(t, 'refresh_token_revoked');
    assert.deepEqual([event?.actor_id, event?.details.confirmed], [operator.id, false]);
  });

  it('accepts zero body bytes whatever the Content-Type, or with none', async () => {
    const forms: Record<string, string>[] = [{ ...SDK_HEADERS }, { 'content-type': 'text/plain', 'content-length': '0' }, {}];
    for (const headers of forms) {
      const { id } = await session();
      assert.equal(expectStatus(await raw(id, headers), 200).token.is_revoked, true, JSON.stringify(headers));
    }
  });

  it('requires REVOKE as soon as a body is sent, {} and blank JSON included, and revokes nothing then', async () => {
    const { id } = await session();
    for (const body of [{}, { confirmation: 'revoke' }, { confirmation: '' }]) {
      assert.deepEqual(expectStatus(await sdk(t, 'POST', `admin/refresh-tokens/${id}/revoke/`, { token: operator.token, body }), 400),
        CONFIRMATION_REQUIRED);
    }
    assert.deepEqual(expectStatus(await raw(id, SDK_HEADERS, ' '), 400), CONFIRMATION_REQUIRED);
    assert.equal(expectStatus(await raw(id, { 'content-type': 'text/plain' }, 'REVOKE'), 415).code, 'UNSUPPORTED_MEDIA_TYPE');
    const listed = expectStatus(await sdk(t, 'GET', `admin/refresh-tokens/?user_id=${ann.id}`, { token: operator.token }), 200);
    assert.deepEqual(listed.results.map((r: { is_revoked: boolean }) => r.is_revoked), [false]);
    const body = expectStatus(await sdk(t, 'POST', `admin/refresh-tokens/${id}/revoke/`,
      { token: operator.token, body: { confirmation: 'REVOKE' } }), 200);
    assert.equal(body.token.is_revoked, true);
    assert.equal((await auditEvents(t, 'refresh_token_revoked'))[0]?.details.confirmed, true);
  });

  it('still needs security.view and answers 400 ALREADY_REVOKED for a revoked token', async () => {
    const { id } = await session();
    const auditor = await account(t, { email: 'auditor@example.com' });
    assert.equal(expectStatus(await sdk(t, 'POST', `admin/refresh-tokens/${id}/revoke/`, { token: auditor.token }), 403).code,
      'PERMISSION_DENIED');
    expectStatus(await sdk(t, 'POST', `admin/refresh-tokens/${id}/revoke/`, { token: operator.token }), 200);
    assert.equal(expectStatus(await sdk(t, 'POST', `admin/refresh-tokens/${id}/revoke/`, { token: operator.token }), 400).code,
      'ALREADY_REVOKED');
  });
});
