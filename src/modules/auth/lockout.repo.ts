import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';
import { precompile } from '../../db/precompiled.js';
import { LOGIN_AUDIT_EVENT } from './login-audit.js';

export const insertLoginAttempt = (db: Executor, values: NewRow<'login_attempts'>) =>
  db.insertInto('login_attempts').values(values).execute();

export interface LoginRecord {
  identifier: string;
  method: string;
  userId: number;
  ip: string | null;
  applicationId: number | null;
  now: Date;
  /** The `login` audit event's user agent and details; with null, no event is written. */
  event: { userAgent: string | null; details: string } | null;
}

type RecordArgs = Omit<LoginRecord, 'event'> & { userAgent: string | null; details: string };

const successfulAttempt = (a: RecordArgs) => ({ identifier: a.identifier, method: a.method, user_id: a.userId,
  ip_address: a.ip, application_id: a.applicationId, success: true, failure_reason: null, created_at: a.now });

const recordMarkers: RecordArgs = { identifier: '\u0000identifier', method: '\u0000method', userId: -1, ip: '\u0000ip',
  applicationId: -2, now: new Date(0), userAgent: '\u0000agent', details: '\u0000details' };

/** Every successful login writes these: compiled once per shape. */
const loginRecords = {
  attempt: precompile((db: Executor, a: RecordArgs) => db.insertInto('login_attempts').values(successfulAttempt(a)), recordMarkers),
  withEvent: precompile((db: Executor, a: RecordArgs) => db.with('attempt', (qb) => qb.insertInto('login_attempts').values(successfulAttempt(a)))
    .insertInto('audit_events').values({ ...LOGIN_AUDIT_EVENT, user_id: a.userId, application_id: a.applicationId,
      ip_address: a.ip, user_agent: a.userAgent, details: a.details, created_at: a.now }), recordMarkers),
};

/** A successful login's attempt record and, when given, its `login` audit event, in one statement. */
export async function insertLoginRecords(db: Executor, { event, ...record }: LoginRecord): Promise<void> {
  if (event) await loginRecords.withEvent(db, { ...record, ...event });
  else await loginRecords.attempt(db, { ...record, userAgent: null, details: '' });
}

export const findIdentifierLock = (db: Executor, identifier: string) =>
  db.selectFrom('identifier_lockouts').select(['locked_until']).where('identifier', '=', identifier).executeTakeFirst();

export const findUserLock = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['locked_until']).where('id', '=', userId).executeTakeFirst();

/** When failures lock: after `threshold` of them, for `baseSeconds × 2^(earlier locks)`, at most `maxSeconds`. */
export interface LockPolicy {
  threshold: number;
  baseSeconds: number;
  maxSeconds: number;
}

const MAX_DOUBLINGS = 20;

/**
 * Counting and locking are one statement, and only an unlocked row is counted: concurrent failures are
 * counted one after the other, exactly one of them locks, and none counted after the lock restarts the count.
 */
function countAndLock(table: 'users' | 'identifier_lockouts', failed: string, now: Date, p: LockPolicy) {
  const count = sql.ref(`${table}.${failed}`);
  const locks = sql.ref(`${table}.lockout_count`);
  const reached = sql`${count} + 1 >= ${p.threshold}`;
  const seconds = sql`least(${p.maxSeconds}::float8, ${p.baseSeconds}::float8 * power(2, least(${locks}, ${MAX_DOUBLINGS})))`;
  return {
    [failed]: sql<number>`case when ${reached} then 0 else ${count} + 1 end`,
    lockout_count: sql<number>`case when ${reached} then ${locks} + 1 else ${locks} end`,
    locked_until: sql<Date>`case when ${reached} then ${now}::timestamptz + make_interval(secs => ${seconds})
      else ${sql.ref(`${table}.locked_until`)} end`,
  };
}

/**
 * Counts one failure against an unlocked account. Answers its `locked_until` (in the future when this failure
 * reached the threshold), or undefined when the account was already locked.
 */
export const countUserFailure = (db: Executor, userId: number, now: Date, policy: LockPolicy) =>
  db.updateTable('users').set(countAndLock('users', 'failed_login_count', now, policy))
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning(['locked_until']).executeTakeFirst();

/** The same for an identifier no account matches. */
export function countIdentifierFailure(db: Executor, identifier: string, now: Date, policy: LockPolicy) {
  const locksAtOnce = policy.threshold <= 1;
  return db.insertInto('identifier_lockouts')
    .values({ identifier, failed_count: locksAtOnce ? 0 : 1, lockout_count: locksAtOnce ? 1 : 0, updated_at: now,
      locked_until: locksAtOnce ? new Date(now.getTime() + Math.min(policy.baseSeconds, policy.maxSeconds) * 1000) : null })
    .onConflict((oc) => oc.column('identifier')
      .doUpdateSet({ ...countAndLock('identifier_lockouts', 'failed_count', now, policy), updated_at: now })
      .where((eb) => eb.or([eb('identifier_lockouts.locked_until', 'is', null), eb('identifier_lockouts.locked_until', '<=', now)])))
    .returning(['locked_until']).executeTakeFirst();
}
