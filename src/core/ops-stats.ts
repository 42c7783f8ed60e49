/** How one background job has fared in this process since it started. */
export interface JobStats {
  runs: number;
  failures: number;
  /** When the last run ended, successful or not; null before the first. */
  lastRunAt: Date | null;
  /** Runs that failed since the last one that succeeded (or since the start). */
  consecutiveFailures: number;
  /** When the first of those failed runs ended; null while the last run succeeded. */
  failingSince: Date | null;
}

/** This many failed runs in a row, and `/health/ready` names the job (modules/ops/health.routes.ts). */
export const FAILING_JOB_RUNS = 3;

/**
 * What this instance counts about its own operation for `/metrics` (http/metrics.ts reads it on each scrape):
 * failures of Redis (connection errors and failed commands) and the runs of its scheduled jobs.
 */
export function createOpsStats() {
  let redisErrors = 0;
  const jobs = new Map<string, JobStats>();

  function recordJob(name: string, ok: boolean, at: Date): void {
    let entry = jobs.get(name);
    if (!entry) jobs.set(name, entry = { runs: 0, failures: 0, lastRunAt: null, consecutiveFailures: 0, failingSince: null });
    entry.runs++;
    if (ok) {
      entry.consecutiveFailures = 0;
      entry.failingSince = null;
    } else {
      entry.failures++;
      entry.consecutiveFailures++;
      entry.failingSince ??= at;
    }
    entry.lastRunAt = at;
  }

  return {
    redisError: (): void => { redisErrors++; },
    redisErrors: (): number => redisErrors,
    recordJob,
    jobs: (): ReadonlyMap<string, Readonly<JobStats>> => jobs,
    /** The jobs whose last FAILING_JOB_RUNS runs or more all failed. */
    failingJobs: () => [...jobs].filter(([, s]) => s.consecutiveFailures >= FAILING_JOB_RUNS)
      .map(([name, s]) => ({ name, consecutiveFailures: s.consecutiveFailures, failingSince: s.failingSince! })),
  };
}

export type OpsStats = ReturnType<typeof createOpsStats>;
