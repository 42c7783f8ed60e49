import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';
import type { AppContext, AppCredentialService, PublicOutcome } from '../../modules/applications/app-credentials.service.js';
import { browserOriginResolver } from '../browser-origin.js';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/**
 * Every API request names its application (docs/api.md "Credentials"): a confidential one with `X-Access-Key` and
 * `X-Access-Secret`, a public one (docs/decisions.md "Public applications") with `X-Access-Key` alone, from one of its origins.
 */
export function registerAppAuth(app: FastifyInstance,
  config: Pick<Config, 'APPLICATION_AUTH_ENABLED' | 'PUBLIC_URL' | 'PORT' | 'TRUSTED_PROXIES'>, applications: AppCredentialService): void {
  const browserOriginOf = browserOriginResolver(config);
  // A callback hook: credentials this instance has seen recently are checked without I/O (or a promise).
  app.addHook('onRequest', (req, _reply, done) => {
    if (!config.APPLICATION_AUTH_ENABLED || req.routeOptions.config.appAuth === false) return done();
    const key = header(req, 'x-access-key');
    const secret = header(req, 'x-access-secret');
    if (!key && !secret && req.routeOptions.config.appAuth === 'optional') return done();
    if (!key) return done(new AppError('APP_AUTH_REQUIRED'));
    if (key.length > 256 || (secret && secret.length > 256)) return done(new AppError('APP_AUTH_INVALID'));
    if (secret) {
      const accept = (application: AppContext | null) => {
        if (!application) return done(new AppError('APP_AUTH_INVALID'));
        req.application = application;
        done();
      };
      const cached = applications.authenticateCached(key, secret);
      if (cached !== undefined) return accept(cached);
      return void applications.authenticate(key, secret).then(accept, done);
    }
    // No secret: only a public application, and only from one of its origins.
    const origin = browserOriginOf(req);
    const admit = (outcome: PublicOutcome) => {
      if (typeof outcome === 'string') return done(new AppError(outcome));
      req.application = outcome;
      done();
    };
    const cached = applications.authenticatePublicCached(key, origin);
    if (cached !== undefined) return admit(cached);
    applications.authenticatePublic(key, origin).then(admit, done);
  });
}
