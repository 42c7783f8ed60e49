/**
 * The counts of one UTC hour or day that the dashboard adds up: kept as they are in `dashboard_counts` once the hour
 * is closed, and computed the same way for the time still open. Pure folding and summing.
 */

export interface MethodCounts {
  success: number;
  failed: number;
}

export interface Counts {
  /** Sign-in attempts by method as `login_by_method` names it (a password sign-in with a phone is `phone_password`). */
  logins: Record<string, MethodCounts>;
  /** Failed attempts by `failure_reason`. */
  failures: Record<string, number>;
  /** Successful sign-ins by application id. */
  applications: Record<string, number>;
  /** Accounts created. */
  registered: number;
  /** Accounts deleted (`deleted_at` set). */
  deleted: number;
  /** Security incidents (`INCIDENT_EVENTS` of daily-counts.repo.ts). */
  incidents: number;
}

export const emptyCounts = (): Counts => ({ logins: {}, failures: {}, applications: {}, registered: 0, deleted: 0, incidents: 0 });

const addTo = (target: Record<string, number>, key: string, n: number) => { target[key] = (target[key] ?? 0) + n; };

/** Adds `more` into `target` and answers `target`. */
export function addInto(target: Counts, more: Counts): Counts {
  for (const [method, c] of Object.entries(more.logins)) {
    const t = (target.logins[method] ??= { success: 0, failed: 0 });
    t.success += c.success;
    t.failed += c.failed;
  }
  for (const [reason, n] of Object.entries(more.failures)) addTo(target.failures, reason, n);
  for (const [app, n] of Object.entries(more.applications)) addTo(target.applications, app, n);
  target.registered += more.registered;
  target.deleted += more.deleted;
  target.incidents += more.incidents;
  return target;
}

export const sumCounts = (all: Iterable<Counts>): Counts => {
  const total = emptyCounts();
  for (const c of all) addInto(total, c);
  return total;
};

/**
 * The failure reasons of the attempts answered "now the second step": 401 `2FA_REQUIRED` (a password without its
 * code) and 403 `ADMIN_2FA_SETUP_REQUIRED` (an administrator sent to set 2FA up). Such an attempt is neither a
 * success nor a failure: the dashboard counts it apart (docs/dashboard.md).
 */
export const SECOND_STEP_REASONS: readonly string[] = ['2fa_required', 'admin_2fa_setup_required'];
export const isSecondStep = (reason: string): boolean => SECOND_STEP_REASONS.includes(reason);

export const successesOf = (c: Counts): number => Object.values(c.logins).reduce((n, m) => n + m.success, 0);
/** Attempts answered with a second step to take (`SECOND_STEP_REASONS`). */
export const secondStepsOf = (c: Counts): number => SECOND_STEP_REASONS.reduce((n, reason) => n + (c.failures[reason] ?? 0), 0);
/** Failed attempts, the second steps asked for left out. */
export const failuresOf = (c: Counts): number => Object.values(c.logins).reduce((n, m) => n + m.failed, 0) - secondStepsOf(c);
/** Applications with at least one successful sign-in. */
export const applicationsUsed = (c: Counts): number => Object.values(c.applications).filter((n) => n > 0).length;

/** Rows of the grouped queries, each for a bucket (an hour or a day, as its start in ISO 8601). */
export interface LoginCountRow {
  bucket: string;
  kind: 'method' | 'reason' | 'application';
  success: boolean;
  key: string | null;
  n: number;
}

export interface AccountCountRow {
  bucket: string;
  registered: number;
  deleted: number;
}

export interface IncidentCountRow {
  bucket: string;
  n: number;
}

/** Each bucket's counts from the grouped rows. Buckets without a row are absent. */
export function foldRows(logins: LoginCountRow[], accounts: AccountCountRow[], incidents: IncidentCountRow[]): Map<string, Counts> {
  const buckets = new Map<string, Counts>();
  const countsOf = (bucket: string) => {
    let counts = buckets.get(bucket);
    if (!counts) buckets.set(bucket, counts = emptyCounts());
    return counts;
  };
  for (const row of logins) {
    if (row.key === null) continue;
    const counts = countsOf(row.bucket);
    if (row.kind === 'method') {
      const m = (counts.logins[row.key] ??= { success: 0, failed: 0 });
      if (row.success) m.success += row.n;
      else m.failed += row.n;
    } else if (row.kind === 'reason' && !row.success) {
      addTo(counts.failures, row.key, row.n);
    } else if (row.kind === 'application' && row.success) {
      addTo(counts.applications, row.key, row.n);
    }
  }
  for (const row of accounts) {
    const counts = countsOf(row.bucket);
    counts.registered += row.registered;
    counts.deleted += row.deleted;
  }
  for (const row of incidents) countsOf(row.bucket).incidents += row.n;
  return buckets;
}

/** Counts by bucket added up by UTC day (`YYYY-MM-DD`), into `days`. */
export function addByDay(days: Map<string, Counts>, buckets: Iterable<[string, Counts]>): Map<string, Counts> {
  for (const [bucket, counts] of buckets) {
    const day = bucket.slice(0, 10);
    days.set(day, addInto(days.get(day) ?? emptyCounts(), counts));
  }
  return days;
}
