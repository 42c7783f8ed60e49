import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppCredentialService } from '../../modules/applications/app-credentials.service.js';

/** What browsers may send and read; the Tenxyte SDK needs all of these (docs/migrating-from-tenxyte.md, the CORS row). */
const ALLOWED_HEADERS = ['Content-Type', 'Authorization', 'X-Access-Key', 'X-Access-Secret', 'X-Org-Slug',
  'X-Prompt-Trace-ID', 'X-Action-Confirmation', 'X-Request-ID'].join(', ');
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const EXPOSED_HEADERS = 'X-Request-ID, Retry-After';

/**
 * CORS from each application's `allowed_origins`. A preflight carries no credentials, so it is
 * answered for any origin some active application allows; the real request is then answered with
 * CORS headers only when its own application allows the origin.
 */
export function registerCors(app: FastifyInstance, applications: AppCredentialService): void {
  async function answerPreflight(origin: string, reply: FastifyReply) {
    reply.header('vary', 'Origin');
    if (await applications.isAllowedOrigin(origin)) {
      reply.headers({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': ALLOWED_METHODS,
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '600',
      });
    }
    return reply.code(204).send();
  }

  // Callback hooks: only preflights and requests without an application wait on anything.
  app.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    if (req.method !== 'OPTIONS' || !origin || !req.headers['access-control-request-method']) return done();
    answerPreflight(origin, reply).catch(done);
  });

  // A preflight may target any API path, and no route declares OPTIONS: without this catch-all it would
  // fall through to the 404/405 handler, which runs outside this plugin's hooks. The hook above answers
  // preflights; any other OPTIONS request goes on to the 404/405 handler.
  app.options('/*', { schema: { hide: true }, config: { appAuth: false } }, async (_req, reply) => reply.callNotFound());

  app.addHook('onSend', (req: FastifyRequest, reply, payload, done) => {
    const origin = req.headers.origin;
    if (!origin) return done(null, payload);
    reply.header('vary', 'Origin');
    const allow = (allowed: boolean) => {
      if (allowed) {
        reply.headers({
          'access-control-allow-origin': origin,
          'access-control-allow-credentials': 'true',
          'access-control-expose-headers': EXPOSED_HEADERS,
        });
      }
      done(null, payload);
    };
    if (req.application) return allow(req.application.allowed_origins.includes(origin));
    applications.isAllowedOrigin(origin).then(allow, done);
  });
}
