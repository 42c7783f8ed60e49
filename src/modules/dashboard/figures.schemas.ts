import { Type, type Static } from 'typebox';
import type { DeletionStatus } from '../../db/database.js';
import { Count, Percent } from './stats.schemas.js';

/** Every status of a deletion request (docs/decisions.md "Account deletion"), each always present in `by_status`. */
export const DELETION_STATUSES = ['pending', 'confirmation_sent', 'confirmed', 'completed', 'cancelled'] as const satisfies readonly DeletionStatus[];

const SECOND_STEP = 'Attempts answered 2FA_REQUIRED or ADMIN_2FA_SETUP_REQUIRED: neither succeeded nor failed';

const LoginTotals = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'Every attempt: success_count + failed_count + second_step_count' }),
  success_count: Count,
  failed_count: Type.Integer({ minimum: 0, description: 'Failed attempts, second steps not included' }),
  second_step_count: Type.Integer({ minimum: 0, description: SECOND_STEP }),
  success_rate: Type.Number({ minimum: 0, maximum: 100, description: 'success_count per 100 of success_count + failed_count, to two decimals' }),
});

/** The API's "Dashboard" GET dashboard/auth/ (docs/dashboard.md says what each figure counts). */
export const AuthFiguresResponse = Type.Object({
  login_stats: Type.Object({ today: LoginTotals, this_week: LoginTotals, this_month: LoginTotals },
    { description: 'Sign-in attempts since midnight UTC, since Monday, since the first of the month' }),
  login_by_method: Type.Record(Type.String(), Count, {
    description: 'Successful sign-ins of the last 30 days by method: password, phone_password, otp, magic_link, passkey '
      + '(always present) and social_<provider>' }),
  registration_stats: Type.Object({ today: Count, this_week: Count, this_month: Count }),
  token_stats: Type.Object({
    active_refresh_tokens: Type.Integer({ minimum: 0, description: 'Neither rotated, revoked nor expired' }),
    blacklisted_tokens: Type.Integer({ minimum: 0, description: 'Blacklisted access tokens not expired yet' }),
    expired_today: Type.Integer({ minimum: 0, description: 'Live refresh tokens that reached their expiry since midnight UTC' }),
  }),
  top_login_failure_reasons: Type.Array(Type.Object({ reason: Type.String(), count: Count }),
    { description: 'The ten most frequent reasons of failed attempts of the last 30 days (second steps are not failures)' }),
  charts: Type.Object({
    logins_per_day_7d: Type.Array(Type.Object({
      date: Type.String({ format: 'date' }), success: Count, failed: Count, second_step: Type.Integer({ minimum: 0, description: SECOND_STEP }),
    })),
  }),
});
export type AuthFigures = Static<typeof AuthFiguresResponse>;

/** The API's "Dashboard" GET dashboard/security/. */
export const SecurityFiguresResponse = Type.Object({
  audit_summary_24h: Type.Object({
    total: Count,
    by_severity: Type.Object({ info: Count, warning: Count, critical: Count }),
    by_event_type: Type.Record(Type.String(), Count),
  }, { description: 'Audit events of the last 24 hours' }),
  blacklisted_tokens: Type.Integer({ minimum: 0, description: 'Blacklisted access tokens not expired yet' }),
  suspicious_activity: Type.Object({
    last_24h: Type.Integer({ minimum: 0, description: 'Failed sign-in attempts of the last 24 hours' }),
    last_7d: Type.Integer({ minimum: 0, description: 'Failed sign-in attempts of the last 7 days' }),
    top_ips: Type.Array(Type.Object({ ip_address: Type.String(), events: Count }),
      { description: 'The ten addresses with the most failed attempts in the last 24 hours' }),
  }),
  account_security: Type.Object({
    locked_accounts: Count,
    banned_accounts: Count,
    '2fa_adoption_rate': Type.Number({ minimum: 0, maximum: 100, description: 'Accounts with 2FA per 100 accounts, to two decimals' }),
    password_changes_today: Count,
  }),
});
export type SecurityFigures = Static<typeof SecurityFiguresResponse>;

/** The API's "Dashboard" GET dashboard/gdpr/. */
export const GdprFiguresResponse = Type.Object({
  deletion_requests: Type.Object({
    total: Count,
    by_status: Type.Object({ pending: Count, confirmation_sent: Count, confirmed: Count, completed: Count, cancelled: Count }),
    grace_period_expiring_7d: Type.Integer({ minimum: 0, description: 'Confirmed requests whose grace period ends within 7 days' }),
  }),
  data_exports: Type.Object({ total_today: Count, total_this_month: Count }),
});
export type GdprFigures = Static<typeof GdprFiguresResponse>;
