import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import type { DailyCountsService } from './daily-counts.service.js';
import type { SecurityFigures } from './figures.schemas.js';
import { addDays, calendarRanges, percentOf, throughNow } from './period.js';
import * as repo from './security-figures.repo.js';

type Deps = { db: Db; clock: Clock; daily: DailyCountsService };

/** Events that replace or set an account's password. */
export const PASSWORD_CHANGE_EVENTS = ['password_change', 'password_reset', 'password_set'] as const;
const TOP_ADDRESSES = 10;

/** GET dashboard/security/: docs/dashboard.md says what each figure counts. */
export function createSecurityFiguresService({ db, clock, daily }: Deps) {
  async function security(): Promise<SecurityFigures> {
    const now = clock.now();
    const lastDay = throughNow(addDays(now, -1), now);
    const [events, blacklisted, failed, addresses, flags, passwordChanges, accounts] = await Promise.all([
      repo.auditEventCounts(db, lastDay),
      repo.blacklistedTokens(db, now),
      repo.failedAttempts(db, lastDay.from, addDays(now, -7), lastDay.until),
      repo.topFailingAddresses(db, lastDay, TOP_ADDRESSES),
      repo.accountFlags(db, now),
      repo.eventCount(db, PASSWORD_CHANGE_EVENTS, calendarRanges(now).today),
      daily.at(now).then((counts) => counts.netAccounts()),
    ]);
    const bySeverity = { info: 0, warning: 0, critical: 0 };
    const byType: Record<string, number> = {};
    for (const e of events) {
      if (e.severity in bySeverity) bySeverity[e.severity as keyof typeof bySeverity] += e.n;
      byType[e.event_type] = (byType[e.event_type] ?? 0) + e.n;
    }
    return {
      audit_summary_24h: {
        total: events.reduce((n, e) => n + e.n, 0),
        by_severity: bySeverity,
        by_event_type: Object.fromEntries(Object.entries(byType).sort(([a], [b]) => (a < b ? -1 : 1))),
      },
      blacklisted_tokens: blacklisted,
      suspicious_activity: { last_24h: failed.last_24h, last_7d: failed.last_7d, top_ips: addresses },
      account_security: {
        locked_accounts: flags.locked,
        banned_accounts: flags.banned,
        '2fa_adoption_rate': percentOf(flags.with_2fa, accounts),
        password_changes_today: passwordChanges,
      },
    };
  }

  return { security };
}

export type SecurityFiguresService = ReturnType<typeof createSecurityFiguresService>;
