import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { DELETION_STATUSES, type GdprFigures } from './figures.schemas.js';
import * as repo from './gdpr-figures.repo.js';
import { addDays, calendarRanges, throughNow } from './period.js';

type Deps = { db: Db; clock: Clock };

/** GET dashboard/gdpr/: docs/dashboard.md says what each figure counts. */
export function createGdprFiguresService({ db, clock }: Deps) {
  async function gdpr(): Promise<GdprFigures> {
    const now = clock.now();
    const { today, this_month: month } = calendarRanges(now);
    const [statuses, expiring, exports] = await Promise.all([
      repo.deletionRequestsByStatus(db),
      repo.graceEndingBetween(db, throughNow(now, addDays(now, 7))),
      repo.exportCounts(db, today.from, month.from, month.until),
    ]);
    const byStatus = Object.fromEntries(DELETION_STATUSES.map((s) => [s, 0])) as GdprFigures['deletion_requests']['by_status'];
    for (const row of statuses) if (row.status in byStatus) byStatus[row.status as keyof typeof byStatus] = row.n;
    return {
      deletion_requests: {
        total: statuses.reduce((n, r) => n + r.n, 0),
        by_status: byStatus,
        grace_period_expiring_7d: expiring,
      },
      data_exports: { total_today: exports.today, total_this_month: exports.this_month },
    };
  }

  return { gdpr };
}

export type GdprFiguresService = ReturnType<typeof createGdprFiguresService>;
