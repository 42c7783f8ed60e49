import { randomBytes } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicUrlOf } from '../../config/settings.js';
import { actorMetaOf, metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { normalizeEmail } from '../users/contact.js';
import type { InteractionView } from './oauth.service.js';
import { consentPage, errorPage, PAGE_CSS, PAGE_CSS_PATH, pageLanguage, pagePolicy, PASSKEY_SCRIPT_PATH, signInPage, totpPage } from './pages.js';
import { PASSKEY_SCRIPT } from './passkey-script.js';
import { interactionPath } from './provider.js';

const CSRF_COOKIE = 'gatehouse_oauth_csrf';
/** Binds a provider's sign-in started on these pages to the browser that started it (docs/oauth.md "Sign-in and consent"). */
const SOCIAL_COOKIE = 'gatehouse_oauth_social';
const SOCIAL_COOKIE_PATH = '/oauth/social';

type Form = Record<string, string | undefined>;
type UidParams = { Params: { uid: string } };

/**
 * The authorization server's sign-in and consent pages (docs/oauth.md "Sign-in and consent"): HTML forms with a CSRF
 * field bound to an HttpOnly cookie, posted from the issuer's origin only, under a strict Content-Security-Policy; the
 * passkey ceremony of the sign-in page, and the way to a social provider and back.
 */
export default async function oauthPageRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { config } = container;
  if (!config.OAUTH_ENABLED) return;
  const { oauth, oauthSignInMethods: methods } = container.services;
  const offered = oauth.methods;
  const issuer = new URL(publicUrlOf(config));
  const secureCookie = issuer.protocol === 'https:';
  const signInLimit = guards.rateLimit('oauth-sign-in', [{ max: 5, per: 'minute' }, { max: 20, per: 'hour' }]);

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => done(null, parseQuery(body as string)));

  app.get(PAGE_CSS_PATH, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PAGE_CSS));
  if (offered.passkeys) {
    app.get(PASSKEY_SCRIPT_PATH, { schema: { hide: true } }, async (_req, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PASSKEY_SCRIPT));
  }

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
  function send(reply: FastifyReply, status: number, html: string, formAction: string[] = [], script = false) {
    const res = reply.raw;
    res.statusCode = status;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.setHeader('content-security-policy', pagePolicy(formAction, { script }));
    res.setHeader('x-frame-options', 'DENY');
    // same-origin: the pages' own forms carry their Origin (no-referrer would send "null"), other sites get no referrer.
    res.setHeader('referrer-policy', 'same-origin');
    res.end(html);
  }

  /** Sends the browser on (303), without a body. */
  function redirect(reply: FastifyReply, location: string, cookie?: string) {
    const res = reply.raw;
    if (cookie) res.appendHeader('set-cookie', cookie);
    res.statusCode = 303;
    res.setHeader('location', location);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('referrer-policy', 'no-referrer');
    res.end();
  }

  function render(req: FastifyRequest, reply: FastifyReply, v: InteractionView) {
    const csrfToken = oauth.csrfTokenFor(csrfCookie(req, reply), v.uid);
    const base = { lang: v.lang, csrfToken, clientName: v.clientName };
    const path = interactionPath(v.uid);
    if (v.page === 'sign_in') {
      const alternatives = {
        passkey: v.methods.passkeys ? { optionsAction: `${path}/passkey/options`, action: `${path}/passkey` } : undefined,
        social: v.methods.social.map((name) => ({ name, href: `${path}/social/${encodeURIComponent(name)}` })),
      };
      return send(reply, 200, signInPage({ ...base, action: `${path}/login`, refusal: v.refusal, email: v.email, alternatives }), [],
        v.methods.passkeys);
    }
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
      const e = err as { error?: string; error_description?: string; statusCode?: number; code?: string };
      if (reply.raw.headersSent) return;
      const lang = pageLanguage(undefined, req.headers['accept-language']);
      if (e.error) return send(reply, e.statusCode ?? 400, errorPage(lang, e.error, e.error_description));
      // A step this interaction is not at (a passkey once signed in…), or a provider's answer that is not one.
      if (e.code === 'VALIDATION_ERROR' || e.code === 'CALLBACK_ERROR' || e.code === 'PROVIDER_NOT_SUPPORTED' || e.code === 'INVALID_PROVIDER') {
        return send(reply, 400, errorPage(lang, 'invalid_request', undefined));
      }
      req.log.error({ err }, 'authorization page failed');
      send(reply, 500, errorPage(lang, 'server_error', undefined));
    }
  }

  /** A form may be posted only from the issuer's pages, with the CSRF field of this browser and interaction. */
  function formAllowed(req: FastifyRequest<UidParams>, form: Form): boolean {
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

  /** A POST of one of the pages: refused (403) unless {@link formAllowed}, else `run` as a step. */
  const formStep = (run: (req: FastifyRequest<UidParams & { Body: Form }>, reply: FastifyReply, form: Form) =>
    Promise<InteractionView | null | void>) => (req: FastifyRequest<UidParams & { Body: Form }>, reply: FastifyReply) => {
    const form = req.body ?? {};
    if (!formAllowed(req, form)) return forbidden(req, reply);
    return step(req, reply, () => run(req, reply, form));
  };

  const hidden = { schema: { hide: true } };
  const limited = { ...hidden, onRequest: [signInLimit] };

  app.get<UidParams>('/oauth/interaction/:uid', hidden, (req, reply) => step(req, reply, () => oauth.view(req.raw, reply.raw)));

  app.post<UidParams & { Body: Form }>('/oauth/interaction/:uid/login', limited, formStep((req, reply, form) =>
    oauth.signIn(req.raw, reply.raw, { email: normalizeEmail(String(form.email ?? '')), password: String(form.password ?? '') },
      metaOf(req, 'oauth_password'))));

  app.post<UidParams & { Body: Form }>('/oauth/interaction/:uid/second-factor', limited, formStep((req, reply, form) =>
    oauth.secondFactor(req.raw, reply.raw, { totp_code: String(form.totp_code ?? '') }, metaOf(req, 'oauth_password'))));

  app.post<UidParams & { Body: Form }>('/oauth/interaction/:uid/consent', hidden, formStep((req, reply, form) =>
    oauth.consent(req.raw, reply.raw, form)));

  if (offered.passkeys) {
    // The options as JSON for the page's script; the CSRF field travels in the form body like the forms'.
    app.post<UidParams & { Body: Form }>('/oauth/interaction/:uid/passkey/options', limited, formStep(async (req, reply) => {
      const options = await methods.passkeyOptions(req.raw, reply.raw);
      const res = reply.raw;
      res.statusCode = 200;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.end(JSON.stringify(options));
    }));
    app.post<UidParams & { Body: Form }>('/oauth/interaction/:uid/passkey', limited, formStep((req, reply, form) =>
      methods.passkeySignIn(req.raw, reply.raw, String(form.credential ?? ''), metaOf(req, 'passkey'))));
  }

  if (offered.social.length > 0) {
    // A link on the sign-in page: the interaction's own cookie proves the browser is the one signing in.
    app.get<UidParams & { Params: { provider: string } }>('/oauth/interaction/:uid/social/:provider', limited, (req, reply) =>
      step(req, reply, async () => {
        const started = await methods.socialStart(req.raw, reply.raw, req.params.provider);
        redirect(reply, started.location, app.serializeCookie(SOCIAL_COOKIE, started.cookie,
          { httpOnly: true, sameSite: 'lax', secure: secureCookie, path: SOCIAL_COOKIE_PATH, maxAge: 600 }));
      }));
    app.get<{ Params: { provider: string }; Querystring: { code?: string; state?: string; error?: string } }>(
      `${SOCIAL_COOKIE_PATH}/:provider/callback`, hidden, (req, reply) => step(req, reply, async () => {
        const cookie = app.parseCookie(req.headers.cookie ?? '')[SOCIAL_COOKIE];
        const q = req.query;
        const next = await methods.socialFinish(req.params.provider, { code: q.code, state: q.state, error: q.error }, cookie, actorMetaOf(req));
        redirect(reply, next, app.serializeCookie(SOCIAL_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: secureCookie,
          path: SOCIAL_COOKIE_PATH, maxAge: 0 }));
      }));
  }
}
