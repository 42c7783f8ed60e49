import { createHash } from 'node:crypto';

/** docs/passwords-and-codes.md "The password policy": the range API gets 1.5 s, then the local list answers alone. */
export const BREACH_CHECK_TIMEOUT_MS = 1500;
/** A padded range answer is about 1,000 lines of 40 bytes; anything far larger is not a range answer. */
const MAX_RANGE_BYTES = 1 << 20;

export interface BreachResult {
  breached: boolean;
  /** `range_api` when the range API answered; `local_list` when it was off or failed. */
  source: 'range_api' | 'local_list';
}

export interface BreachCheckerOptions {
  /** Base of the range API: `GET {apiUrl}/range/{first 5 hex of SHA-1}`; null leaves the local list alone. */
  apiUrl: string | null;
  /** The local list of common passwords (lower-cased entries). */
  isCommon: (lowerCased: string) => boolean;
  timeoutMs?: number;
  /** Told why the range API could not answer (never the password or its hash). */
  onUnavailable?: (reason: string) => void;
}

/**
 * k-anonymity breach check: only the first 5 hex characters of the password's SHA-1 leave the process, with
 * `Add-Padding: true` so the answer's size says nothing either; the remaining 35 are compared locally.
 */
export function createBreachChecker({ apiUrl, isCommon, timeoutMs = BREACH_CHECK_TIMEOUT_MS, onUnavailable }: BreachCheckerOptions) {
  const base = apiUrl?.replace(/\/+$/, '') ?? null;
  const local = (password: string): BreachResult =>
    ({ breached: isCommon(password.normalize('NFKC').toLowerCase()), source: 'local_list' });

  async function fetchRange(prefix: string): Promise<string> {
    const res = await fetch(`${base}/range/${prefix}`, {
      headers: { 'Add-Padding': 'true', 'User-Agent': 'gatehouse' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error',
    });
    if (!res.ok) throw new Error(`answered ${res.status}`);
    const body = await res.text();
    if (body.length > MAX_RANGE_BYTES) throw new Error('answer too large');
    return body;
  }

  /** True when the range API lists the password with a non-zero count (padding lines have count 0). */
  async function check(password: string): Promise<BreachResult> {
    if (base === null) return local(password);
    const sha1 = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
    const prefix = sha1.slice(0, 5);
    const suffix = sha1.slice(5);
    let body: string;
    try {
      body = await fetchRange(prefix);
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : (err as Error).message;
      onUnavailable?.(`Breach check unavailable (${reason}); the local list of common passwords was used.`);
      return local(password);
    }
    for (const line of body.split('\n')) {
      const [hash, count] = line.trim().split(':');
      if (hash?.toUpperCase() === suffix && Number(count) > 0) return { breached: true, source: 'range_api' };
    }
    return { breached: local(password).breached, source: 'range_api' };
  }

  return { check, local };
}

export type BreachChecker = ReturnType<typeof createBreachChecker>;
