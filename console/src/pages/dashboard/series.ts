/**
 * The dashboard's answers shaped into what its charts and cards draw. Pure: no React, no DOM, so the shaping is
 * tested without a browser, and the words a screen reader hears for a chart come from the same numbers it draws.
 */
import type { DayCount, Trend } from './types';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-03-18` (a UTC day) → `18 Mar`: the API's days are UTC, so they are not moved into the browser's zone. */
export function dayLabel(date: string): string {
  const [, month, day] = date.split('-');
  const name = MONTHS[Number(month) - 1];
  return name && day ? `${Number(day)} ${name}` : date;
}

export interface DayPoint {
  day: string;
  count: number;
}

export const daySeries = (days: DayCount[]): DayPoint[] => days.map((d) => ({ day: dayLabel(d.date), count: d.count }));

/**
 * A day of sign-in attempts. `secondStep` counts those answered "2FA required" or "2FA setup required": the first half
 * of a sign-in, neither a success nor a failure (docs/dashboard.md).
 */
export interface LoginDay {
  day: string;
  success: number;
  failed: number;
  secondStep: number;
}

export const loginSeries = (days: Array<{ date: string; success: number; failed: number; second_step?: number }>): LoginDay[] =>
  days.map((d) => ({ day: dayLabel(d.date), success: d.success, failed: d.failed, secondStep: d.second_step ?? 0 }));

const METHOD_NAMES: Record<string, string> = {
  password: 'Password', phone_password: 'Phone and password', otp: 'One-time code', magic_link: 'Magic link', passkey: 'Passkey',
};

/** `social_github` → `Social: github`; the known methods by their names; anything else as the API wrote it. */
export function methodLabel(method: string): string {
  const named = METHOD_NAMES[method];
  if (named) return named;
  return method.startsWith('social_') ? `Social: ${method.slice('social_'.length)}` : method;
}

export interface NamedCount {
  key: string;
  label: string;
  count: number;
}

/** Sign-ins by method, most first (ties by name), so the longest bar leads. */
export const methodSeries = (byMethod: Record<string, number>): NamedCount[] =>
  Object.entries(byMethod)
    .map(([key, count]) => ({ key, label: methodLabel(key), count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));

const STATUS_NAMES: Record<string, string> = {
  pending: 'Pending', confirmation_sent: 'Confirmation sent', confirmed: 'Confirmed', completed: 'Completed', cancelled: 'Cancelled',
};

/** Deletion requests by status, in the lifecycle's order the API gives. */
export const statusSeries = (byStatus: Record<string, number>): NamedCount[] =>
  Object.entries(byStatus).map(([key, count]) => ({ key, label: STATUS_NAMES[key] ?? key, count }));

const twoDecimals = (n: number) => Math.round(n * 100) / 100;

/** `33.3333` → `33.33%`; `50` → `50%`. */
export const percentText = (n: number): string => `${twoDecimals(n)}%`;

/** 2FA adoption (a percentage) as the two slices of a pie; a value outside 0–100 is clamped. */
export function adoptionSeries(rate: number): Array<{ name: string; value: number }> {
  const on = twoDecimals(Math.min(100, Math.max(0, rate)));
  return [{ name: 'With 2FA', value: on }, { name: 'Without 2FA', value: twoDecimals(100 - on) }];
}

export interface TrendView {
  current: number;
  previous: number | null;
  /** The change in words: `+25%`, `−10%`, `no change`, `new` (nothing before); null without a comparison. */
  change: string | null;
  direction: 'up' | 'down' | 'flat' | null;
}

/** A trend as a card shows it, whether or not the answer carried a comparison. */
export function trendView(trend: Trend): TrendView {
  if (typeof trend === 'number') return { current: trend, previous: null, change: null, direction: null };
  const { current, previous, change_percent: change } = trend;
  if (change === null) return { current, previous, change: 'new', direction: 'up' };
  if (change === 0) return { current, previous, change: 'no change', direction: 'flat' };
  return { current, previous, change: `${change > 0 ? '+' : '−'}${twoDecimals(Math.abs(change))}%`, direction: change > 0 ? 'up' : 'down' };
}

/** `1 warning`, `2 warnings`: a count with its noun (`plural` when adding an s will not do). */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;

export const sumOf = (values: number[]): number => values.reduce((a, b) => a + b, 0);

/** A chart of days in one sentence: its total, and its busiest day when there is one. */
export function describeDays(what: string, points: DayPoint[]): string {
  const total = sumOf(points.map((p) => p.count));
  const busiest = points.reduce<DayPoint | null>((best, p) => (p.count > (best?.count ?? 0) ? p : best), null);
  return `${what}: ${total} in ${counted(points.length, 'day')}${busiest ? `, most on ${busiest.day} (${busiest.count})` : ''}.`;
}

const pending = (n: number) => `${counted(n, 'second step')} pending`;

/** Sign-ins per day in one sentence: successes, failures, second steps and the day of each. */
export function describeLogins(points: LoginDay[]): string {
  const success = sumOf(points.map((p) => p.success));
  const failed = sumOf(points.map((p) => p.failed));
  const secondSteps = sumOf(points.map((p) => p.secondStep));
  const days = points.filter((p) => p.success + p.failed + p.secondStep > 0)
    .map((p) => `${p.day}: ${p.success} succeeded, ${p.failed} failed${p.secondStep ? `, ${pending(p.secondStep)}` : ''}`);
  return `Sign-in attempts of the last ${points.length} days: ${success} succeeded, ${failed} failed, ${pending(secondSteps)}.`
    + (days.length ? ` ${days.join('; ')}.` : '');
}

/** Named counts in one sentence, zeros left out: `Password 12, Passkey 3.` */
export function describeCounts(what: string, items: NamedCount[]): string {
  const shown = items.filter((i) => i.count > 0).map((i) => `${i.label} ${i.count}`);
  return `${what}: ${shown.length ? shown.join(', ') : 'none'}.`;
}
