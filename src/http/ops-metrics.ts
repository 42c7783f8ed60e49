import { Counter, Gauge, type Registry } from 'prom-client';
import { within } from '../core/deadline.js';
import type { OpsStats } from '../core/ops-stats.js';
import type { Backlog } from '../db/backlog.js';

interface Sources {
  stats: OpsStats;
  now: () => Date;
  outbox: () => Promise<Backlog>;
  webhooks: () => Promise<Backlog>;
}

/** Longest a scrape waits on the database for the backlogs; past it, they are left out of that scrape. */
const BACKLOG_DEADLINE_MS = 2000;

type Backlogs = ReadonlyArray<readonly ['email_sms' | 'webhooks', Backlog | null]>;

/**
 * The backlogs of both outboxes, read once per scrape: the registry collects its metrics concurrently, so the two
 * metrics made from them share the read in flight instead of querying twice.
 */
function backlogReader(outbox: () => Promise<Backlog>, webhooks: () => Promise<Backlog>): () => Promise<Backlogs> {
  const read = (source: () => Promise<Backlog>) => within(source(), BACKLOG_DEADLINE_MS).catch(() => null);
  let inFlight: Promise<Backlogs> | null = null;
  return () => {
    inFlight ??= Promise.all([read(outbox), read(webhooks)])
      .then(([messages, deliveries]) => [['email_sms', messages], ['webhooks', deliveries]] as const)
      .finally(() => { inFlight = null; });
    return inFlight;
  };
}

/**
 * The operation of this instance, read on each scrape (docs/decisions.md "Several instances"): Redis failures, the outboxes'
 * backlogs and the age of their oldest rows, and the scheduled jobs' runs and failures. A backlog the database cannot
 * give in time is left out of the scrape rather than failing it.
 */
export function registerOpsMetrics(registry: Registry, { stats, now, outbox, webhooks }: Sources): void {
  const registers = [registry];
  new Counter({
    name: 'gatehouse_redis_errors_total', help: 'Redis connection errors and failed commands', registers,
    collect() { this.reset(); this.inc(stats.redisErrors()); },
  });

  const backlogs = backlogReader(outbox, webhooks);
  new Gauge({ name: 'gatehouse_outbox_backlog', help: 'Messages waiting to be sent, by outbox',
    labelNames: ['outbox'] as const, registers,
    async collect() {
      this.reset();
      for (const [label, b] of await backlogs()) if (b) this.set({ outbox: label }, b.count);
    },
  });
  new Gauge({ name: 'gatehouse_outbox_oldest_age_seconds', help: 'Age of the oldest waiting message, by outbox (0 when none waits)',
    labelNames: ['outbox'] as const, registers,
    async collect() {
      this.reset();
      for (const [label, b] of await backlogs()) {
        if (b) this.set({ outbox: label }, b.oldest ? Math.max(0, (now().getTime() - b.oldest.getTime()) / 1000) : 0);
      }
    },
  });

  new Counter({ name: 'gatehouse_job_runs_total', help: 'Scheduled job runs on this instance, by job',
    labelNames: ['job'] as const, registers,
    collect() {
      this.reset();
      for (const [job, s] of stats.jobs()) this.inc({ job }, s.runs);
    },
  });
  new Counter({ name: 'gatehouse_job_failures_total', help: 'Scheduled job runs that failed, by job',
    labelNames: ['job'] as const, registers,
    collect() {
      this.reset();
      for (const [job, s] of stats.jobs()) this.inc({ job }, s.failures);
    },
  });
  new Gauge({ name: 'gatehouse_job_last_run_timestamp_seconds', help: 'When each job last finished a run (Unix time)',
    labelNames: ['job'] as const, registers,
    collect() {
      this.reset();
      for (const [job, s] of stats.jobs()) if (s.lastRunAt) this.set({ job }, s.lastRunAt.getTime() / 1000);
    },
  });
}
