import { randomBytes } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicUrlOf } from '../../config/settings.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { normalizeEmail } from '../users/contact.js';
import type { InteractionView } from './oauth.service.js';
import { consentPage, errorPage, PAGE_CSS, PAGE_CSS_PATH, pageLanguage, pagePolicy, signInPage, totpPage } from './pages.js';
import { interactionPath, OAUTH_ROUTES } from './provider.js';

const CSRF_COOKIE = 'gatehouse_oauth_csrf';
/** The protocol's own paths, answered by the provider (the key set stays with the keys module). */
const PROVIDER_PATHS = [OAUTH_ROUTES.authorization, `${OAUTH_ROUTES.authorization}/:uid`, OAUTH_ROUTES.token, OAUTH_ROUTES.userinfo,
  OAUTH_ROUTES.introspection, OAUTH_ROUTES.revocation, OAUTH_ROUTES.end_session, `${OAUTH_ROUTES.end_session}/confirm`,
  `${OAUTH_ROUTES.end_session}/success`, `${OAUTH_ROUTES.registration}/:clientId`, '/.well-known/openid-configuration'];

type Form = Record<string, string | undefined>;

/**
 * The authorization server at the host root (docs/oauth.md): the protocol's endpoints, handed to the provider with their
 * bodies unread, and the sign-in and consent pages — HTML forms with a CSRF field bound to an HttpOnly cookie, posted
 * from the issuer's origin only, under a strict Content-Security-Policy.
 */
