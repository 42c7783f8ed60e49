import type { Job } from './job.js';

/**
 * docs/decisions.md "Account deletion": completes the confirmed deletion requests whose grace period has
 * ended. Safe on several instances (each request is taken with `for update skip locked`); a request that fails is
 * retried by the next run. Lines name requests by id only.
 */
export const expiredDeletionsJob: Job = async ({ services }, log) => {
  const r = await services.deletionCompletion.processExpired();
  for (const d of r.details) if (d.status === 'failed') log(`deletion request ${d.request_id} failed: ${d.error}`);
  return { idle: r.processed_count + r.failed_count + r.skipped_count === 0, warning: r.failed_count > 0,
    summary: `${r.processed_count} completed, ${r.failed_count} failed, ${r.skipped_count} skipped` };
};
