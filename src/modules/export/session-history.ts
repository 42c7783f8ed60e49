import { toIso } from '../../core/clock.js';
import type { SessionRow } from './export.repo.js';

/** A session is active until it is revoked or expires. */
const isActive = (s: SessionRow, now: Date) => s.revoked_at === null && s.expires_at > now;

export const toSession = (s: SessionRow, now: Date) => ({
  id: String(s.id), application: s.application_id, device_id: s.device_id, device_summary: s.device_summary,
  device_info: s.device_info, ip_address: s.ip_address, user_agent: s.user_agent, created_at: toIso(s.created_at)!,
  last_used_at: toIso(s.last_used_at)!, expires_at: toIso(s.expires_at)!, revoked_at: toIso(s.revoked_at),
  revoke_reason: s.revoke_reason, is_active: isActive(s, now),
});

interface Group {
  first: Date;
  last: Date;
  sessions: number;
  active: number;
}

/** Groups sessions by a key; `sessions` come newest first, so the first row of a group is its newest. */
function groupBy<K>(sessions: SessionRow[], keyOf: (s: SessionRow) => K | null, now: Date) {
  const groups = new Map<K, Group & { newest: SessionRow }>();
  for (const s of sessions) {
    const key = keyOf(s);
    if (key === null) continue;
    const g = groups.get(key) ?? { first: s.created_at, last: s.last_used_at, sessions: 0, active: 0, newest: s };
    if (s.created_at < g.first) g.first = s.created_at;
    if (s.last_used_at > g.last) g.last = s.last_used_at;
    g.sessions += 1;
    if (isActive(s, now)) g.active += 1;
    groups.set(key, g);
  }
  // Most recently used first.
  return [...groups.entries()].sort(([, a], [, b]) => b.last.getTime() - a.last.getTime());
}

/** The distinct devices of the sessions (docs/authentication.md "Sessions and devices": `device_id` is stable per fingerprint and account). */
export const devicesOf = (sessions: SessionRow[], now: Date) =>
  groupBy(sessions, (s) => s.device_id, now).map(([deviceId, g]) => ({
    device_id: deviceId, device_summary: g.newest.device_summary, device_info: g.newest.device_info,
    first_seen_at: toIso(g.first)!, last_used_at: toIso(g.last)!, sessions: g.sessions, active_sessions: g.active,
  }));

/** The applications the account signed in through, named (an application deleted since has no name). */
export const applicationsOf = (sessions: SessionRow[], names: Map<number, string>, now: Date) =>
  groupBy(sessions, (s) => s.application_id, now).map(([id, g]) => ({
    id, name: names.get(id) ?? null, first_signed_in_at: toIso(g.first)!, last_used_at: toIso(g.last)!, active_sessions: g.active,
  }));

/** The application ids the sessions went through. */
export const applicationIdsOf = (sessions: SessionRow[]) =>
  [...new Set(sessions.map((s) => s.application_id).filter((id): id is number => id !== null))];
