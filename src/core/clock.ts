/** The only place that reads the time; services receive a `Clock` so tests control expiry. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move by hand. */
export function fixedClock(start: Date = new Date()): Clock & { set(d: Date): void; advance(seconds: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (d: Date) => { current = new Date(d); },
    advance: (seconds: number) => { current = new Date(current.getTime() + seconds * 1000); },
  };
}

/**
 * Milliseconds since the stopwatch started, on the monotonic timer: a duration is measured, not read from the clock
 * (a test clock stands still, and the wall clock may jump).
 */
export function stopwatch(): () => number {
  const started = performance.now();
  return () => Math.round(performance.now() - started);
}

export const addSeconds = (d: Date, seconds: number): Date => new Date(d.getTime() + seconds * 1000);

export const toIso = (d: Date | string | null | undefined): string | null => {
  if (d === null || d === undefined) return null;
  return (typeof d === 'string' ? new Date(d) : d).toISOString();
};
