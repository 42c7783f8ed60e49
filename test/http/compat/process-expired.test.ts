import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { confirmedRequest } from '../deletion/admin-fixtures.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus } from '../../helpers/answers.js';
import { sdk } from './sdk-request.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const HOUR = 3600;

/**
 * SDK compatibility (docs/migrating-from-tenxyte.md): process-expired answers `processed_count`, `failed_count`, `skipped_count`, `processing_time`
 * and `details[]` beside Gatehouse's `processed` and `failed`.
 */
describe('SDK compatibility: process-expired', () => {
  const t = useTestApp({ now: NOW });
  let admin: Account;
  beforeEach(async () => {
    admin = await account(t, { email: 'gdpr-admin@example.com' });
    await grantDirect(t, admin.id, ['gdpr.process']);
  });

  const processExpired = (token = admin.token) => sdk(t, 'POST', 'admin/deletion-requests/process-expired/', { token });

  it('answers the counts under both names, the run time and one detail per request processed', async () => {
    const due = await confirmedRequest(t, 'due@example.com', -HOUR);
    const alsoDue = await confirmedRequest(t, 'also-due@example.com', -2 * HOUR);
    await confirmedRequest(t, 'later@example.com', HOUR);
    const body = expectStatus(await processExpired(), 200);
    assert.deepEqual([body.processed, body.processed_count, body.failed, body.failed_count, body.skipped_count], [2, 2, 0, 0, 0]);
    assert.equal(typeof body.processing_time, 'number');
    assert.equal(typeof body.message, 'string');
    const byRequest = (a: { request_id: number }, b: { request_id: number }) => a.request_id - b.request_id;
    assert.deepEqual([...body.details].sort(byRequest), [
      { request_id: due.id, user_id: due.user.id, status: 'completed' },
      { request_id: alsoDue.id, user_id: alsoDue.user.id, status: 'completed' },
    ].sort(byRequest));
  });

  it('answers zeros and an empty details[] when nothing is due, and 403 without gdpr.process', async () => {
    await confirmedRequest(t, 'later@example.com', HOUR);
    const body = expectStatus(await processExpired(), 200);
    assert.deepEqual([body.processed, body.processed_count, body.failed, body.failed_count, body.skipped_count, body.details],
      [0, 0, 0, 0, 0, []]);
    const other = await account(t, { email: 'other@example.com' });
    assert.equal(expectStatus(await processExpired(other.token), 403).code, 'PERMISSION_DENIED');
  });
});
