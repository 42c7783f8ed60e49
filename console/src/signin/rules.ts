/**
 * The password rules the server announces (`password/requirements/`), in words, and the checks the forced change can
 * make before asking the server: the server's policy stays the judge of strength.
 */
export interface PasswordRequirements {
  requirements: {
    min_length: number;
    require_lowercase: boolean;
    require_uppercase: boolean;
    require_numbers: boolean;
    require_special: boolean;
  };
  min_length: number;
  max_length: number;
}

export function describeRequirements({ requirements: r, max_length }: PasswordRequirements): string[] {
  const rules = [`At least ${r.min_length} characters (at most ${max_length})`];
  if (r.require_lowercase) rules.push('a lowercase letter');
  if (r.require_uppercase) rules.push('an uppercase letter');
  if (r.require_numbers) rules.push('a digit');
  if (r.require_special) rules.push('a special character');
  return rules;
}

/** What is wrong with the new password before the server sees it; null when nothing is. */
export function localProblem(current: string, next: string, again: string): string | null {
  if (next !== again) return 'The new password and its confirmation do not match.';
  if (next === current) return 'The new password must differ from the current one.';
  return null;
}

/** An ACCOUNT_LOCKED or RATE_LIMITED answer's `retry_after` (seconds, or an ISO time) in words; null without one. */
export function retryAfterText(retryAfter: unknown, now: Date = new Date()): string | null {
  if (typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter > 0) {
    const seconds = Math.ceil(retryAfter);
    if (seconds < 120) return `Try again in ${seconds} seconds.`;
    return `Try again in ${Math.ceil(seconds / 60)} minutes.`;
  }
  if (typeof retryAfter === 'string') {
    const at = new Date(retryAfter);
    if (Number.isNaN(at.getTime())) return null;
    return retryAfterText((at.getTime() - now.getTime()) / 1000, now) ?? null;
  }
  return null;
}

/** A VALIDATION_ERROR's `details` (field → messages) as lines of text. */
export function detailLines(details: unknown): string[] {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return [];
  return Object.entries(details as Record<string, unknown>).flatMap(([field, value]) => {
    const messages = Array.isArray(value) ? value.map(String) : [String(value)];
    return messages.map((m) => `${field}: ${m}`);
  });
}
