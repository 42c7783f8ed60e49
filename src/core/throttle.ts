/**
 * `fn`, called at most once per `intervalMs` by the `now()` clock; calls in between are dropped. For warnings that
 * an outage would otherwise repeat on every request.
 */
export function throttled<A extends unknown[]>(fn: (...args: A) => void, intervalMs: number, now: () => number): (...args: A) => void {
  let last = -Infinity;
  return (...args: A) => {
    const t = now();
    if (t - last < intervalMs) return;
    last = t;
    fn(...args);
  };
}
