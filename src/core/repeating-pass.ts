/**
 * Wraps a pass over an outbox (claim what is due, send it) so that callers never run two at once: a call while a pass
 * runs joins it and asks for one more pass after it, because the running pass may have claimed before the caller's
 * rows committed. Answers the sum of the passes' reports.
 */
/** `R`: counts of what a pass did, added field by field over the passes. */
export function repeatingPass<R extends { [K in keyof R]: number }>(pass: () => Promise<R>, empty: () => R): () => Promise<R> {
  let running: Promise<R> | null = null;
  let again = false;

  return function flush(): Promise<R> {
    if (running) {
      again = true;
      return running;
    }
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
  };
}
