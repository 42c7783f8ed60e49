import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { userRow } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import {
  account, call, confirmationToken, expectStatus, login, requestDeletion, type Account,
} from './helpers.js';

const START = new Date('2026-03-01T10:00:00Z');
const LOGIN_FAILED = { error: 'Invalid credentials', code: 'LOGIN_FAILED' };

/**
 * An administrator's deactivation is a hold that only an administrator lifts (docs/security.md "Account safety"): the
 * person cannot undo it by confirming a deletion request and then cancelling it.
 */
describe('an administrator\'s deactivation holds through the deletion flow', () => {
  const t = useTestApp({ now: START });
  let ann: Account;
  let admin: Account;
  beforeEach(async () => {
    t.container.inbox.emails.length = 0;
    ann = await account(t, { email: 'ann@example.com' });
    admin = await account(t, { email: 'admin@example.com', is_superuser: true });
  });
  const deactivate = async () =>
    expectStatus(await t.api({ method: 'PATCH', path: `admin/users/${ann.id}/`, token: admin.token, payload: { is_active: false } }), 200);
  const reactivate = async () =>
    expectStatus(await t.api({ method: 'PATCH', path: `admin/users/${ann.id}/`, token: admin.token, payload: { is_active: true } }), 200);

  it('confirming, signing in during the grace period and cancelling leaves the account inactive', async () => {
    // The person asks for deletion while still active; an administrator then deactivates the account.
    await requestDeletion(t, ann);
    const token = await confirmationToken(t, ann.email!);
    await deactivate();
    expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token }), 200);
    const pending = expectStatus(await login(t, ann), 200);
    assert.equal(pending.token_scope, 'deletion_pending');
    const cancelled = expectStatus(await call(t, 'POST', 'cancel-account-deletion/', pending.access_token, { password: ann.password }), 200);
    assert.equal(cancelled.deletion_cancelled, true);
    assert.equal(cancelled.account_reactivated, false);
    assert.equal(cancelled.access_token, undefined, 'no full-scope pair for an account that stays inactive');
    const row = await userRow(t, ann.id);
    assert.deepEqual([row.is_active, row.deletion_scheduled_at], [false, null]);
    assert.notEqual(row.admin_deactivated_at, null);
    // The deletion_pending token stops, and a sign-in answers as for any inactive account.
    assert.equal((await call(t, 'GET', 'account-deletion-status/', pending.access_token)).statusCode, 401);
    const refused = await login(t, ann);
    assert.equal(refused.statusCode, 401);
    assert.deepEqual(refused.json(), LOGIN_FAILED);
  });

  it('an administrator asking to deactivate an account whose deletion already deactivated it still holds it', async () => {
    await requestDeletion(t, ann);
    expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token: await confirmationToken(t, ann.email!) }), 200);
    const updated = await deactivate();
    assert.deepEqual(updated.updated_fields, ['is_active']);
    const pending = expectStatus(await login(t, ann), 200);
    expectStatus(await call(t, 'POST', 'cancel-account-deletion/', pending.access_token, { password: ann.password }), 200);
    assert.equal((await userRow(t, ann.id)).is_active, false);
  });

  it('only an administrator lifts the hold; without one, cancelling reactivates as before', async () => {
    await deactivate();
    await reactivate();
    assert.equal((await userRow(t, ann.id)).admin_deactivated_at, null);
    const fresh = expectStatus(await login(t, ann), 200);
    await requestDeletion(t, { token: fresh.access_token, password: ann.password });
    expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token: await confirmationToken(t, ann.email!) }), 200);
    const pending = expectStatus(await login(t, ann), 200);
    const cancelled = expectStatus(await call(t, 'POST', 'cancel-account-deletion/', pending.access_token, { password: ann.password }), 200);
    assert.equal(cancelled.account_reactivated, true);
    assert.ok(cancelled.access_token);
    assert.equal((await userRow(t, ann.id)).is_active, true);
  });
});
