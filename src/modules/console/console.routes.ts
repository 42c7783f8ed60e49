import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.js';
import { featureDisabled } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';

/** `console/dist`, from `src/modules/console/` as from `dist/modules/console/`. */
const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/**
 * The console's pages run only the bundle's own files: no inline script or style, no other origin, calls to this
 * origin only, never framed.
 */
export const CONSOLE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
  + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const PAGE_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};
/** What the console reads first: its output allow-list. */
const ConsoleConfigResponse = Type.Object({
  api_prefix: Type.String(),
  access_key: Type.String(),
  origins: Type.Array(Type.String()),
  /** Whether the authorization server is on: the pages that show OAuth grants ask for them only then. */
  oauth: Type.Boolean(),
});

/** The path below `assets/` a hashed asset is asked for at. */
const AssetParams = Type.Object({ '*': Type.String() });

/** Built files carry a content hash in their names: a new build has new names, so they never need revalidating. */
const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * The admin console at `/console/` (docs/console.md) while SVC_CONSOLE_ENABLED is on: the
 * built single-page application, and `config.json`, which tells it the API prefix and its public application's key
 * (a key identifies the calling code; it is no secret) and the origins it is accepted from. The page itself needs no application credentials.
 */
export default async function consoleRoutes(app: TypedApp, { container, apiPrefix }: RouteDeps) {
  const enabled = container.config.CONSOLE_ENABLED;
  const built = enabled && existsSync(`${CONSOLE_DIST}index.html`);
  if (enabled && !built) app.log.warn('the console is enabled but not built (console/dist is missing): run `npm run build`');

  await app.register(async (scope: TypedApp) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, appAuth: false, securityHeaders: false };
    });
    if (!enabled) {
      // Switched off, it answers as every feature that is off does, naming the setting (docs/console.md).
      const disabled = async () => { throw featureDisabled('CONSOLE_ENABLED'); };
      for (const path of ['/console/', '/console/config.json', '/console/*']) scope.get(path, { schema: { hide: true } }, disabled);
      return;
    }
    scope.addHook('onRequest', (_req, reply, done) => {
      reply.headers(PAGE_HEADERS);
      done();
    });

    scope.get('/console/config.json', { schema: { hide: true, response: { 200: ConsoleConfigResponse } } }, async (_req, reply) => {
      const application = await container.services.console.application();
      // The origins let a page opened at another address (localhost for 127.0.0.1) say where the console works.
      return reply.header('cache-control', 'no-store')
        .send({ api_prefix: apiPrefix, access_key: application.access_key, origins: application.allowed_origins,
          oauth: container.config.OAUTH_ENABLED });
    });

    if (!built) {
      scope.get('/console/', { schema: { hide: true } }, async () => {
        throw new AppError('FEATURE_DISABLED', { message: 'The console is not built: run `npm run build`',
          details: { setting: null, reason: 'console_not_built' } });
      });
      return;
    }
    // Only what a build holds: the page, and its hashed assets; `/console` is `/console/` (trailing slashes are optional).
    await scope.register(fastifyStatic, { root: CONSOLE_DIST, serve: false });
    const page = { schema: { hide: true } };
    scope.get('/console/', page, (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false }));
    scope.get('/console/assets/*', { schema: { hide: true, params: AssetParams } }, (req, reply) =>
      reply.header('cache-control', HASHED_ASSET_CACHE).sendFile(`assets/${req.params['*']}`, { cacheControl: false }));
  });
}
