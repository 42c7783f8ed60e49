import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { enableTotp } from '../../factories/twofactor.js';
import {
  account, auditEvents, call, confirmationToken, expectStatus, mailsTo, requestDeletion, requestRows, type Account,
} from './helpers.js';

const ENV = { SVC_MAX_LOGIN_ATTEMPTS: '3', SVC_ACCOUNT_DELETION_CONFIRMATION_LIFETIME: '3600' };

/** The deletion request's status (docs/privacy.md): request (→ pending, → confirmation_sent) and confirm (→ confirmed). */
describe('request-account-deletion/ and confirm-account-deletion/', () => {
  const t = useTestApp({ env: ENV, now: new Date('2026-03-01T10:00:00Z') });
  let ann: Account;
  beforeEach(async () => {
    t.container.inbox.emails.length = 0;
    ann = await account(t);
  });

  describe('request', () => {
    it('answers 201 with every key, stores a pending request and emails a single-use token', async () => {
      const body = await requestDeletion(t, ann, { reason: '  moving on  ' });
      const [row] = await requestRows(t, ann.id);
      assert.deepEqual(body, {
        message: body.message,
        deletion_request_id: row!.id,
        scheduled_deletion_date: '2026-03-31T10:00:00.000Z',
        grace_period_days: 30,
        cancellation_token: row!.cancellation_token,
        data_retention_policy: body.data_retention_policy,
      });
      assert.match(body.cancellation_token, /^[0-9a-f]{32}$/);
      assert.deepEqual(Object.keys(body.data_retention_policy).sort(), ['anonymization_after', 'final_deletion_after']);
      assert.equal(row!.status, 'confirmation_sent');
      assert.equal(row!.reason, 'moving on');
      assert.equal(row!.user_email, ann.email);
      assert.equal(row!.confirmation_expires_at!.toISOString(), '2026-03-01T11:00:00.000Z');
      // Only the hash of the token is stored.
      const token = await confirmationToken(t, ann.email!);
      assert.notEqual(row!.confirmation_hash, token);
      assert.match(row!.confirmation_hash!, /^[0-9a-f]{64}$/);
      const audit = await auditEvents(t, 'account_deletion_requested');
      assert.deepEqual(audit.map((e) => [e.user_id, e.details]), [[ann.id, { deletion_request_id: row!.id }]]);
    });

    it('moves to confirmation_sent once the email is delivered, not before', async () => {
      await requestDeletion(t, ann);
      const before = await t.container.db.selectFrom('account_deletion_requests').select('status').executeTakeFirstOrThrow();
      // The request path only kicks the outbox: what moves the state is the delivery.
      assert.ok(before.status === 'pending' || before.status === 'confirmation_sent');
      await mailsTo(t, ann.email!);
      assert.equal((await requestRows(t, ann.id))[0]!.status, 'confirmation_sent');
      assert.equal((await mailsTo(t, ann.email!)).length, 1);
    });

    it('stays pending while the email cannot be delivered', async () => {
      const failing = await createTestApp({ env: { ...ENV, SVC_EMAIL_BACKEND: 'smtp', SVC_SMTP_HOST: '127.0.0.1', SVC_SMTP_PORT: '9' } });
      try {
        await failing.reset();
        const bob = await account(failing);
        await requestDeletion(failing, bob);
        await failing.container.services.outbox.flush();
        assert.equal((await requestRows(failing, bob.id))[0]!.status, 'pending');
      } finally {
        await failing.close();
      }
    });

    it('answers 400 with details.password for a wrong password, creates nothing, and counts toward the lockout', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await call(t, 'POST', 'request-account-deletion/', ann.token, { password: 'wrong password' });
        const body = expectStatus(res, 400);
        assert.equal(body.code, 'VALIDATION_ERROR');
        assert.ok(Array.isArray(body.details.password));
      }
      const third = await call(t, 'POST', 'request-account-deletion/', ann.token, { password: 'wrong password' });
      assert.equal(third.statusCode, 423);
      assert.deepEqual(await requestRows(t, ann.id), []);
      assert.equal((await mailsTo(t, ann.email!)).length, 0);
    });

    it('needs a second factor on a 2FA account: missing or wrong → 400 details.otp_code; a TOTP code passes', async () => {
      const totp = await enableTotp(t, ann);
      const missing = expectStatus(await call(t, 'POST', 'request-account-deletion/', ann.token, { password: ann.password }), 400);
      assert.deepEqual(Object.keys(missing.details), ['otp_code']);
      const wrong = expectStatus(await call(t, 'POST', 'request-account-deletion/', ann.token,
        { password: ann.password, otp_code: '000000' }), 400);
      assert.deepEqual(Object.keys(wrong.details), ['otp_code']);
      assert.deepEqual(await requestRows(t, ann.id), []);
      const row = await t.container.db.selectFrom('users').select('failed_login_count').where('id', '=', ann.id).executeTakeFirstOrThrow();
      assert.equal(row.failed_login_count, 1, 'the wrong code counted, the missing one did not');
      await requestDeletion(t, ann, { otp_code: totp.code() });
    });

    it('accepts a backup code as the second factor, once', async () => {
      const totp = await enableTotp(t, ann);
      const code = totp.backupCodes[0]!;
      await requestDeletion(t, ann, { otp_code: code });
      await call(t, 'POST', 'cancel-account-deletion/', ann.token, { password: ann.password });
      const again = expectStatus(await call(t, 'POST', 'request-account-deletion/', ann.token, { password: ann.password, otp_code: code }), 400);
      assert.deepEqual(Object.keys(again.details), ['otp_code']);
    });

    it('answers 400 DELETION_ALREADY_PENDING with the existing request while one is open', async () => {
      const first = await requestDeletion(t, ann);
      const res = expectStatus(await call(t, 'POST', 'request-account-deletion/', ann.token, { password: ann.password }), 400);
      assert.deepEqual(res, {
        error: res.error, code: 'DELETION_ALREADY_PENDING',
        existing_request: { scheduled_deletion_date: first.scheduled_deletion_date, cancellation_token: first.cancellation_token },
      });
      assert.equal((await requestRows(t, ann.id)).length, 1);
    });

    it('creates one request when several arrive at once', async () => {
      const answers = await Promise.all(Array.from({ length: 5 }, () =>
        call(t, 'POST', 'request-account-deletion/', ann.token, { password: ann.password })));
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [201, 400, 400, 400, 400]);
      assert.equal((await requestRows(t, ann.id)).length, 1);
    });

    it('needs a full-scope bearer (401 without one) and refuses unknown fields', async () => {
      assert.equal((await call(t, 'POST', 'request-account-deletion/', null, { password: ann.password })).statusCode, 401);
      const res = await call(t, 'POST', 'request-account-deletion/', ann.token, { password: ann.password, user_id: 1 });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(await requestRows(t, ann.id), []);
    });
  });

  describe('confirm', () => {
    it('confirms, deactivates the account for the grace period, ends every session and emails the end date', async () => {
      await requestDeletion(t, ann);
      const token = await confirmationToken(t, ann.email!);
      t.clock.advance(600);
      const body = expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token }), 200);
      assert.deepEqual(body, {
        message: body.message, deletion_confirmed: true, grace_period_ends: '2026-03-31T10:10:00.000Z',
        cancellation_instructions: body.cancellation_instructions,
      });
      const [row] = await requestRows(t, ann.id);
      assert.equal(row!.status, 'confirmed');
      assert.equal(row!.confirmed_at!.toISOString(), '2026-03-01T10:10:00.000Z');
      assert.equal(row!.grace_period_ends_at.toISOString(), '2026-03-31T10:10:00.000Z');
      assert.equal(row!.confirmation_hash, null);
      const user = await t.container.db.selectFrom('users').select(['is_active', 'deletion_scheduled_at']).where('id', '=', ann.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(user, { is_active: false, deletion_scheduled_at: new Date('2026-03-31T10:10:00.000Z') });
      assert.equal((await call(t, 'GET', 'me/', ann.token)).statusCode, 401);
      const open = await t.container.db.selectFrom('sessions').select('id').where('user_id', '=', ann.id).where('revoked_at', 'is', null).execute();
      assert.deepEqual(open, []);
      const confirmed = (await mailsTo(t, ann.email!)).filter((m) => m.purpose === 'deletion_confirmed');
      assert.equal(confirmed.length, 1);
      assert.match(confirmed[0]!.text, /2026-03-31/);
      assert.equal((await auditEvents(t, 'account_deletion_confirmed')).length, 1);
    });

    it('accepts the token before the email is marked delivered (pending) as well as after', async () => {
      await requestDeletion(t, ann);
      const token = await confirmationToken(t, ann.email!);
      await t.container.db.updateTable('account_deletion_requests').set({ status: 'pending' }).execute();
      expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token }), 200);
    });

    it('answers 400 INVALID_TOKEN to an unknown or replayed token, and nothing changes', async () => {
      await requestDeletion(t, ann);
      const token = await confirmationToken(t, ann.email!);
      const unknown = expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token: 'A'.repeat(43) }), 400);
      assert.equal(unknown.code, 'INVALID_TOKEN');
      assert.notEqual((await requestRows(t, ann.id))[0]!.status, 'confirmed');
      expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token }), 200);
      const before = await requestRows(t, ann.id);
      const replay = expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token }), 400);
      assert.equal(replay.code, 'INVALID_TOKEN');
      assert.deepEqual(await requestRows(t, ann.id), before);
    });

    it('answers 410 TOKEN_EXPIRED with expired_at once the lifetime has passed, and nothing changes', async () => {
      await requestDeletion(t, ann);
      const token = await confirmationToken(t, ann.email!);
      t.clock.advance(3600);
      const res = expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token }), 410);
      assert.deepEqual(res, { error: res.error, code: 'TOKEN_EXPIRED', expired_at: '2026-03-01T11:00:00.000Z' });
      assert.equal((await requestRows(t, ann.id))[0]!.status, 'confirmation_sent');
      const user = await t.container.db.selectFrom('users').select('is_active').where('id', '=', ann.id).executeTakeFirstOrThrow();
      assert.equal(user.is_active, true);
    });

    it('answers a validation error without a token', async () => {
      const res = expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, {}), 400);
      assert.ok(res.details.token);
    });

    it('confirms once when the token is sent several times at once', async () => {
      await requestDeletion(t, ann);
      const token = await confirmationToken(t, ann.email!);
      const answers = await Promise.all(Array.from({ length: 4 }, () => call(t, 'POST', 'confirm-account-deletion/', null, { token })));
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 400, 400, 400]);
      assert.equal((await auditEvents(t, 'account_deletion_confirmed')).length, 1);
    });

    it("a token never confirms another account's request, and a cancelled request's token is dead", async () => {
      const bob = await account(t);
      await requestDeletion(t, ann);
      await requestDeletion(t, bob);
      const annToken = await confirmationToken(t, ann.email!);
      expectStatus(await call(t, 'POST', 'cancel-account-deletion/', ann.token, { password: ann.password }), 200);
      assert.equal(expectStatus(await call(t, 'POST', 'confirm-account-deletion/', null, { token: annToken }), 400).code, 'INVALID_TOKEN');
      assert.equal((await requestRows(t, bob.id))[0]!.status, 'confirmation_sent');
      assert.equal((await requestRows(t, ann.id))[0]!.status, 'cancelled');
    });
  });
});
