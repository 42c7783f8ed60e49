import type { Config } from '../config/settings.js';
import { agentHeartbeatsJob } from './agent-heartbeats.job.js';
import { agentTrailJob } from './agent-trail.job.js';
import { cleanupJob } from './cleanup.job.js';
import { dashboardCountsJob } from './dashboard-counts.job.js';
import { expiredDeletionsJob } from './expired-deletions.job.js';
import { outboxJob } from './outbox.job.js';
import { webhooksJob } from './webhooks.job.js';
import type { Job } from './job.js';

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
  'agent-trail': { run: agentTrailJob, everySeconds: () => 5 },
  'dashboard-counts': { run: dashboardCountsJob, everySeconds: () => 900 },
  'expired-deletions': { run: expiredDeletionsJob, everySeconds: () => 3600 },
  webhooks: { run: webhooksJob, everySeconds: () => 5 },
};
