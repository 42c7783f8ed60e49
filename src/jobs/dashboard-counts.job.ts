import type { Job } from './job.js';

/**
 * Counts each ended hour of sign-ins, registrations, deletions and incidents once into `dashboard_counts`, so the
 * dashboard reads a few hundred rows instead of the source tables. Its first run counts the whole history.
 */
export const dashboardCountsJob: Job = async ({ services }) => {
  const last = await services.dashboard.closeSettledHours();
  return { idle: !last, summary: last ? `hours counted up to ${last.toISOString()}` : 'nothing to count yet' };
};
