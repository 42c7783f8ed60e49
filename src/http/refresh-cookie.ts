import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/settings.js';
import { AppError } from '../core/errors.js';

/**
 * Refresh-token cookie mode (DECISIONS.md): HttpOnly, Secure unless debug, SameSite=Strict, Path = the API
 * prefix, Max-Age = the refresh lifetime. Requests that rely on the cookie must be JSON and, when the
 * application lists allowed origins, come from one of them — a cross-site form cannot do either.
 */
export function createRefreshCookie(config: Config) {
  const name = config.REFRESH_TOKEN_COOKIE_NAME;
  const options = (maxAge: number) => ({
    httpOnly: true, secure: !config.DEBUG, sameSite: 'strict' as const, path: config.API_PREFIX, maxAge,
  });
  // Cookies are read and written here only, so no request pays for a cookie hook (`@fastify/cookie` runs with
  // `hook: false` and serves its parser and serializer).
  const set = (reply: FastifyReply, raw: string, maxAge: number) =>
    reply.header('set-cookie', reply.server.serializeCookie(name, raw, options(maxAge)));
  return {
    enabled: config.REFRESH_TOKEN_COOKIE_ENABLED,
    set,
    clear: (reply: FastifyReply) => set(reply, '', 0),
    /** A token answer as sent: in cookie mode the refresh token travels only in the HttpOnly cookie, never in JSON. */
    withCookie<T extends object>(reply: FastifyReply, body: T): T {
      const tokens = body as { refresh_token?: string; refresh_expires_in?: number };
      if (!config.REFRESH_TOKEN_COOKIE_ENABLED || !tokens.refresh_token) return body;
      set(reply, tokens.refresh_token, tokens.refresh_expires_in ?? config.JWT_REFRESH_TOKEN_LIFETIME);
      const { refresh_token: _omitted, ...rest } = tokens;
      return rest as T;
    },
    /** The refresh token from the body, or — in cookie mode, when the body has none — from the cookie. */
    read(req: FastifyRequest, fromBody: string | undefined): string | undefined {
      if (fromBody) return fromBody;
      if (!config.REFRESH_TOKEN_COOKIE_ENABLED) return undefined;
      const header = req.headers.cookie;
      const raw = header ? req.server.parseCookie(header)[name] : undefined;
      if (!raw) return undefined;
      if (!/^application\/([a-z0-9.+-]*\+)?json\b/i.test(req.headers['content-type'] ?? '')) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      const allowed = req.application?.allowed_origins ?? [];
      if (allowed.length > 0 && !allowed.includes(req.headers.origin ?? '')) throw new AppError('ORIGIN_NOT_ALLOWED');
      return raw;
    },
  };
}

export type RefreshCookie = ReturnType<typeof createRefreshCookie>;
