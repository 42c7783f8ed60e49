import { createHash } from 'node:crypto';

export interface DeviceDescription {
  /** The normalized fingerprint the device id is derived from. */
  normalized: string;
  summary: string | null;
}

const MAX_FIELD = 64;
const clean = (v: string | undefined) => v?.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_FIELD) || undefined;

/**
 * `device_info` is a client fingerprint such as `v=1|os=macOS 14.5|device=MacBook Pro|arch=arm64|app=Acme 2.1|runtime=…|tz=…`.
 * It is parsed leniently: unknown keys, missing fields, odd spacing and free text are all accepted. Without it, the
 * User-Agent gives a rough description.
 */
export function describeDevice(deviceInfo: string | null | undefined, userAgent: string | null | undefined): DeviceDescription {
  const info = deviceInfo?.trim().slice(0, 512);
  if (info) {
    const fields = parseFingerprint(info);
    const summary = fields ? summarizeFields(fields) : clean(info) ?? null;
    const normalized = fields
      ? Object.keys(fields).sort().map((k) => `${k}=${fields[k]!.toLowerCase()}`).join('|')
      : info.toLowerCase().replace(/\s+/g, ' ');
    return { normalized, summary };
  }
  const ua = userAgent?.trim().slice(0, 512);
  if (ua) return { normalized: `ua:${ua.toLowerCase()}`, summary: summarizeUserAgent(ua) };
  return { normalized: 'unknown', summary: null };
}

function parseFingerprint(info: string): Record<string, string> | null {
  if (!info.includes('=')) return null;
  const fields: Record<string, string> = {};
  for (const part of info.split('|')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = clean(part.slice(eq + 1));
    if (/^[a-z_]{1,20}$/.test(key) && value) fields[key] = value;
  }
  return Object.keys(fields).length ? fields : null;
}

function summarizeFields(f: Record<string, string>): string | null {
  const what = f.app ?? f.runtime;
  const where = f.device ?? f.os;
  const os = f.device && f.os ? ` (${f.os})` : '';
  if (what && where) return `${what} on ${where}${os}`;
  if (where) return `${where}${os}`;
  return what ?? (f.arch ? `Unknown device (${f.arch})` : null);
}

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg\//, 'Edge'], [/OPR\//, 'Opera'], [/Firefox\//, 'Firefox'], [/Chrome\//, 'Chrome'], [/Safari\//, 'Safari'],
  [/curl\//, 'curl'], [/okhttp/i, 'OkHttp'], [/python-requests/i, 'Python requests'], [/node/i, 'Node.js'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/iPhone|iPad|iOS/, 'iOS'], [/Android/, 'Android'], [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux'],
];

export function summarizeUserAgent(ua: string): string {
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? clean(ua.split(/[\s/]/)[0]) ?? 'Unknown device';
}

/** A stable per-user device id: the same fingerprint on the same account always maps to the same id. */
export const deviceIdFor = (userId: number, normalized: string): string =>
  createHash('sha256').update(`${userId}:${normalized}`).digest('hex').slice(0, 32);
