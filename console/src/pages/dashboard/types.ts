/**
 * The dashboard endpoints' answers, as the server's OpenAPI document describes them (api-types.ts, generated:
 * docs/console.md).
 */
import type { Answer } from '../../api';

export type PeriodName = '7d' | '30d' | '90d';

export type DayCount = Stats['charts']['daily_logins'][number];

/** A number, or with `compare=true` both periods' figures and the change. */
export type Trend = Stats['trends']['user_growth'];
export type TrendFigures = Exclude<Trend, number>;

export type Stats = Answer<'dashboard/stats/'>;

export type AuthFigures = Answer<'dashboard/auth/'>;

export type SecurityFigures = Answer<'dashboard/security/'>;

export type GdprFigures = Answer<'dashboard/gdpr/'>;

export type OrganizationFigures = Answer<'dashboard/organizations/'>;
