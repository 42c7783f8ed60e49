import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';
import type { ApplicationService } from '../../modules/applications/applications.service.js';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** Every API request names its application with `X-Access-Key` and `X-Access-Secret` (SPEC.md Authentication 1). */
export function registerAppAuth(app: FastifyInstance, config: Pick<Config, 'APPLICATION_AUTH_ENABLED'>,
  applications: ApplicationService): void {
  app.addHook('onRequest', async (req) => {
    if (!config.APPLICATION_AUTH_ENABLED || req.routeOptions.config.appAuth === false) return;
    const key = header(req, 'x-access-key');
    const secret = header(req, 'x-access-secret');
    if (!key || !secret) throw new AppError('APP_AUTH_REQUIRED');
    if (key.length > 256 || secret.length > 256) throw new AppError('APP_AUTH_INVALID');
    const application = await applications.authenticate(key, secret);
    if (!application) throw new AppError('APP_AUTH_INVALID');
    req.application = application;
  });
}
