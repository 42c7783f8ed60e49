/**
 * Wraps a pass over an outbox (claim what is due, send it) so that callers never run two at once: a call while a pass
 * runs joins it and asks for one more pass after it, because the running pass may have claimed before the caller's
 * rows committed. Answers the sum of the passes' reports.
 *
 * `stop()` is for shutdown: no pass starts after it, and it resolves once the running one (with the extra pass asked
 * for meanwhile) has ended, so nothing is left writing to a database about to close. What is still due stays in the
 * table for the next pass of any instance.
 */
/** `R`: counts of what a pass did, added field by field over the passes. */
export function repeatingPass<R extends { [K in keyof R]: number }>(pass: () => Promise<R>, empty: () => R) {
  let running: Promise<R> | null = null;
  let again = false;
  let stopped = false;

  function flush(): Promise<R> {
    if (running) {
      again = true;
      return running;
    }
    if (stopped) return Promise.resolve(empty());
    running = (async () => {
      const total = empty();
      do {
        again = false;
        const report = await pass();
        for (const key of Object.keys(total) as (keyof R)[]) total[key] = (total[key] + report[key]) as R[keyof R];
      } while (again);
      return total;
    })().finally(() => { running = null; });
    return running;
  }

  async function stop(): Promise<void> {
    stopped = true;
    await running?.catch(() => undefined);
  }

  return Object.assign(flush, { stop });
}
