import type { Job } from './job.js';

/**
 * docs/agents.md "The trail": appends to their roots' chains the token events and pending-action decisions that no agent
 * request has carried in yet (a request of the same root appends them first, and so does any reader of the trail).
 */
export const agentTrailJob: Job = async ({ services }, log) => {
  const appended = await services.agentTrailWriter.drainQueued();
  if (appended) log(`${appended} agent token events appended to their trails`);
  return { idle: appended === 0, summary: `${appended} agent token events appended to their trails` };
};
