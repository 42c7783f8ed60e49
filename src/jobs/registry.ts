import type { Container } from '../container.js';
import type { Config } from '../config/settings.js';
import { agentHeartbeatsJob } from './agent-heartbeats.job.js';
import { cleanupJob } from './cleanup.job.js';
import { dashboardCountsJob } from './dashboard-counts.job.js';
import { expiredDeletionsJob } from './expired-deletions.job.js';
import { outboxJob } from './outbox.job.js';
import { webhooksJob } from './webhooks.job.js';

export interface JobResult {
  /** One line for the operator: what the run did. */
  summary: string;
  /** The run found nothing to do: the scheduler logs it at debug level, so idle passes do not bury the rest of the log. */
  idle?: boolean;
  /** Something is going wrong (sends to retry, or given up): the scheduler logs it as a warning. */
  warning?: boolean;
}

export type Job = (container: Container, log: (line: string) => void) => Promise<JobResult>;

/** A job and how often the server runs it on its own. */
export interface JobEntry {
  run: Job;
  everySeconds: (config: Config) => number;
}

/**
 * Background jobs by name, run on a schedule by `gatehouse serve` and on demand by `gatehouse jobs run <name>`.
 * Each feature adds its own job here.
 */
export const JOBS: Record<string, JobEntry> = {
  cleanup: { run: cleanupJob, everySeconds: () => 3600 },
  outbox: { run: outboxJob, everySeconds: (config) => config.OUTBOX_POLL_INTERVAL },
  'agent-heartbeats': { run: agentHeartbeatsJob, everySeconds: () => 60 },
  'dashboard-counts': { run: dashboardCountsJob, everySeconds: () => 900 },
  'expired-deletions': { run: expiredDeletionsJob, everySeconds: () => 3600 },
  webhooks: { run: webhooksJob, everySeconds: () => 5 },
};
