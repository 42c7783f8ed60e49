/**
 * No admin endpoint lists an account's devices, so the console shows what its sessions (refresh tokens) tell: the
 * API's `device_summary` (built from `device_info`, or else from the User-Agent: `curl`), else `device_info` itself,
 * a fingerprint such as `v=1|os=Android 14|device=Pixel 8|app=Acme 2.1` or free text.
 */

export interface SessionLike {
  device_info: string | null;
  device_summary?: string | null;
  ip_address: string | null;
  created_at: string;
  last_used_at: string | null;
  is_revoked: boolean;
  is_expired: boolean;
}

/** A readable line for a fingerprint: "Pixel 8 · Android 14 · Acme 2.1"; free text as it is; null for none. */
export function describeDevice(info: string | null): string | null {
  const text = info?.trim();
  if (!text) return null;
  if (!text.includes('=')) return text.slice(0, 120);
  const fields = new Map<string, string>();
  for (const part of text.split('|')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const parts = ['device', 'os', 'app', 'browser'].map((k) => fields.get(k)).filter((v): v is string => Boolean(v));
  return parts.length > 0 ? parts.join(' · ') : text.slice(0, 120);
}

/** The device of a session in words: the API's summary, else the fingerprint read here; "Unknown device" when neither says. */
export const deviceOf = (s: Pick<SessionLike, 'device_info' | 'device_summary'>): string =>
  s.device_summary?.trim() || describeDevice(s.device_info) || 'Unknown device';

export interface DeviceSummary {
  device: string;
  sessions: number;
  active: number;
  lastSeen: string;
  ips: string[];
}

/** The sessions of a page grouped by device, the most recently seen first. */
export function devicesOf(sessions: readonly SessionLike[]): DeviceSummary[] {
  const byDevice = new Map<string, DeviceSummary>();
  for (const s of sessions) {
    const device = deviceOf(s);
    const seen = s.last_used_at ?? s.created_at;
    const entry = byDevice.get(device) ?? { device, sessions: 0, active: 0, lastSeen: seen, ips: [] };
    entry.sessions += 1;
    if (!s.is_revoked && !s.is_expired) entry.active += 1;
    if (Date.parse(seen) > Date.parse(entry.lastSeen)) entry.lastSeen = seen;
    if (s.ip_address && !entry.ips.includes(s.ip_address)) entry.ips.push(s.ip_address);
    byDevice.set(device, entry);
  }
  return [...byDevice.values()].sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen));
}
