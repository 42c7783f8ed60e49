import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `{ skipRoute: true }` leaves a route without the security headers (the interactive API references). */
    helmet?: { skipRoute?: boolean };
  }
}

/** Our policy: an API answers JSON, so nothing may be framed, scripted or loaded from its answers. */
const HELMET_OPTIONS = {
  contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'same-site' as const },
};

/**
 * The headers helmet sets for this policy, computed once: they do not depend on the request, so each answer
 * gets a copy instead of a run of helmet's middleware (and its CSP parsing) per request.
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => { headers[name.toLowerCase()] = String(value); },
    removeHeader: (name: string) => { delete headers[name.toLowerCase()]; },
  };
  helmet(HELMET_OPTIONS)({} as never, res as never, (err?: unknown) => { if (err) throw err; });
  return headers;
}

/** SPEC.md security headers, on every answer but those of routes that opt out. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = securityHeaders();
  app.addHook('onRequest', async (req, reply) => {
    if (!req.routeOptions.config?.helmet?.skipRoute) reply.headers(headers);
  });
}
