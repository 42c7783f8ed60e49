import type { InSql } from '../sessions/session-rules.js';

/**
 * The `login` audit event of a successful sign-in, written once for the two ways a sign-in records it: the
 * transaction (`lockout.repo.ts` `insertLoginRecords`) and the one-statement login (`login.repo.ts`).
 */
export const LOGIN_AUDIT_EVENT = { event_type: 'login', severity: 'info' } as const;

/** The event's details. */
export type LoginAuditDetails = {
  method: string;
  session_id: number;
};

/** The event's details, given as values or as the SQL expressions giving them: every field named, so both ways give each one. */
export function loginAuditDetails(d: LoginAuditDetails): LoginAuditDetails;
export function loginAuditDetails(d: InSql<LoginAuditDetails>): InSql<LoginAuditDetails>;
export function loginAuditDetails(d: LoginAuditDetails | InSql<LoginAuditDetails>) {
  return { method: d.method, session_id: d.session_id };
}
