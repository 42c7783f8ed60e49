import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CATALOGUE, type ErrorCode } from '../core/errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { toFieldErrors } from './validation.js';

/** Fastify's own error codes mapped onto the catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

const NON_FIELD_MESSAGES: Record<string, string> = {
  INVALID_JSON: 'Malformed JSON body.',
  FORBIDDEN_JSON_KEY: 'JSON body contains a forbidden key (__proto__ or constructor.prototype).',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body.',
  FST_ERR_BAD_URL: 'Malformed URL.',
  NUL_IN_JSON: 'Text cannot contain the NUL character.',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long.',
};

/** Seconds a client is told to wait when the database cannot be reached: about what a failover or restart takes. */
export const DATABASE_RETRY_AFTER = 5;

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  details?: unknown;
  [extra: string]: unknown;
}

export function bodyFor(err: AppError): ErrorBody | Record<string, unknown> {
  if (err.opts.bare) return err.opts.details as Record<string, unknown>;
  return {
    error: err.message,
    code: err.code,
    ...(err.opts.details !== undefined ? { details: err.opts.details } : {}),
    ...err.opts.extra,
  };
}

/**
 * Any thrown value → an AppError with its catalogue code and the shape of docs/api.md "Errors". A database that cannot be reached is 503
 * SERVICE_UNAVAILABLE with `retry_after` (and so `Retry-After`): the client may try again. Other unknown errors become 500 INTERNAL_ERROR.
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) {
    return new AppError('SERVICE_UNAVAILABLE', { extra: { retry_after: DATABASE_RETRY_AFTER } });
  }
  // `throw undefined` / `throw null` reach here too: read them as an empty object, never crash.
  const e = (err ?? {}) as FastifyError & { validation?: unknown };
  if (Array.isArray(e.validation)) return AppError.validation(toFieldErrors(e.validation));
  const code = e.code ?? '';
  if (Object.hasOwn(FASTIFY_CODES, code)) return new AppError(FASTIFY_CODES[code]!);
  if (Object.hasOwn(NON_FIELD_MESSAGES, code)) return AppError.validation({ non_field_errors: [NON_FIELD_MESSAGES[code]!] });
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 404) return new AppError('NOT_FOUND');
  if (status === 405) return new AppError('METHOD_NOT_ALLOWED');
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (status >= 400 && status < 500) return AppError.validation({ non_field_errors: ['Bad request.'] });
  return new AppError('INTERNAL_ERROR');
}

/**
 * The `Retry-After` header of a body's `retry_after`, so every 429, 423 and 503 carries both: the Tenxyte SDK reads only
 * the header (docs/migrating-from-tenxyte.md, rule 17). Seconds are sent as they are; a timestamp (the 423 of login/otp/verify/, docs/authentication.md)
 * as an HTTP-date, the header's other form (RFC 9110 §10.2.3), which needs no clock here.
 */
export function retryAfterHeader(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(Math.max(0, Math.ceil(value)));
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : new Date(at).toUTCString();
}

export function errorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  let appErr = toAppError(err);
  // A route may answer its validation errors as a bare field map (organization create, docs/organizations.md "Endpoints").
  if (appErr.code === 'VALIDATION_ERROR' && !appErr.opts.bare && req.routeOptions?.config?.bareValidationErrors) {
    appErr = new AppError('VALIDATION_ERROR', { ...appErr.opts, bare: true });
  }
  if (appErr.code === 'INTERNAL_ERROR' && !(err instanceof AppError)) {
    req.log.error({ err }, 'unhandled error');
  } else if (appErr.code === 'SERVICE_UNAVAILABLE' && !(err instanceof AppError)) {
    // The driver's message and code only: enough to tell a refusal from a timeout, nothing of the query.
    const { message, code } = err as { message?: unknown; code?: unknown };
    req.log.error({ code: appErr.code, cause: { message, code } }, 'database unavailable');
  } else if (appErr.status >= 500) {
    req.log.error({ code: appErr.code }, appErr.message);
  }
  if (appErr.opts.headers) reply.headers(appErr.opts.headers);
  const retryAfter = retryAfterHeader(appErr.opts.extra?.retry_after);
  if (retryAfter !== undefined && !reply.hasHeader('retry-after')) reply.header('retry-after', retryAfter);
  // Error answers are never cached, including 404/405 under the API prefix (answered outside its hooks).
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  return reply.code(appErr.status).type('application/json; charset=utf-8').send(bodyFor(appErr));
}

export const catalogueStatus = (code: ErrorCode): number => ERROR_CATALOGUE[code].status;
