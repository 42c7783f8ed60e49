/** True when a query failed on a unique constraint (SQLSTATE 23505), on PostgreSQL and PGlite alike. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown })?.code === '23505';

/**
 * SQLSTATE classes and codes that say the database cannot serve right now, not that the query is wrong:
 * connection exceptions (08), insufficient resources such as `too many clients` (53), and a server shutting down,
 * starting up or cancelling a statement at `statement_timeout` or a lock wait at `lock_timeout`.
 */
const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53'];
const UNAVAILABLE_SQLSTATES = new Set([
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '57P05', // idle_session_timeout
  '25P03', // idle_in_transaction_session_timeout
  '55P03', // lock_not_available (lock_timeout)
]);

/** Socket errors of a peer that is down, unreachable or gone. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH',
  'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN',
]);

/** What `pg` and `pg-pool` say, without a code, when a connection cannot be had or dies under a query. */
const UNAVAILABLE_DRIVER_MESSAGES = new Set([
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/** Causes and the parts of an `AggregateError` (one per address tried) are looked into this deep. */
const MAX_DEPTH = 3;

/**
 * True when `err` says PostgreSQL cannot be reached or cannot serve right now (refused, reset, timed out,
 * overloaded, shutting down), so the request may succeed later: the caller answers 503, not 500.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > MAX_DEPTH) return false;
  const { code, message, cause, errors } = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (code.length === 5 && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_DRIVER_MESSAGES.has(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
