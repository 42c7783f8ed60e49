/**
 * The audit log's and the login attempts' rows, as the server's OpenAPI document describes them (api-types.ts, generated:
 * docs/console.md).
 */
import type { Answer, Row } from '../../api';

/** An audit event: a row of `GET admin/audit-logs/`, and `GET admin/audit-logs/<id>/`. */
export type AuditEvent = Answer<'admin/audit-logs/{id}/'>;

/** `GET admin/login-attempts/` rows. */
export type LoginAttempt = Row<'admin/login-attempts/'>;
