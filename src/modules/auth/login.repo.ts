import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { dateOrNull } from '../../db/json-row.js';
import { precompile } from '../../db/precompiled.js';
import { grantRefs, grantsFrom, type GrantRefs } from '../rbac/permission-graph.js';
import { activeSessionsOf, type NewSession } from '../sessions/sessions.repo.js';
import { deviceFits, jsonbObject, limitsOff, sessionCreatedPayload, sessionFits, sqlLogic } from '../sessions/session-rules.js';
import { PUBLIC_USER_COLUMNS } from '../users/user-columns.js';
import type { PublicUser } from '../users/users.repo.js';
import { LOGIN_AUDIT_EVENT, loginAuditDetails } from './login-audit.js';

type Args = { id: number; now: Date };

/**
 * A successful login's account statement: records the login and clears the failure counters, and answers the
 * account's public row as it now is with its role and permission codes, so the token response needs no further
 * read. It holds the row's lock until the transaction ends, which the session limits rely on. `unlessLocked`
 * leaves an account locked meanwhile as it is and answers nothing. Compiled once per shape: every login runs it.
 */
const recordLoginQuery = (unlessLocked: boolean) => (db: Executor, a: Args) => {
  let update = db.updateTable('users').set({ last_login: a.now, failed_login_count: 0, lockout_count: 0, locked_until: null })
    .where('id', '=', a.id);
  if (unlessLocked) update = update.where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', a.now)]));
  return db.with('u', () => update.returning(PUBLIC_USER_COLUMNS)).selectFrom('u').selectAll('u')
    .select(grantRefs('u.id').as('refs'));
};

const markers: Args = { id: -1, now: new Date(0) };
const variants = { locked: precompile(recordLoginQuery(true), markers), any: precompile(recordLoginQuery(false), markers) };

export async function recordLogin(db: Executor, id: number, now: Date, unlessLocked: boolean) {
  const row = await variants[unlessLocked ? 'locked' : 'any'](db, { id, now });
  if (!row) return undefined;
  const { refs, ...user } = row;
  return { user, grants: await grantsFrom(db, refs, user.is_superuser) };
}

/** What the one-statement login writes: the session about to be opened and the attempt that opened it. */
export interface SignInArgs extends Omit<NewSession, 'userId'> {
  id: number;
  maxDevices: number;
  maxSessions: number;
  identifier: string;
  method: string;
  /** The token scope of the session, for the `session.created` webhook event (`withWebhook` only). */
  scope?: string;
  /** The `session.created` webhook event's id (`withWebhook` only). */
  eventId?: string;
}

/**
 * A successful login's writes in one statement, when it can be sure of them: the account statement of
 * `recordLogin`, the session with its first refresh token (bumping `sessions_version`), the attempt and, with
 * `withEvent`, the `login` audit event, and with `withWebhook`, the `session.created` webhook deliveries. One round trip
 * instead of a transaction of six.
 *
 * The session and device limits (sessions/session-rules.ts, as the transaction applies them) need the account's active
 * sessions as they are once its row is locked. A statement reads with the snapshot it started with, so the rows are
 * read as of then, and the row is locked (`for update`, which answers the row's latest version) in the same statement:
 * when the latest `sessions_version` equals the one of the snapshot, no session was added since, because every new
 * session bumps it in its own transaction. Then the read is current and the limits are checked on it. Otherwise, or
 * when a limit is reached (a session to end, or a refusal), the statement writes nothing and answers `fits: false`:
 * the caller takes the transaction path. `unlocked: false`: the account was locked meanwhile, and nothing is written
 * either.
 */
