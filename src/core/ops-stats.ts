/** How one background job has fared in this process since it started. */
export interface JobStats {
  runs: number;
  failures: number;
  /** When the last run ended, successful or not; null before the first. */
  lastRunAt: Date | null;
}

/**
 * What this instance counts about its own operation for `/metrics` (http/metrics.ts reads it on each scrape):
 * failures of Redis (connection errors and failed commands) and the runs of its scheduled jobs.
 */
export function createOpsStats() {
  let redisErrors = 0;
  const jobs = new Map<string, JobStats>();

  function recordJob(name: string, ok: boolean, at: Date): void {
    let entry = jobs.get(name);
    if (!entry) jobs.set(name, entry = { runs: 0, failures: 0, lastRunAt: null });
    entry.runs++;
    if (!ok) entry.failures++;
    entry.lastRunAt = at;
  }

  return {
    redisError: (): void => { redisErrors++; },
    redisErrors: (): number => redisErrors,
    recordJob,
    jobs: (): ReadonlyMap<string, Readonly<JobStats>> => jobs,
  };
}

export type OpsStats = ReturnType<typeof createOpsStats>;
