import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.js';
import type { RouteDeps } from '../../http/routes.js';
import { CREDENTIALS_JS, REDOC_CSP, REDOC_HTML, REDOC_INIT_JS } from './docs-assets.js';

const require = createRequire(import.meta.url);

/**
 * `<prefix>docs/schema/` (the OpenAPI document, behind application credentials like every API route),
 * `<prefix>docs/` (Swagger UI) and `<prefix>docs/redoc/` (ReDoc, served locally). The viewer pages and
 * their static files carry no data and answer without credentials.
 */
export default async function docsRoutes(app: FastifyInstance, { container }: RouteDeps) {
  const enabled = container.config.DOCS_ENABLED;
  const hide = { hide: true };

  app.get('/docs/schema/', { schema: hide }, async () => {
    if (!enabled) throw new AppError('FEATURE_DISABLED');
    return app.swagger();
  });

  if (!enabled) {
    const disabled = async () => { throw new AppError('FEATURE_DISABLED'); };
    app.get('/docs/', { schema: hide, config: { appAuth: false } }, disabled);
    app.get('/docs/redoc/', { schema: hide, config: { appAuth: false } }, disabled);
    return;
  }

  let redocBundle: Buffer | undefined;
  const page = { schema: hide, config: { appAuth: false, securityHeaders: false } };
  const send = (type: string, body: string | Buffer, csp = REDOC_CSP) =>
    (_req: unknown, reply: import('fastify').FastifyReply) =>
      reply.type(type).header('content-security-policy', csp).header('cache-control', 'no-cache').send(body);
  app.get('/docs/redoc/', page, send('text/html; charset=utf-8', REDOC_HTML));
  app.get('/docs/redoc/credentials.js', page, send('application/javascript; charset=utf-8', CREDENTIALS_JS));
  app.get('/docs/redoc/init.js', page, send('application/javascript; charset=utf-8', REDOC_INIT_JS));
  app.get('/docs/redoc/redoc.standalone.js', page, async (_req, reply) => {
    redocBundle ??= await readFile(require.resolve('redoc/bundles/redoc.standalone.js'));
    return reply.type('application/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(redocBundle);
  });

  await app.register(async (ui) => {
    // The viewer's own routes answer without credentials, except its copies of the schema.
    ui.addHook('onRoute', (route) => {
      const isSchema = /\/(json|yaml)$/.test(route.url);
      route.config = { ...(route.config ?? {}), appAuth: isSchema, securityHeaders: false } as typeof route.config;
    });
    await ui.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      uiConfig: { deepLinking: true, persistAuthorization: false },
      theme: { title: 'Gatehouse API', js: [{ filename: 'credentials.js', content: CREDENTIALS_JS }] },
    });
  });
}
