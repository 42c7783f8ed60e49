import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` leaves a route without the security headers (the interactive API references, which run scripts). */
    securityHeaders?: boolean;
  }
}

/**
 * The security headers of an API that answers JSON (OWASP REST Security Cheat Sheet): nothing in an answer may be
 * framed, scripted, loaded or sniffed, HTTPS is sticky, and no referrer leaves. Fixed values, so each answer
 * gets the same object; the browser-page headers of a website (DNS prefetch, download options, legacy XSS
 * filter) have nothing to protect here and are left out.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-site',
});

/** The API's limits (security headers per preset), on every answer but those of routes that opt out. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every answer and awaits nothing.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions.config?.securityHeaders !== false) reply.headers(SECURITY_HEADERS);
    done();
  });
}
