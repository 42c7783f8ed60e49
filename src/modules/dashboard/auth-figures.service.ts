import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import * as repo from './auth-figures.repo.js';
import type { DailyCountsService } from './daily-counts.service.js';
import { failuresOf, isSecondStep, secondStepsOf, successesOf, sumCounts, type Counts } from './counts.js';
import type { AuthFigures } from './figures.schemas.js';
import { calendarRanges, daysIn, dayOf, percentOf, periodRanges, throughNow, type Range } from './period.js';

type Deps = { db: Db; clock: Clock; daily: DailyCountsService };

/** docs/dashboard.md "GET dashboard/auth/": `login_by_method` always names these, with 0 for a method nobody used. */
export const FIXED_METHODS = ['password', 'phone_password', 'otp', 'magic_link', 'passkey'] as const;
/** Social sign-ins record `social_<provider>` (docs/social-login.md "Configuring providers": the configured provider name). */
const SOCIAL_METHOD = /^social_[a-z0-9_-]+$/;
/** How far back `login_by_method` and `top_login_failure_reasons` look, in UTC days (today included). */
export const METHOD_DAYS = 30;
const TOP_REASONS = 10;

function loginTotals(c: Counts) {
  const success = successesOf(c);
  const failed = failuresOf(c);
  const secondSteps = secondStepsOf(c);
  return {
    total: success + failed + secondSteps, success_count: success, failed_count: failed, second_step_count: secondSteps,
    success_rate: percentOf(success, success + failed),
  };
}

function byMethod(c: Counts): Record<string, number> {
  const methods: Record<string, number> = Object.fromEntries(FIXED_METHODS.map((m) => [m, c.logins[m]?.success ?? 0]));
  for (const method of Object.keys(c.logins).filter((m) => SOCIAL_METHOD.test(m)).sort()) methods[method] = c.logins[method]!.success;
  return methods;
}

const topReasons = (c: Counts) => Object.entries(c.failures).filter(([reason]) => !isSecondStep(reason))
  .sort(([ra, a], [rb, b]) => b - a || (ra < rb ? -1 : ra > rb ? 1 : 0))
  .slice(0, TOP_REASONS).map(([reason, count]) => ({ reason, count }));

/** GET dashboard/auth/: docs/dashboard.md says what each figure counts. */
export function createAuthFiguresService({ db, clock, daily }: Deps) {
  async function auth(): Promise<AuthFigures> {
    const now = clock.now();
    const calendar = calendarRanges(now);
    const lastDays = periodRanges(METHOD_DAYS, now).current;
    const week = periodRanges(7, now).current;
    const from = new Date(Math.min(calendar.this_month.from.getTime(), calendar.this_week.from.getTime(), lastDays.from.getTime()));
    const [days, tokens] = await Promise.all([
      daily.at(now).then((counts) => counts.byDay(throughNow(from, now))),
      repo.tokenCounts(db, now, calendar.today.from),
    ]);
    const over = (range: Range) => sumCounts([...days].filter(([day]) => day >= dayOf(range.from)).map(([, c]) => c));
    const [today, thisWeek, thisMonth, recent] = [calendar.today, calendar.this_week, calendar.this_month, lastDays].map(over);
    return {
      login_stats: { today: loginTotals(today!), this_week: loginTotals(thisWeek!), this_month: loginTotals(thisMonth!) },
      login_by_method: byMethod(recent!),
      registration_stats: { today: today!.registered, this_week: thisWeek!.registered, this_month: thisMonth!.registered },
      token_stats: tokens,
      top_login_failure_reasons: topReasons(recent!),
      charts: {
        logins_per_day_7d: daysIn(week).map((date) => {
          const c = days.get(date);
          return { date, success: c ? successesOf(c) : 0, failed: c ? failuresOf(c) : 0, second_step: c ? secondStepsOf(c) : 0 };
        }),
      },
    };
  }

  return { auth };
}

export type AuthFiguresService = ReturnType<typeof createAuthFiguresService>;
