import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { signIn, deviceInfo } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { testDatabaseKind } from '../../helpers/database.js';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { signInStatement, type SignInArgs } from '../../../src/modules/auth/login.repo.js';

/**
 * The one-statement login (`signInStatement`): what it writes in the usual case, when it leaves the decision to the
 * transaction, and that a session committed by a concurrent transaction after its snapshot is never missed.
 */
describe('the one-statement login', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let user: TestUser;
  beforeEach(async () => { user = await createUser(t, { email: 'ann@example.com' }); });

  let sequence = 0;
  const args = (over: Partial<SignInArgs> = {}): SignInArgs => {
    sequence += 1;
    const now = t.clock.now();
    return {
      id: user.id, now, applicationId: t.credentials.id, deviceId: `device-${sequence}`, deviceInfo: null, deviceSummary: null,
      ip: '127.0.0.1', userAgent: 'test', expiresAt: new Date(now.getTime() + 3600_000), tokenHash: `hash-${sequence}-${Math.random()}`,
      maxDevices: 0, maxSessions: 0, identifier: 'ann@example.com', method: 'password', ...over,
    };
  };
  const run = (a: SignInArgs, db = t.container.db) => signInStatement(db, a, { unlessLocked: true, withEvent: true });
  const count = async (table: 'sessions' | 'refresh_tokens' | 'login_attempts') =>
    Number((await t.container.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  it('writes the session, its refresh token, the attempt and the audit event, and bumps sessions_version', async () => {
    const outcome = await run(args());
    assert.equal(outcome.kind, 'signed_in');
    if (outcome.kind !== 'signed_in') return;
    assert.equal(outcome.user.id, user.id);
    assert.deepEqual(outcome.grants.roles, ['user']);
    assert.deepEqual([await count('sessions'), await count('refresh_tokens'), await count('login_attempts')], [1, 1, 1]);
    const event = await t.container.db.selectFrom('audit_events').select('details').where('event_type', '=', 'login').executeTakeFirstOrThrow();
    assert.deepEqual(event.details, { method: 'password', session_id: outcome.sessionId });
    const row = await t.container.db.selectFrom('users').select(['sessions_version', 'last_login']).where('id', '=', user.id).executeTakeFirstOrThrow();
    assert.equal(Number(row.sessions_version), 1);
    assert.ok(row.last_login);
  });

  it('leaves a reached limit to the transaction and writes nothing', async () => {
    await run(args({ deviceId: 'phone' }));
    assert.equal((await run(args({ deviceId: 'phone', maxDevices: 1 }))).kind, 'signed_in', 'a known device fits');
    assert.equal((await run(args({ deviceId: 'laptop', maxDevices: 1 }))).kind, 'fallback');
    assert.equal((await run(args({ maxSessions: 2 }))).kind, 'fallback');
    assert.deepEqual([await count('sessions'), await count('login_attempts')], [2, 2]);
  });

  it('answers locked, writing nothing, for an account locked since the password check', async () => {
    await t.container.db.updateTable('users').set({ locked_until: new Date(t.clock.now().getTime() + 60_000) }).where('id', '=', user.id).execute();
    assert.equal((await run(args())).kind, 'locked');
    assert.deepEqual([await count('sessions'), await count('login_attempts')], [0, 0]);
  });

  it('opens sessions through the HTTP login as before, limits included', async () => {
    const limited = await createTestApp({ env: { SVC_MAX_SESSIONS: '2', SVC_SESSION_LIMIT_ACTION: 'revoke_oldest' } });
    try {
      await limited.reset();
      const ann = await createUser(limited, { email: 'ann@example.com' });
      const first = await signIn(limited, ann, { device_info: deviceInfo(1) });
      await signIn(limited, ann, { device_info: deviceInfo(2) });
      await signIn(limited, ann, { device_info: deviceInfo(3) });
      const live = await limited.container.db.selectFrom('sessions').select('id').where('revoked_at', 'is', null).execute();
      assert.equal(live.length, 2);
      assert.equal((await limited.api({ method: 'GET', path: 'me/', token: first.access_token })).statusCode, 401);
    } finally {
      await limited.close();
    }
  });

  // Two connections: the race needs a second transaction, which the single-connection embedded database cannot hold.
  it('never misses a session committed after its snapshot: it leaves the decision to the transaction', {
    skip: testDatabaseKind() === 'postgres' ? false : 'needs PostgreSQL (two connections)',
  }, async () => {
    const db = t.container.db;
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => { locked = resolve; });
    // A concurrent login: it has locked the row and added a session, and commits while the statement waits.
    const concurrent = db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set((eb) => ({ sessions_version: eb('sessions_version', '+', 1) })).where('id', '=', user.id).execute();
      await trx.insertInto('sessions').values({ user_id: user.id, application_id: t.credentials.id, device_id: 'other', created_at: t.clock.now(),
        last_used_at: t.clock.now(), expires_at: new Date(t.clock.now().getTime() + 3600_000) }).execute();
      locked();
      await held;
    });
    await lockTaken;
    const waiting = run(args({ deviceId: 'mine', maxDevices: 1 }));
    // The statement has taken its snapshot and waits on the row lock.
    for (;;) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
      if (rows[0]!.n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    release();
    await concurrent;
    assert.equal((await waiting).kind, 'fallback', 'its read of the sessions was stale: the limit of one device is full');
    assert.equal(await count('sessions'), 1);
  });
});
