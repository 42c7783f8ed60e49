import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';
import type { AppContext, ApplicationService } from '../../modules/applications/applications.service.js';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** Every API request names its application with `X-Access-Key` and `X-Access-Secret` (SPEC.md Authentication 1). */
export function registerAppAuth(app: FastifyInstance, config: Pick<Config, 'APPLICATION_AUTH_ENABLED'>,
  applications: ApplicationService): void {
  // A callback hook: credentials this instance has seen recently are checked without I/O (or a promise).
  app.addHook('onRequest', (req, _reply, done) => {
    if (!config.APPLICATION_AUTH_ENABLED || req.routeOptions.config.appAuth === false) return done();
    const key = header(req, 'x-access-key');
    const secret = header(req, 'x-access-secret');
    if (!key && !secret && req.routeOptions.config.appAuth === 'optional') return done();
    if (!key || !secret) return done(new AppError('APP_AUTH_REQUIRED'));
    if (key.length > 256 || secret.length > 256) return done(new AppError('APP_AUTH_INVALID'));
    const accept = (application: AppContext | null) => {
      if (!application) return done(new AppError('APP_AUTH_INVALID'));
      req.application = application;
      done();
    };
    const cached = applications.authenticateCached(key, secret);
    if (cached !== undefined) return accept(cached);
    applications.authenticate(key, secret).then(accept, done);
  });
}
