/** The Agents page's pure parts: reading the create form, and putting an agent's request into words. */

/** Permission codes typed one per line, or separated by commas or spaces; each once, in order. */
export function parsePermissions(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((p) => p.trim()).filter(Boolean))];
}

export interface TokenFormValues {
  agent_id: string;
  permissions: string;
  expires_in: string;
  organization: string;
  budget_limit_usd: string;
  max_requests_per_minute: string;
  max_requests_total: string;
  max_failed_requests: string;
  heartbeat_required_every: string;
  /** The token may create narrower children for sub-agents (docs/agents.md "Delegation"). */
  can_delegate: boolean;
}

export const EMPTY_TOKEN_FORM: TokenFormValues = {
  agent_id: '', permissions: '', expires_in: '3600', organization: '', budget_limit_usd: '', max_requests_per_minute: '',
  max_requests_total: '', max_failed_requests: '', heartbeat_required_every: '', can_delegate: false,
};

/**
 * The body of `POST ai/tokens/` from the form: blank fields are left to the server's defaults, and numbers are sent as
 * numbers (the server judges their ranges). A field that is not a number is named instead.
 */
export function tokenBody(v: TokenFormValues): { body: Record<string, unknown> } | { problem: string } {
  const numbers: Array<[keyof TokenFormValues, string, boolean]> = [
    ['expires_in', 'Lifetime', true], ['budget_limit_usd', 'Budget', false], ['max_requests_per_minute', 'Requests per minute', true],
    ['max_requests_total', 'Requests in total', true], ['max_failed_requests', 'Consecutive denials', true],
    ['heartbeat_required_every', 'Heartbeat', true],
  ];
  const n: Partial<Record<keyof TokenFormValues, number>> = {};
  for (const [key, label, integer] of numbers) {
    const raw = String(v[key]).trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) return { problem: `${label}: ${integer ? 'a whole number' : 'a number'} is needed.` };
    n[key] = value;
  }
  const breaker = Object.fromEntries((['max_requests_per_minute', 'max_requests_total', 'max_failed_requests'] as const)
    .filter((k) => n[k] !== undefined).map((k) => [k, n[k]]));
  return {
    body: {
      agent_id: v.agent_id.trim(),
      permissions: parsePermissions(v.permissions),
      ...(n.expires_in !== undefined ? { expires_in: n.expires_in } : {}),
      ...(v.organization.trim() ? { organization: v.organization.trim() } : {}),
      ...(n.budget_limit_usd !== undefined ? { budget_limit_usd: n.budget_limit_usd } : {}),
      ...(Object.keys(breaker).length ? { circuit_breaker: breaker } : {}),
      ...(n.heartbeat_required_every !== undefined ? { dead_mans_switch: { heartbeat_required_every: n.heartbeat_required_every } } : {}),
      ...(v.can_delegate ? { can_delegate: true } : {}),
    },
  };
}

/**
 * A request body an agent sent, as short `key: value` lines for a person deciding on it; nested values as compact JSON,
 * long ones cut. Always text for the page to show as text.
 */
export function payloadLines(payload: unknown, max = 160): string[] {
  if (payload === null || payload === undefined || payload === '') return [];
  const cut = (s: string) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
  const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));
  if (typeof payload === 'object' && !Array.isArray(payload)) {
    return Object.entries(payload as Record<string, unknown>).map(([k, value]) => cut(`${k}: ${show(value)}`));
  }
  return [cut(show(payload))];
}

/** `$0.42 of $5.00`, or the spend alone without a budget. */
export function spendText(spend: number, budget: number | null): string {
  const usd = (x: number) => `$${x.toFixed(2)}`;
  return budget === null ? `${usd(spend)} (no budget)` : `${usd(spend)} of ${usd(budget)}`;
}

/** Seconds as the largest whole unit that fits: `300` → `5 minutes`. */
export function durationText(seconds: number): string {
  const units: Array<[number, string]> = [[86_400, 'day'], [3600, 'hour'], [60, 'minute'], [1, 'second']];
  const [size, name] = units.find(([s]) => seconds >= s && seconds % s === 0) ?? [1, 'second'];
  const count = seconds / size;
  return `${count} ${name}${count === 1 ? '' : 's'}`;
}

/** The permissions text with `code` added (at the end) or removed, one code a line. */
export function togglePermission(text: string, code: string, on: boolean): string {
  const codes = parsePermissions(text).filter((c) => c !== code);
  return (on ? [...codes, code] : codes).join('\n');
}
