import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';

export const insertLoginAttempt = (db: Executor, values: NewRow<'login_attempts'>) =>
  db.insertInto('login_attempts').values(values).execute();

/** A successful login's attempt record and, when given, its audit event, in one statement. */
export const insertLoginRecords = (db: Executor, attempt: NewRow<'login_attempts'>, event: NewRow<'audit_events'> | null) =>
  event === null ? insertLoginAttempt(db, attempt)
    : db.with('attempt', (qb) => qb.insertInto('login_attempts').values(attempt)).insertInto('audit_events').values(event).execute();

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
