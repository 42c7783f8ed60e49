import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { createAuthFiguresService } from './auth-figures.service.js';
import { createDailyCountsService } from './daily-counts.service.js';
import * as repo from './dashboard.repo.js';
import type { OrganizationFigures } from './dashboard.schemas.js';
import { createGdprFiguresService } from './gdpr-figures.service.js';
import { createSecurityFiguresService } from './security-figures.service.js';
import { createStatsService } from './stats.service.js';

type Deps = { db: Db; clock: Clock; config: Config };

/** Two decimals: a dashboard figure, not an exact ratio. */
const perOrganization = (members: number, organizations: number) =>
  organizations === 0 ? 0 : Math.round((members / organizations) * 100) / 100;

/**
 * docs/dashboard.md: figures for holders of `dashboard.view`, from counting queries on the source tables (and, for
 * the hours that have ended, from their counts kept in `dashboard_counts`), one service per endpoint.
 */
export function createDashboardService({ db, clock, config }: Deps) {
  const daily = createDailyCountsService({ db });

  /** GET dashboard/organizations/: `{enabled: false}` while organizations are off. */
  async function organizations(): Promise<OrganizationFigures | { enabled: false }> {
    if (!config.ORGANIZATIONS_ENABLED) return { enabled: false };
    const [orgs, members] = await Promise.all([repo.countOrganizations(db), repo.memberFigures(db)]);
    return {
      enabled: true,
      total_organizations: orgs.total,
      active: orgs.active,
      with_sub_orgs: orgs.with_sub_orgs,
      members: {
        total: members.total,
        avg_per_org: perOrganization(members.total, orgs.total),
        by_role: { owner: members.by_role.owner ?? 0, admin: members.by_role.admin ?? 0, member: members.by_role.member ?? 0 },
      },
      top_organizations: members.top,
    };
  }

  return {
    organizations,
    /** The `dashboard-counts` job's work: count every ended hour once. */
    closeSettledHours: () => daily.closeSettled(clock.now()),
    ...createStatsService({ db, clock, daily }),
    ...createAuthFiguresService({ db, clock, daily }),
    ...createSecurityFiguresService({ db, clock, daily }),
    ...createGdprFiguresService({ db, clock }),
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
