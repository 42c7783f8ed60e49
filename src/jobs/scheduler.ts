import type { Container } from '../container.js';
import type { JobResult } from './job.js';
import { JOBS } from './registry.js';

/**
 * Runs every registered job on its interval inside the server process, unless `SVC_JOBS_ENABLED` is off. Each run is
 * independent and claims its rows (`FOR UPDATE SKIP LOCKED` or an advisory lock), so several instances running the same
 * job never do one piece of work twice. Each run is counted for `/metrics`. Returns a stop function: no run starts after
 * it, and it resolves once the runs under way have ended, so none is left querying a database about to close.
 */
export interface SchedulerLog {
  debug(o: object, m: string): void;
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
  error(o: object, m: string): void;
}

/**
 * A run that did nothing is logged at debug level: two idle lines every five seconds would bury what the console email
 * backend prints (the codes a developer is waiting for). A run that did work is info, one with trouble a warning.
 */
const levelOf = (r: JobResult): 'debug' | 'info' | 'warn' => (r.warning ? 'warn' : r.idle ? 'debug' : 'info');

export function startScheduler(container: Container, log: SchedulerLog) {
  if (!container.config.JOBS_ENABLED) return async () => undefined;
  const { stats, clock } = container;
  const runs = new Set<Promise<void>>();
  const timers = Object.entries(JOBS).map(([name, job]) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      const run: Promise<void> = job.run(container, () => undefined)
        .then((r) => {
          stats.recordJob(name, true, clock.now());
          log[levelOf(r)]({ job: name }, r.summary);
        })
        .catch((err: Error) => {
          stats.recordJob(name, false, clock.now());
          log.error({ job: name, err: err.message }, 'job failed');
        })
        .finally(() => { running = false; runs.delete(run); });
      runs.add(run);
    }, job.everySeconds(container.config) * 1000);
    timer.unref();
    return timer;
  });
  return async () => {
    timers.forEach((t) => clearInterval(t));
    await Promise.all(runs);
  };
}
