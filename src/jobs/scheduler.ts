import type { Container } from '../container.js';
import { JOBS } from './registry.js';

/**
 * Runs every registered job on its interval inside the server process. Each run is independent and
 * idempotent, so several instances running the same job is harmless. Returns a stop function.
 */
export function startScheduler(container: Container, log: { info(o: object, m: string): void; error(o: object, m: string): void }) {
  const timers = Object.entries(JOBS).map(([name, job]) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      job.run(container, () => undefined)
        .then((r) => log.info({ job: name }, r.summary))
        .catch((err: Error) => log.error({ job: name, err: err.message }, 'job failed'))
        .finally(() => { running = false; });
    }, job.everySeconds(container.config) * 1000);
    timer.unref();
    return timer;
  });
  return () => timers.forEach((t) => clearInterval(t));
}
