import type { Job } from './job.js';

/**
 * docs/decisions.md "Agents": the dead man's switch for tokens that have gone quiet (the breaker checks it on each
 * request; an agent that makes none is caught here) — active tokens whose heartbeat is overdue are suspended for
 * HEARTBEAT_MISSING — and tokens past their expiry are marked EXPIRED.
 */
export const agentHeartbeatsJob: Job = async ({ services }, log) => {
  const r = await services.agentUsage.sweep();
  if (r.suspended) log(`${r.suspended} agent tokens suspended for a missing heartbeat`);
  if (r.expired) log(`${r.expired} agent tokens expired`);
  return { idle: r.suspended + r.expired === 0, summary: `${r.suspended} suspended (heartbeat missing), ${r.expired} expired` };
};
