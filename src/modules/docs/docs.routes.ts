import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { featureDisabled } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { REDOC_CSP, REDOC_HTML, REDOC_INIT_JS } from './docs-assets.js';

const require = createRequire(import.meta.url);

/** The OpenAPI document as @fastify/swagger builds it from the routes, passed through whole. */
const OpenApiDocument = Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3 document' });

/**
 * `<prefix>docs/schema/` (the OpenAPI document), `<prefix>docs/` (Swagger UI) and `<prefix>docs/redoc/` (ReDoc,
 * served locally). They describe the API and hold no data, so they answer without application credentials;
 * the calls a reader tries out carry the ones entered in the viewer's Authorize dialog.
 */
export default async function docsRoutes(app: TypedApp, { container }: RouteDeps) {
  const open = { schema: { hide: true }, config: { appAuth: false } };

  if (!container.config.DOCS_ENABLED) {
    const disabled = async () => { throw featureDisabled('DOCS_ENABLED'); };
    for (const path of ['/docs/schema/', '/docs/', '/docs/redoc/']) app.get(path, open, disabled);
    return;
  }

  app.get('/docs/schema/', { ...open, schema: { hide: true, response: { 200: OpenApiDocument } } }, async () => app.swagger());

  let redocBundle: Buffer | undefined;
  const page = { ...open, config: { appAuth: false, securityHeaders: false } };
  const send = (type: string, body: string) => (_req: unknown, reply: FastifyReply) =>
    reply.type(type).header('content-security-policy', REDOC_CSP).header('cache-control', 'no-cache').send(body);
  app.get('/docs/redoc/', page, send('text/html; charset=utf-8', REDOC_HTML));
  app.get('/docs/redoc/init.js', page, send('application/javascript; charset=utf-8', REDOC_INIT_JS));
  app.get('/docs/redoc/redoc.standalone.js', page, async (_req, reply) => {
    redocBundle ??= await readFile(require.resolve('redoc/bundles/redoc.standalone.js'));
    return reply.type('application/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(redocBundle);
  });

  await app.register(async (ui) => {
    // Every route of the viewer answers without credentials: its pages, static files and copies of the schema.
    ui.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), appAuth: false, securityHeaders: false } as typeof route.config;
    });
    await ui.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      // The access secret stays in the page's memory: persisted, it would outlive the tab in localStorage.
      uiConfig: { deepLinking: true, persistAuthorization: false },
      theme: { title: 'Gatehouse API' },
    });
  });
}