export default async function oauthRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { config } = container;
  if (!config.OAUTH_ENABLED) return;
  const { oauth } = container.services;
  const issuer = new URL(publicUrlOf(config));
  const secureCookie = issuer.protocol === 'https:';
  const signInLimit = guards.rateLimit('oauth-sign-in', [{ max: 5, per: 'minute' }, { max: 20, per: 'hour' }]);

  // The provider reads each body itself: no parser here touches the stream.
  await app.register(async (protocol) => {
    protocol.removeAllContentTypeParsers();
    protocol.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const handOver = async (req: FastifyRequest, reply: FastifyReply, url?: string) => {
      const handler = await oauth.handler();
      reply.hijack();
      if (url) req.raw.url = url;
      handler(req.raw, reply.raw);
    };
    for (const url of PROVIDER_PATHS) {
      protocol.route({ method: ['GET', 'POST', 'OPTIONS'], url, schema: { hide: true }, handler: (req, reply) => handOver(req, reply) });
    }
    // Dynamic registration creates clients for anyone who asks: a few per address (docs/oauth.md "Dynamic registration").
    protocol.route({ method: ['GET', 'POST', 'OPTIONS'], url: OAUTH_ROUTES.registration, schema: { hide: true },
      onRequest: [guards.rateLimit('oauth-register', [{ max: 10, per: 'hour' }, { max: 30, per: 'day' }])],
      handler: (req, reply) => handOver(req, reply) });
    // RFC 8414's document is OpenID Discovery's: the same one.
    protocol.route({ method: ['GET', 'OPTIONS'], url: '/.well-known/oauth-authorization-server', schema: { hide: true },
      handler: (req, reply) => handOver(req, reply, '/.well-known/openid-configuration') });
  });

  await app.register(async (pages) => {
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => done(null, parseQuery(body as string)));

    pages.get(PAGE_CSS_PATH, { schema: { hide: true } }, async (_req, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PAGE_CSS));

    /** The CSRF cookie of this browser, set when it has none. */
    function csrfCookie(req: FastifyRequest, reply: FastifyReply): string {
      const existing = app.parseCookie(req.headers.cookie ?? '')[CSRF_COOKIE];
      if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
      const value = randomBytes(32).toString('base64url');
      reply.raw.appendHeader('set-cookie', app.serializeCookie(CSRF_COOKIE, value,
        { httpOnly: true, sameSite: 'lax', secure: secureCookie, path: '/oauth/interaction' }));
      return value;
    }

    /** Writes a page (the reply was handed over to the raw response: the provider may have set its cookies on it). */
    function send(reply: FastifyReply, status: number, html: string, formAction: string[] = []) {
      const res = reply.raw;
      res.statusCode = status;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.setHeader('content-security-policy', pagePolicy(formAction));
      res.setHeader('x-frame-options', 'DENY');
      // same-origin: the pages' own forms carry their Origin (no-referrer would send "null"), other sites get no referrer.
      res.setHeader('referrer-policy', 'same-origin');
      res.end(html);
    }

    function render(req: FastifyRequest, reply: FastifyReply, v: InteractionView) {
      const csrfToken = oauth.csrfTokenFor(csrfCookie(req, reply), v.uid);
      const base = { lang: v.lang, csrfToken, clientName: v.clientName };
      const path = interactionPath(v.uid);
      if (v.page === 'sign_in') return send(reply, 200, signInPage({ ...base, action: `${path}/login`, refusal: v.refusal, email: v.email }));
      if (v.page === 'second_factor') return send(reply, 200, totpPage({ ...base, action: `${path}/second-factor`, refusal: v.refusal }));
      // Approving sends the browser on to the client: its origin is a form target too.
      return send(reply, 200, consentPage({ ...base, action: `${path}/consent`, redirectHost: v.redirectHost, unverified: v.unverified,
        scopes: v.scopes, account: v.account, limits: v.limits, refusal: v.refusal }), [v.redirectOrigin]);
    }

    /** Runs a step of a page; an interaction that is unknown, expired or not this browser's is an error page. */
    async function step(req: FastifyRequest, reply: FastifyReply, run: () => Promise<InteractionView | null | void>) {
      reply.hijack();
      try {
        const next = await run();
        if (next) render(req, reply, next);
      } catch (err) {
        const e = err as { name?: string; error?: string; error_description?: string; statusCode?: number };
        if (reply.raw.headersSent) return;
        const lang = pageLanguage(undefined, req.headers['accept-language']);
        if (e.error) return send(reply, e.statusCode ?? 400, errorPage(lang, e.error, e.error_description));
        req.log.error({ err }, 'authorization page failed');
        send(reply, 500, errorPage(lang, 'server_error', undefined));
      }
    }

    /** A form may be posted only from the issuer's pages, with the CSRF field of this browser and interaction. */
    function formAllowed(req: FastifyRequest<{ Params: { uid: string } }>, form: Form): boolean {
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== issuer.origin) return false;
      const cookie = app.parseCookie(req.headers.cookie ?? '')[CSRF_COOKIE];
      return oauth.csrfMatches(cookie, req.params.uid, form.csrf_token);
    }

    const forbidden = (req: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      send(reply, 403, errorPage(pageLanguage(undefined, req.headers['accept-language']), 'invalid_request',
        'This form was not sent from this page.'));
    };

    pages.get<{ Params: { uid: string } }>('/oauth/interaction/:uid', { schema: { hide: true } }, (req, reply) =>
      step(req, reply, () => oauth.view(req.raw, reply.raw)));

    pages.post<{ Params: { uid: string }; Body: Form }>('/oauth/interaction/:uid/login', { schema: { hide: true }, onRequest: [signInLimit] },
      (req, reply) => {
        const form = req.body ?? {};
        if (!formAllowed(req, form)) return forbidden(req, reply);
        return step(req, reply, () => oauth.signIn(req.raw, reply.raw,
          { email: normalizeEmail(String(form.email ?? '')), password: String(form.password ?? '') }, metaOf(req, 'oauth_password')));
      });

    pages.post<{ Params: { uid: string }; Body: Form }>('/oauth/interaction/:uid/second-factor',
      { schema: { hide: true }, onRequest: [signInLimit] }, (req, reply) => {
        const form = req.body ?? {};
        if (!formAllowed(req, form)) return forbidden(req, reply);
        return step(req, reply, () => oauth.secondFactor(req.raw, reply.raw, { totp_code: String(form.totp_code ?? '') },
          metaOf(req, 'oauth_password')));
      });

    pages.post<{ Params: { uid: string }; Body: Form }>('/oauth/interaction/:uid/consent', { schema: { hide: true } }, (req, reply) => {
      const form = req.body ?? {};
      if (!formAllowed(req, form)) return forbidden(req, reply);
      return step(req, reply, () => oauth.consent(req.raw, reply.raw, form));
    });
  });
}
