import type { Job } from './job.js';

/** Delivers due emails and SMS (the server also runs it right after each commit that enqueues one). */
export const outboxJob: Job = async ({ services }, log) => {
  const r = await services.outbox.flush();
  if (r.retried || r.failed) log(`${r.retried} to retry later, ${r.failed} given up`);
  return { idle: r.sent + r.expired + r.dropped + r.retried + r.failed === 0, warning: r.retried + r.failed > 0,
    summary: `${r.sent} sent, ${r.expired} dropped as expired, ${r.dropped} with no account to send to, ${r.retried} to retry, `
    + `${r.failed} given up` };
};
