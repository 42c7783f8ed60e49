import type { Job } from './job.js';

/**
 * Sends due webhook deliveries and retries (the server also runs a pass right after a request writes events), and once
 * an hour removes the deliveries finished more than 30 days ago.
 */
export const webhooksJob: Job = async ({ services }, log) => {
  const r = await services.webhookDelivery.flush();
  if (r.retried || r.failed) log(`${r.retried} to retry later, ${r.failed} given up`);
  const pruned = await services.webhookDelivery.prune();
  const removed = pruned ? `, ${pruned} old deliveries removed` : '';
  return { idle: r.delivered + r.retried + r.failed + pruned === 0, warning: r.retried + r.failed > 0,
    summary: `${r.delivered} delivered, ${r.retried} to retry, ${r.failed} given up${removed}` };
};
