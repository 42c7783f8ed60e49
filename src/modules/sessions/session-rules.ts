import { sql, type RawBuilder } from 'kysely';

/**
 * What a new session is held to and what it reports, written once for the two ways a sign-in opens a session: the
 * transaction of `sessions.service.ts` (TypeScript) and the one-statement login of `auth/login.repo.ts` (SQL). Each rule
 * is written over `Logic`, which each way reads in its own terms: `jsLogic` on values, `sqlLogic` on SQL expressions.
 * A change to a rule is then a change to both ways at once.
 */
export interface Logic<B, N> {
  /** `max` turns its limit off (0 or less). */
  noLimit(max: N): B;
  /** `count` is below `max`. */
  below(count: N, max: N): B;
  any(...conditions: B[]): B;
  all(...conditions: B[]): B;
}

export const jsLogic: Logic<boolean, number> = {
  noLimit: (max) => max <= 0,
  below: (count, max) => count < max,
  any: (...conditions) => conditions.some(Boolean),
  all: (...conditions) => conditions.every(Boolean),
};

export const sqlLogic: Logic<RawBuilder<boolean>, RawBuilder<number>> = {
  noLimit: (max) => sql<boolean>`(${max} <= 0)`,
  below: (count, max) => sql<boolean>`(${count} < ${max})`,
  any: (...conditions) => sql<boolean>`(${sql.join(conditions, sql` or `)})`,
  all: (...conditions) => sql<boolean>`(${sql.join(conditions, sql` and `)})`,
};

/** Neither limit applies: a new session needs no look at the account's other sessions. */
export const limitsOff = <B, N>(l: Logic<B, N>, a: { maxDevices: N; maxSessions: N }): B =>
  l.all(l.noLimit(a.maxDevices), l.noLimit(a.maxSessions));

/**
 * The device limit admits the new session: no limit, a device the account already has an active session on
 * (`knownDevice`), or fewer active devices (`devices`) than the limit. Otherwise the oldest devices' sessions end, or
 * the sign-in is refused (`DEVICE_LIMIT_ACTION`).
 */
export const deviceFits = <B, N>(l: Logic<B, N>, a: { maxDevices: N; knownDevice: B; devices: N }): B =>
  l.any(l.noLimit(a.maxDevices), a.knownDevice, l.below(a.devices, a.maxDevices));

/**
 * The session limit admits the new session: no limit, or fewer active sessions (`sessions`) than the limit.
 * Otherwise the oldest sessions end, or the sign-in is refused (`SESSION_LIMIT_ACTION`).
 */
export const sessionFits = <B, N>(l: Logic<B, N>, a: { maxSessions: N; sessions: N }): B =>
  l.any(l.noLimit(a.maxSessions), l.below(a.sessions, a.maxSessions));

/** A payload's fields as the SQL expressions giving them (the one-statement login writes its payloads in SQL). */
export type InSql<T> = { [K in keyof T]: RawBuilder<unknown> };

/** The `session.created` webhook event's data. */
export type SessionCreated = {
  user_id: number;
  session_id: number;
  application_id: number | null;
  /** The sign-in method (`password`, `passkey`, `social_github`…), null for a session opened otherwise. */
  method: string | null;
  scope: string;
  ip_address: string | null;
};

/** The `session.created` payload, fields in their order: every field named, so both ways must give each one. */
export function sessionCreatedPayload(f: SessionCreated): SessionCreated;
export function sessionCreatedPayload(f: InSql<SessionCreated>): InSql<SessionCreated>;
export function sessionCreatedPayload(f: SessionCreated | InSql<SessionCreated>) {
  return { user_id: f.user_id, session_id: f.session_id, application_id: f.application_id, method: f.method, scope: f.scope,
    ip_address: f.ip_address };
}

/** `jsonb_build_object` of a payload given as SQL expressions, keys in the payload's order. */
export const jsonbObject = (fields: Readonly<Record<string, RawBuilder<unknown>>>): RawBuilder<unknown> =>
  sql`jsonb_build_object(${sql.join(Object.entries(fields).map(([key, value]) => sql`${sql.lit(key)}, ${value}`))})`;
