import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import type { DailyCountsService } from './daily-counts.service.js';
import { applicationsUsed, failuresOf, secondStepsOf, successesOf, sumCounts, type Counts } from './counts.js';
import { DEFAULT_PERIOD, daysIn, percentOf, periodRanges, PERIOD_DAYS, trendOf, type Range } from './period.js';
import * as repo from './stats.repo.js';
import type { DayCount, StatsFigures, StatsInput } from './stats.schemas.js';

type Deps = { db: Db; clock: Clock; daily: DailyCountsService };

/** The organization `X-Org-Slug` named: the figures count its active members only. */
export interface OrganizationScope {
  id: number;
  name: string;
  slug: string;
}

interface PeriodFigures {
  user_growth: number;
  login_success_rate: number;
  login_second_steps: number;
  application_usage: number;
  security_incidents: number;
}

function figuresOf(days: Map<string, Counts>): PeriodFigures {
  const total = sumCounts(days.values());
  const successes = successesOf(total);
  return {
    user_growth: total.registered,
    login_success_rate: percentOf(successes, successes + failuresOf(total)),
    login_second_steps: secondStepsOf(total),
    application_usage: applicationsUsed(total),
    security_incidents: total.incidents,
  };
}

const chart = (range: Range, countOf: (day: string) => number): DayCount[] =>
  daysIn(range).map((date) => ({ date, count: countOf(date) }));

/** GET dashboard/stats/: docs/dashboard.md says what each figure counts. */
export function createStatsService({ db, clock, daily }: Deps) {
  async function stats(input: StatsInput, organization: OrganizationScope | null): Promise<StatsFigures> {
    const period = input.period ?? DEFAULT_PERIOD;
    const compare = input.compare ?? false;
    const now = clock.now();
    const { current, previous } = periodRanges(PERIOD_DAYS[period], now);
    const orgId = organization?.id;
    const counts = await daily.at(now);
    const [days, daysBefore, summary] = await Promise.all([
      counts.byDay(current, orgId),
      compare ? counts.byDay(previous, orgId) : undefined,
      Promise.all([
        orgId === undefined ? counts.netAccounts() : repo.memberAccounts(db, orgId),
        counts.activeAccounts(current, orgId),
        repo.organizationCount(db, orgId),
        repo.applicationCount(db),
        repo.activeSessions(db, now, orgId),
        repo.pendingDeletions(db, orgId),
      ]),
    ]);
    const [totalUsers, activeUsers, organizations, applications, sessions, deletions] = summary;
    const figures = figuresOf(days);
    const before = daysBefore ? figuresOf(daysBefore) : undefined;
    const trend = (key: keyof PeriodFigures) => (before ? trendOf(figures[key], before[key]) : figures[key]);
    return {
      period: {
        name: period, start: current.from.toISOString(), end: now.toISOString(),
        ...(compare ? { previous_start: previous.from.toISOString(), previous_end: new Date(previous.until.getTime() - 1).toISOString() } : {}),
      },
      summary: {
        total_users: totalUsers, active_users: activeUsers, total_organizations: organizations, total_applications: applications,
        active_sessions: sessions, pending_deletions: deletions,
      },
      trends: {
        user_growth: trend('user_growth'),
        login_success_rate: trend('login_success_rate'),
        login_second_steps: trend('login_second_steps'),
        application_usage: trend('application_usage'),
        security_incidents: trend('security_incidents'),
      },
      organization_context: organization ? { id: organization.id, name: organization.name, slug: organization.slug } : null,
      charts: {
        daily_logins: chart(current, (day) => (days.get(day) ? successesOf(days.get(day)!) : 0)),
        user_registrations: chart(current, (day) => days.get(day)?.registered ?? 0),
        security_events: chart(current, (day) => days.get(day)?.incidents ?? 0),
      },
    };
  }

  return { stats };
}

export type StatsService = ReturnType<typeof createStatsService>;
