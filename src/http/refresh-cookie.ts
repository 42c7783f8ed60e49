import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/settings.js';
import { AppError } from '../core/errors.js';
import type { AppContext } from '../modules/applications/applications.service.js';

/**
 * Refresh-token cookie mode (docs/authentication.md "Cookie mode"): HttpOnly, Secure unless debug, SameSite=Strict, Path = the API
 * prefix, Max-Age = the refresh lifetime. Requests that rely on the cookie must be JSON and, when the
 * application lists allowed origins, come from one of them — a cross-site form cannot do either.
 * While the root refresh alias is on (docs/migrating-from-tenxyte.md, rule 1) the Path is `/`, or the browser would not send the
 * cookie to `/auth/refresh/`.
 *
 * The mode is decided per request: on for every application while SVC_REFRESH_TOKEN_COOKIE_ENABLED is on, and always
 * for a public application (docs/decisions.md "Public applications"), whose refresh tokens must never reach page script.
 */
export function createRefreshCookie(config: Config) {
  const name = config.REFRESH_TOKEN_COOKIE_NAME;
  const path = config.ROOT_REFRESH_ALIAS ? '/' : config.API_PREFIX;
  const options = (maxAge: number) => ({
    httpOnly: true, secure: !config.DEBUG, sameSite: 'strict' as const, path, maxAge,
  });
  // Cookies are read and written here only, so no request pays for a cookie hook (`@fastify/cookie` runs with
  // `hook: false` and serves its parser and serializer).
  const set = (reply: FastifyReply, raw: string, maxAge: number) =>
    reply.header('set-cookie', reply.server.serializeCookie(name, raw, options(maxAge)));
  /** Cookie mode for a request of this application: the switch, or a public application. */
  const enabledFor = (application: Pick<AppContext, 'kind'> | null | undefined): boolean =>
    config.REFRESH_TOKEN_COOKIE_ENABLED || application?.kind === 'public';
  /**
   * The refresh token from the body, or — in cookie mode (`cookieMode`, the request's application's by default), when
   * the body has none — from the cookie (only from a JSON request), with where it came from. The caller checks the
   * Origin of a cookie-borne token (`assertOrigin`).
   */
  function take(req: FastifyRequest, fromBody: string | undefined, cookieMode = enabledFor(req.application)):
    { raw: string; fromCookie: boolean } | undefined {
    if (fromBody) return { raw: fromBody, fromCookie: false };
    if (!cookieMode) return undefined;
    const header = req.headers.cookie;
    const raw = header ? req.server.parseCookie(header)[name] : undefined;
    if (!raw) return undefined;
    if (!/^application\/([a-z0-9.+-]*\+)?json\b/i.test(req.headers['content-type'] ?? '')) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    return { raw, fromCookie: true };
  }
  /** A request relying on the cookie comes from one of the application's origins when it lists any. */
  function assertOrigin(req: FastifyRequest, application: Pick<AppContext, 'allowed_origins'> | null) {
    const allowed = application?.allowed_origins ?? [];
    if (allowed.length > 0 && !allowed.includes(req.headers.origin ?? '')) throw new AppError('ORIGIN_NOT_ALLOWED');
  }
  return {
    enabledFor,
    set,
    clear: (reply: FastifyReply) => set(reply, '', 0),
    /**
     * A token answer as sent: in cookie mode (the request's application's) the refresh token travels only in the HttpOnly
     * cookie, never in JSON — neither as `refresh_token` nor as the passkey answer's `refresh` (then null).
     */
    withCookie<T extends object>(reply: FastifyReply, body: T): T {
      const tokens = body as { refresh_token?: string; refresh_expires_in?: number; refresh?: string | null };
      if (!enabledFor(reply.request.application) || !tokens.refresh_token) return body;
      set(reply, tokens.refresh_token, tokens.refresh_expires_in ?? config.JWT_REFRESH_TOKEN_LIFETIME);
      const { refresh_token: _omitted, ...rest } = tokens;
      return ('refresh' in rest ? { ...rest, refresh: null } : rest) as T;
    },
    take,
    assertOrigin,
    /** The refresh token from the body or the cookie, the cookie checked against the calling application's origins. */
    read(req: FastifyRequest, fromBody: string | undefined): string | undefined {
      const found = take(req, fromBody);
      if (found?.fromCookie) assertOrigin(req, req.application);
      return found?.raw;
    },
  };
}

export type RefreshCookie = ReturnType<typeof createRefreshCookie>;