const signInQuery = (unlessLocked: boolean, withEvent: boolean, withWebhook: boolean) => (db: Executor, a: SignInArgs) => {
  const unlocked = unlessLocked ? sql`(select locked_until is null or locked_until <= ${a.now} from lk)` : sql`true`;
  // The limits of sessions.service.ts `enforceLimits`, on the sessions read as of the snapshot, which are current when
  // no session was added since (`sessions_version` unchanged).
  const maxDevices = sql<number>`${a.maxDevices}::int`;
  const maxSessions = sql<number>`${a.maxSessions}::int`;
  const fits = sqlLogic.any(limitsOff(sqlLogic, { maxDevices, maxSessions }), sqlLogic.all(
    sql<boolean>`((select sessions_version from lk) = (select sessions_version from snap))`,
    deviceFits(sqlLogic, { maxDevices, knownDevice: sql<boolean>`(${a.deviceId}::text in (select device_id from active))`,
      devices: sql<number>`(select count(distinct device_id) from active)` }),
    sessionFits(sqlLogic, { maxSessions, sessions: sql<number>`(select count(*) from active)` })));
  const event = withEvent ? sql`, ev as (
      insert into audit_events (event_type, severity, user_id, application_id, ip_address, user_agent, details, created_at)
      select ${sql.lit(LOGIN_AUDIT_EVENT.event_type)}, ${sql.lit(LOGIN_AUDIT_EVENT.severity)}, ${a.id}::bigint, ${a.applicationId}::bigint,
        ${a.ip}::text, ${a.userAgent}::text, ${jsonbObject(loginAuditDetails({ method: sql`${a.method}::text`, session_id: sql`s.id` }))},
        ${a.now}::timestamptz from s)` : sql``;
  // The `session.created` webhook event (webhooks/webhook-events.service.ts), one delivery per subscribed webhook. The
  // webhooks are locked as webhooks.repo.ts `insertEvent` does: one deleted meanwhile is skipped, never a failed login.
  const webhook = withWebhook ? sql`, wh as (
      insert into webhook_deliveries (webhook_id, event_id, type, payload, user_id, next_attempt_at, created_at)
      select w.id, ${a.eventId}::text, 'session.created', ${jsonbObject(sessionCreatedPayload({
        user_id: sql`${a.id}::bigint`, session_id: sql`s.id`, application_id: sql`${a.applicationId}::bigint`,
        method: sql`${a.method}::text`, scope: sql`${a.scope}::text`, ip_address: sql`${a.ip}::text` }))},
        ${a.id}::bigint, ${a.now}::timestamptz, ${a.now}::timestamptz
      from s cross join webhooks w where w.is_active and w.events @> '["session.created"]'::jsonb
      for key share of w)` : sql``;
  return { compile: () => sql<SignInRow>`
    with snap as (select sessions_version from users where id = ${a.id}),
    lk as (select sessions_version, locked_until from users where id = ${a.id} for update),
    active as (${activeSessionsOf(db, a.id, a.now).select('device_id')}),
    ok as (select ${unlocked} as unlocked, ${fits} as fits),
    u as (update users set last_login = ${a.now}, failed_login_count = 0, lockout_count = 0, locked_until = null,
        sessions_version = sessions_version + 1
      where id = ${a.id} and (select unlocked and fits from ok)
      returning ${sql.join(PUBLIC_USER_COLUMNS.map((c) => sql.ref(c)))}),
    s as (insert into sessions (user_id, application_id, device_id, device_info, device_summary, ip_address, user_agent,
        created_at, last_used_at, expires_at, auth_time)
      select u.id, ${a.applicationId}::bigint, ${a.deviceId}::text, ${a.deviceInfo}::text, ${a.deviceSummary}::text,
        ${a.ip}::text, ${a.userAgent}::text, ${a.now}::timestamptz, ${a.now}::timestamptz, ${a.expiresAt}::timestamptz,
        ${a.now}::timestamptz from u
      returning id),
    rt as (insert into refresh_tokens (session_id, user_id, application_id, token_hash, created_at, expires_at, ip_address, device_info)
      select s.id, ${a.id}::bigint, ${a.applicationId}::bigint, ${a.tokenHash}::text, ${a.now}::timestamptz,
        ${a.expiresAt}::timestamptz, ${a.ip}::text, ${a.deviceInfo}::text from s),
    att as (insert into login_attempts (identifier, method, user_id, ip_address, application_id, success, failure_reason, created_at)
      select ${a.identifier}::text, ${a.method}::text, ${a.id}::bigint, ${a.ip}::text, ${a.applicationId}::bigint, true, null,
        ${a.now}::timestamptz from s)${event}${webhook}
    select json_build_object('unlocked', ok.unlocked, 'fits', ok.fits, 'session_id', s.id, 'user', row_to_json(u),
      'refs', ${grantRefs('u.id')}) as outcome
    from ok left join u on true left join s on true`.compile(db) };
};

/** The outcome as one JSON value: the driver parses one field instead of describing and converting 26 columns. */
type SignInRow = { outcome: { unlocked: boolean | null; fits: boolean | null; session_id: number | null;
  user: (Omit<PublicUser, 'created_at' | 'last_login'> & { created_at: string; last_login: string | null }) | null;
  refs: GrantRefs } };

const signInMarkers: SignInArgs = {
  id: -1, now: new Date(0), applicationId: -2, deviceId: '\u0000device', deviceInfo: '\u0000info', deviceSummary: '\u0000summary',
  ip: '\u0000ip', userAgent: '\u0000agent', expiresAt: new Date(1), tokenHash: '\u0000hash', maxDevices: -3, maxSessions: -4,
  identifier: '\u0000identifier', method: '\u0000method', scope: '\u0000scope', eventId: '\u0000event',
};
const signInVariants = [false, true].map((unlessLocked) => [false, true].map((withEvent) => [false, true].map((withWebhook) =>
  precompile(signInQuery(unlessLocked, withEvent, withWebhook), signInMarkers))));

export type SignInOutcome =
  | { kind: 'locked' }
  | { kind: 'fallback' }
  | { kind: 'signed_in'; sessionId: number; user: PublicUser; grants: { roles: string[]; permissions: string[] } };

export async function signInStatement(db: Executor, a: SignInArgs,
  opts: { unlessLocked: boolean; withEvent: boolean; withWebhook?: boolean }): Promise<SignInOutcome> {
  const run = signInVariants[Number(opts.unlessLocked)]![Number(opts.withEvent)]![Number(opts.withWebhook ?? false)]!;
  const row = (await run(db, a))?.outcome;
  if (!row?.unlocked) return { kind: 'locked' };
  if (!row.fits || row.session_id === null || !row.user) return { kind: 'fallback' };
  const user = { ...row.user, created_at: new Date(row.user.created_at), last_login: dateOrNull(row.user.last_login) };
  return { kind: 'signed_in', sessionId: row.session_id, user, grants: await grantsFrom(db, row.refs, user.is_superuser) };
}

/** Marks a session whose sign-in proved two factors another way than a TOTP code (a passkey that verified the user). */
export const markSecondFactor = (db: Executor, sessionId: number, secondFactor: 'passkey') =>
  db.updateTable('sessions').set({ second_factor: secondFactor }).where('id', '=', sessionId).execute();
