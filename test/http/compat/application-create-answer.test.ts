import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';
import { sdk } from './sdk-request.js';

/** SDK compatibility (docs/migrating-from-tenxyte.md): create and regenerate answer top-level `id`, `client_id`, `client_secret` beside Gatehouse's own fields. */
describe('SDK compatibility: application create', () => {
  const t = useTestApp();
  let root: Account;
  beforeEach(async () => {
    root = await account(t, { is_superuser: true });
  });

  /** A call made with the given credentials: password/requirements/ needs only the application. */
  const callAs = (key: string, secret: string) => t.api({ method: 'GET', path: 'password/requirements/', appAuth: false,
    headers: { 'x-access-key': key, 'x-access-secret': secret } });

  it('createApplication reads id, client_id and client_secret: the new application\'s id and working credentials', async () => {
    const body = expectStatus(await sdk(t, 'POST', 'applications/',
      { token: root.token, body: { name: 'Billing', description: 'Invoices' } }), 201);
    assert.equal(body.id, body.application.id);
    assert.equal(body.client_id, body.credentials.access_key);
    assert.equal(body.client_secret, body.credentials.access_secret);
    assert.equal((await callAs(body.client_id, body.client_secret)).statusCode, 200);
    assert.equal(expectStatus(await sdk(t, 'GET', `applications/${body.id}/`, { token: root.token }), 200).name, 'Billing');
  });

  it('regenerate answers the new pair under the same names, and the old pair stops working', async () => {
    const created = expectStatus(await sdk(t, 'POST', 'applications/', { token: root.token, body: { name: 'Rotate' } }), 201);
    const body = expectStatus(await sdk(t, 'POST', `applications/${created.id}/regenerate/`,
      { token: root.token, body: { confirmation: 'REGENERATE' } }), 200);
    assert.deepEqual([body.id, body.client_id, body.client_secret],
      [created.id, body.credentials.access_key, body.credentials.access_secret]);
    assert.notEqual(body.client_secret, created.client_secret);
    assert.equal((await callAs(body.client_id, body.client_secret)).statusCode, 200);
    assert.equal((await callAs(created.client_id, created.client_secret)).statusCode, 401);
  });

  it('shows the secret nowhere else, and regenerate still needs its confirmation', async () => {
    const created = expectStatus(await sdk(t, 'POST', 'applications/', { token: root.token, body: { name: 'Quiet' } }), 201);
    const read = expectStatus(await sdk(t, 'GET', `applications/${created.id}/`, { token: root.token }), 200);
    assert.ok(!('client_secret' in read) && !('access_secret' in read), JSON.stringify(read));
    assert.equal(expectStatus(await sdk(t, 'POST', `applications/${created.id}/regenerate/`, { token: root.token }), 400).code,
      'CONFIRMATION_REQUIRED');
    assert.equal((await callAs(created.client_id, created.client_secret)).statusCode, 200);
  });
});
