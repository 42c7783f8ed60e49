/** The dashboard endpoints' answers, as src/modules/dashboard/*.schemas.ts describe them. */

export type PeriodName = '7d' | '30d' | '90d';

export interface DayCount {
  date: string;
  count: number;
}

export interface TrendFigures {
  current: number;
  previous: number;
  change_percent: number | null;
}

/** A number, or with `compare=true` both periods' figures and the change. */
export type Trend = number | TrendFigures;

export interface Stats {
  period: { name: string; start: string; end: string; previous_start?: string; previous_end?: string };
  summary: {
    total_users: number;
    active_users: number;
    total_organizations: number;
    total_applications: number;
    active_sessions: number;
    pending_deletions: number;
  };
  trends: {
    user_growth: Trend;
    /** Successes per 100 successes and failures: the second steps are neither. */
    login_success_rate: Trend;
    /** Attempts answered "2FA required" or "2FA setup required". */
    login_second_steps: Trend;
    application_usage: Trend;
    security_incidents: Trend;
  };
  organization_context: { id: number; name: string; slug: string } | null;
  charts: { daily_logins: DayCount[]; user_registrations: DayCount[]; security_events: DayCount[] };
}

interface LoginTotals {
  total: number;
  success_count: number;
  failed_count: number;
  second_step_count: number;
  success_rate: number;
}

export interface AuthFigures {
  login_stats: { today: LoginTotals; this_week: LoginTotals; this_month: LoginTotals };
  login_by_method: Record<string, number>;
  registration_stats: { today: number; this_week: number; this_month: number };
  token_stats: { active_refresh_tokens: number; blacklisted_tokens: number; expired_today: number };
  top_login_failure_reasons: Array<{ reason: string; count: number }>;
  charts: { logins_per_day_7d: Array<{ date: string; success: number; failed: number; second_step: number }> };
}

export interface SecurityFigures {
  audit_summary_24h: { total: number; by_severity: { info: number; warning: number; critical: number }; by_event_type: Record<string, number> };
  blacklisted_tokens: number;
  suspicious_activity: { last_24h: number; last_7d: number; top_ips: Array<{ ip_address: string; events: number }> };
  account_security: { locked_accounts: number; banned_accounts: number; '2fa_adoption_rate': number; password_changes_today: number };
}

export interface GdprFigures {
  deletion_requests: {
    total: number;
    by_status: { pending: number; confirmation_sent: number; confirmed: number; completed: number; cancelled: number };
    grace_period_expiring_7d: number;
  };
  data_exports: { total_today: number; total_this_month: number };
}

export type OrganizationFigures = { enabled: false } | {
  enabled: true;
  total_organizations: number;
  active: number;
  with_sub_orgs: number;
  members: { total: number; avg_per_org: number; by_role: { owner: number; admin: number; member: number } };
  top_organizations: Array<{ name: string; slug: string; members: number }>;
};
