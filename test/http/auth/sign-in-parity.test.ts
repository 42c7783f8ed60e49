import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../../src/core/errors.js';
import { createSignInWrites, type LoginMeta } from '../../../src/modules/auth/sign-in-writes.js';
import { findUserForLogin } from '../../../src/modules/users/users.repo.js';
import { deviceInfo } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';

/**
 * A sign-in's writes are made one of two ways: the one-statement login (SQL, `login.repo.ts` `signInStatement`, which
 * leaves a reached limit to the transaction) and the transaction (`sessions.service.ts` and `lockout.repo.ts`). Each
 * case runs both from the same state, one account each, and the rows they leave must be the same but for ids, times
 * and the account's own identity: the session and device limits, the `session.created` webhook event and the `login`
 * audit event. A change to either way alone fails here.
 */
describe('the two ways a sign-in is written', () => {
  const env = (action: string) => ({ SVC_AUDIT_LOGGING_ENABLED: 'true', SVC_DEVICE_LIMIT_ACTION: action, SVC_SESSION_LIMIT_ACTION: action });
  // Each case resets the one app it uses.
  const apps: Record<'revoke' | 'deny', TestApp> = {
    revoke: useTestApp({ env: env('revoke_oldest'), reset: false }),
    deny: useTestApp({ env: env('deny'), reset: false }),
  };

  type Case = {
    name: string;
    limitAction: 'revoke' | 'deny';
    /** The devices (by `deviceInfo` number) of the sessions the account has before, oldest first. */
    before: number[];
    device: number;
    maxDevices: number;
    maxSessions: number;
    webhook: boolean;
    /** What the one-statement login does: signs in itself, or leaves the limit to the transaction. */
    statement: 'signs_in' | 'falls_back';
  };
  const cases: Case[] = [
    { name: 'no limit, no webhook', limitAction: 'revoke', before: [1], device: 2, maxDevices: 0, maxSessions: 0, webhook: false,
      statement: 'signs_in' },
    { name: 'a subscribed session.created webhook', limitAction: 'revoke', before: [1], device: 1, maxDevices: 0, maxSessions: 0,
      webhook: true, statement: 'signs_in' },
    { name: 'a new device within the limits', limitAction: 'revoke', before: [1, 2], device: 3, maxDevices: 3, maxSessions: 4,
      webhook: true, statement: 'signs_in' },
    { name: 'a known device at the device limit', limitAction: 'deny', before: [1, 2], device: 2, maxDevices: 2, maxSessions: 0,
      webhook: true, statement: 'signs_in' },
    { name: 'the device limit reached: the oldest device ends', limitAction: 'revoke', before: [1, 2, 1], device: 3, maxDevices: 2,
      maxSessions: 0, webhook: true, statement: 'falls_back' },
    { name: 'the device limit reached: denied', limitAction: 'deny', before: [1, 2], device: 3, maxDevices: 2, maxSessions: 0,
      webhook: true, statement: 'falls_back' },
    { name: 'the session limit reached: the oldest session ends', limitAction: 'revoke', before: [1, 2, 2], device: 2, maxDevices: 0,
      maxSessions: 3, webhook: true, statement: 'falls_back' },
    { name: 'the session limit reached: denied', limitAction: 'deny', before: [1, 2], device: 1, maxDevices: 0, maxSessions: 2,
      webhook: true, statement: 'falls_back' },
  ];

  const IDENTIFIER = 'someone@example.com';

  /** An account in the case's state: its earlier sessions (a second apart), then its limits. */
  async function prepare(t: TestApp, email: string, c: Case) {
    const created = await createUser(t, { email });
    const meta: LoginMeta = { applicationId: t.credentials.id, ip: '192.0.2.1', userAgent: 'parity', method: 'password' };
    for (const device of c.before) {
      const user = (await findUserForLogin(t.container.db, { email }))!;
      await t.container.db.transaction().execute((trx) => t.container.services.sessions.open(trx, user, 'full', deviceInfo(device), meta));
      t.clock.advance(1);
    }
    await t.container.db.updateTable('users').set({ max_devices: c.maxDevices, max_sessions: c.maxSessions })
      .where('id', '=', created.id).execute();
    return { user: (await findUserForLogin(t.container.db, { email }))!, meta };
  }

  /** The rows the account has, ids, times and its own identity replaced by what they stand for. */
  async function rowsOf(t: TestApp, userId: number) {
    const db = t.container.db;
    const sessions = await db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    const sessionNo = new Map(sessions.map((s, i) => [Number(s.id), `session ${i + 1}`]));
    const devices = [...new Set(sessions.map((s) => s.device_id))];
    const device = (id: string) => `device ${devices.indexOf(id) + 1}`;
    const session = (id: unknown) => sessionNo.get(Number(id)) ?? `unknown session ${String(id)}`;
    /** A JSON payload with the account and its sessions named as above. */
    const named = (value: unknown) => {
      const { user_id, session_id, session_ids, ...rest } = value as Record<string, unknown>;
      return { ...rest,
        ...(user_id !== undefined ? { user_id: user_id === userId ? 'the account' : user_id } : {}),
        ...(session_id !== undefined ? { session_id: session(session_id) } : {}),
        ...(session_ids !== undefined ? { session_ids: (session_ids as unknown[]).map(session) } : {}) };
    };
    const tokens = await db.selectFrom('refresh_tokens').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    const attempts = await db.selectFrom('login_attempts').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    const audit = await db.selectFrom('audit_events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    const deliveries = await db.selectFrom('webhook_deliveries').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    const account = await db.selectFrom('users')
      .select(['sessions_version', 'last_login', 'failed_login_count', 'lockout_count', 'locked_until']).where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      sessions: sessions.map((s) => ({ session: session(s.id), device: device(s.device_id), application_id: s.application_id,
        device_info: s.device_info, device_summary: s.device_summary, ip_address: s.ip_address, user_agent: s.user_agent,
        revoked: s.revoked_at !== null, revoke_reason: s.revoke_reason, second_factor: s.second_factor,
        lifetime: s.expires_at.getTime() - s.created_at.getTime(), auth_time_is_creation: s.auth_time?.getTime() === s.created_at.getTime() })),
      refresh_tokens: tokens.map((r) => ({ session: session(r.session_id), application_id: r.application_id, revoked: r.revoked_at !== null,
        ip_address: r.ip_address, device_info: r.device_info, lifetime: r.expires_at.getTime() - r.created_at.getTime() })),
      login_attempts: attempts.map((a) => ({ identifier: a.identifier, method: a.method, ip_address: a.ip_address,
        application_id: a.application_id, success: a.success, failure_reason: a.failure_reason })),
      audit_events: audit.map((e) => ({ event_type: e.event_type, severity: e.severity, application_id: e.application_id,
        ip_address: e.ip_address, user_agent: e.user_agent, details: e.details === null ? null : named(e.details) })),
      webhook_deliveries: deliveries.map((d) => ({ webhook_id: d.webhook_id, type: d.type, payload: named(d.payload) })),
      account: { sessions_version: Number(account.sessions_version), signed_in: account.last_login !== null,
        failed_login_count: account.failed_login_count, lockout_count: account.lockout_count, locked_until: account.locked_until },
    };
  }

  for (const c of cases) {
    it(c.name, async () => {
      const t = apps[c.limitAction]!;
      await t.reset();
      if (c.webhook) {
        await t.container.db.insertInto('webhooks').values({ url: 'http://127.0.0.1:9/hook', events: JSON.stringify(['session.created',
          'session.revoked']), secret_sealed: t.container.sealers.webhooks.seal('whsec_parity'), created_by: null }).execute();
      }
      await t.container.services.webhookEvents.invalidate();
      const { audit, lockout, sessions, webhookEvents: events } = t.container.services;
      const writes = createSignInWrites({ db: t.container.db, clock: t.clock, audit, lockout, sessions, events });
      const outcome = (run: Promise<unknown>) => run.then(
        (done) => ({ signedIn: done !== undefined }),
        (err: unknown) => { if (isAppError(err)) return { refused: err.code }; throw err; });

      // The one-statement login, falling back to the transaction as every sign-in does.
      const ann = await prepare(t, 'ann@example.com', c);
      let tookStatement = false;
      const statementOutcome = await outcome((async () => {
        const done = await writes.atOnce(ann.user, IDENTIFIER, deviceInfo(c.device), ann.meta, 'full');
        tookStatement = done !== undefined;
        return done ?? writes.inTransaction(ann.user, IDENTIFIER, deviceInfo(c.device), ann.meta, 'full');
      })());
      // The transaction alone.
      const bob = await prepare(t, 'bob@example.com', c);
      const transactionOutcome = await outcome(writes.inTransaction(bob.user, IDENTIFIER, deviceInfo(c.device), bob.meta, 'full'));

      assert.equal(tookStatement, c.statement === 'signs_in', 'which way the one-statement login went');
      assert.deepEqual(statementOutcome, transactionOutcome);
      const [annRows, bobRows] = [await rowsOf(t, ann.user.id), await rowsOf(t, bob.user.id)];
      assert.deepEqual(annRows, bobRows);
      // The case writes what it is about.
      assert.equal(annRows.webhook_deliveries.some((d) => d.type === 'session.created'), c.webhook);
      assert.ok(annRows.audit_events.some((e) => e.event_type === 'login') === ('signedIn' in statementOutcome));
    });
  }
});
