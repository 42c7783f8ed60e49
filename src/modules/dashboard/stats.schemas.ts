import { Type, type Static } from 'typebox';
import { Nullable } from '../../http/schema.js';
import { DEFAULT_PERIOD, PERIOD_DAYS, type PeriodName } from './period.js';

export const Count = Type.Integer({ minimum: 0 });
export const Percent = Type.Number({ minimum: 0, maximum: 100, description: 'Percent, to two decimals' });
export const When = Type.String({ format: 'date-time' });

export const DayCount = Type.Object({ date: Type.String({ format: 'date', description: 'A UTC day' }), count: Count });
export type DayCount = Static<typeof DayCount>;

export const StatsQuery = Type.Object({
  period: Type.Optional(Type.Enum(Object.keys(PERIOD_DAYS) as PeriodName[], {
    default: DEFAULT_PERIOD, description: 'The UTC days ending today (today up to now)' })),
  compare: Type.Optional(Type.Boolean({ default: false, description: 'Each trend also for the period before, and the change' })),
});
export type StatsInput = Static<typeof StatsQuery>;

const TrendFigures = Type.Object({
  current: Type.Number(),
  previous: Type.Number(),
  change_percent: Nullable(Type.Number({ description: 'Relative change to two decimals: 0 when both are 0, null when only the previous is' })),
});
/** A trend is its figure for the period, or with `compare=true` the figure for both periods and the change. */
const Trend = (description: string) => Type.Union([Type.Number(), TrendFigures], { description });

/** GET dashboard/stats/ (docs/dashboard.md says what each figure counts). */
export const StatsResponse = Type.Object({
  period: Type.Object({
    name: Type.String(),
    start: When,
    end: When,
    previous_start: Type.Optional(When),
    previous_end: Type.Optional(When),
  }),
  summary: Type.Object({
    total_users: Type.Integer({ minimum: 0, description: 'Accounts not deleted' }),
    active_users: Type.Integer({ minimum: 0, description: 'Accounts with a successful sign-in during the period' }),
    total_organizations: Count,
    total_applications: Count,
    active_sessions: Type.Integer({ minimum: 0, description: 'Sessions neither revoked nor expired' }),
    pending_deletions: Type.Integer({ minimum: 0, description: 'Deletion requests pending, with confirmation sent, or confirmed' }),
  }),
  trends: Type.Object({
    user_growth: Trend('Accounts created during the period'),
    login_success_rate: Trend('Successful sign-in attempts per 100 successful or failed attempts during the period (second steps left out)'),
    login_second_steps: Trend('Sign-in attempts answered 2FA_REQUIRED or ADMIN_2FA_SETUP_REQUIRED during the period: neither succeeded nor failed'),
    application_usage: Trend('Applications with at least one successful sign-in during the period'),
    security_incidents: Trend('Accounts locked, refresh tokens reused, agent tokens suspended by their breakers'),
  }),
  organization_context: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() })),
  charts: Type.Object({
    daily_logins: Type.Array(DayCount, { description: 'Successful sign-ins per UTC day of the period' }),
    user_registrations: Type.Array(DayCount, { description: 'Accounts created per UTC day of the period' }),
    security_events: Type.Array(DayCount, { description: 'Security incidents per UTC day of the period' }),
  }),
});
export type StatsFigures = Static<typeof StatsResponse>;
