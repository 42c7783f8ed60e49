/**
 * docs/dashboard.md "Periods": a period is whole UTC days ending with today, today counting up to now; the previous
 * period is as long and ends at the same time of day, so both cover the same span. Pure date arithmetic.
 */

export const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;
export type PeriodName = keyof typeof PERIOD_DAYS;
/** The period of dashboard/stats/ when the query names none. */
export const DEFAULT_PERIOD: PeriodName = '7d';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Rows dated from `from` (inclusive) to `until` (exclusive). */
export interface Range {
  from: Date;
  until: Date;
}

export const startOfUtcDay = (d: Date): Date => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
export const startOfUtcHour = (d: Date): Date => new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);
export const addDays = (d: Date, days: number): Date => new Date(d.getTime() + days * DAY_MS);
export const addHours = (d: Date, hours: number): Date => new Date(d.getTime() + hours * HOUR_MS);
/** ISO 8601 to the second, as the database writes a bucket's start (`2026-03-18T12:00:00Z`). */
export const isoSeconds = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
/** `YYYY-MM-DD` of a UTC day. */
export const dayOf = (d: Date): string => d.toISOString().slice(0, 10);

/** From `from` up to and including `now` (timestamps are written from the same clock, to the millisecond). */
export const throughNow = (from: Date, now: Date): Range => ({ from, until: new Date(now.getTime() + 1) });

/** The `days` UTC days ending today, and the period before it. */
export function periodRanges(days: number, now: Date): { current: Range; previous: Range } {
  const from = addDays(startOfUtcDay(now), -(days - 1));
  return { current: throughNow(from, now), previous: throughNow(addDays(from, -days), addDays(now, -days)) };
}

/** Since midnight UTC, since Monday (ISO 8601 weeks) and since the first of the month, each up to now. */
export function calendarRanges(now: Date): { today: Range; this_week: Range; this_month: Range } {
  const today = startOfUtcDay(now);
  const monday = addDays(today, -((today.getUTCDay() + 6) % 7));
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { today: throughNow(today, now), this_week: throughNow(monday, now), this_month: throughNow(first, now) };
}

/** Every UTC day a range touches, oldest first (the days of a chart, zero days included). */
export function daysIn(range: Range): string[] {
  const days: string[] = [];
  for (let d = startOfUtcDay(range.from); d < range.until; d = addDays(d, 1)) days.push(dayOf(d));
  return days;
}

const twoDecimals = (n: number) => Math.round(n * 100) / 100;

/** `part` as a percentage of `whole`, to two decimals; 0 when there is no whole. */
export const percentOf = (part: number, whole: number): number => (whole === 0 ? 0 : twoDecimals((part / whole) * 100));

/** Change from `previous` to `current` in percent, to two decimals: 0 when both are 0, null when only `previous` is. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return twoDecimals(((current - previous) / previous) * 100);
}

export interface Trend {
  current: number;
  previous: number;
  change_percent: number | null;
}

export const trendOf = (current: number, previous: number): Trend => ({ current, previous, change_percent: changePercent(current, previous) });
