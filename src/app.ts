import type { Writable } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Container } from './container.js';
import { AppError } from './core/errors.js';
import { throttled } from './core/throttle.js';
import { errorHandler } from './http/error-handler.js';
import { createGuards } from './http/guards/index.js';
import { registerAgentActivity } from './http/hooks/agent-activity.js';
import { registerAgentAuth } from './http/hooks/agent-auth.js';
import { registerAgentRedaction } from './http/hooks/agent-redaction.js';
import { registerAppAuth } from './http/hooks/app-auth.js';
import { registerCors } from './http/hooks/cors.js';
import { REDACT_PATHS, requestSerializer } from './http/hooks/logging.js';
import { createMethodIndex } from './http/hooks/method-index.js';
import { genReqId, registerRequestContext } from './http/hooks/request-context.js';
import { registerSecurityHeaders } from './http/hooks/security-headers.js';
import { registerJsonParser } from './http/json-parser.js';
import { registerMetrics } from './http/metrics.js';
import { documentedGuards, openApiOptions } from './http/openapi.js';
import { createRateLimiter } from './http/rate-limit.js';
import './http/request-types.js';
import { API_ROUTES, ROOT_ROUTES, type RouteDeps, type RoutePlugin } from './http/routes.js';
import { validatorCompiler } from './http/validation.js';

export interface BuildAppOptions {
  /** Where JSON logs go; defaults to stdout. `false` turns logging off. */
  logStream?: Writable | false;
  /** Extra route plugins mounted under the API prefix after the built-in ones (embedding, tests). */
  apiRoutes?: RoutePlugin[];
}

/** A configured Fastify instance that never listens: `main.ts` listens, tests inject. */
export async function buildApp(container: Container, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = container;
  const app = Fastify({
    logger: opts.logStream === false || config.LOG_LEVEL === 'silent' ? false : {
      level: config.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: requestSerializer },
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    genReqId,
    requestIdHeader: false,
    bodyLimit: config.BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    // Malformed URLs and over-long path parameters get the catalogue's shapes too.
    frameworkErrors: errorHandler,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { strict: false } },
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  registerJsonParser(app);
  registerRequestContext(app, config.TRUSTED_PROXIES);
  const methodIndex = createMethodIndex(app);
  app.setNotFoundHandler(async (req, reply) => {
    const allowed = methodIndex.allowed(req.url.split('?')[0] ?? '/');
    if (allowed) {
      reply.header('allow', allowed.join(', '));
      throw new AppError('METHOD_NOT_ALLOWED');
    }
    throw new AppError('NOT_FOUND');
  });
  // A body-less request to a route with a body schema is validated as `{}`.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined && req.routeOptions.schema?.body) req.body = {};
    done();
  });

  // Signing keys are loaded (the first one created) before the first request, then kept current until close.
  app.addHook('onReady', async () => { await container.services.keys.start(); });
  app.addHook('onClose', async () => { await container.services.keys.stop(); });

  const metrics = config.METRICS_ENABLED ? registerMetrics(app) : null;
  if (config.SECURITY_HEADERS_ENABLED) {
    registerSecurityHeaders(app);
  }
  await app.register(fastifySwagger, openApiOptions(config));
  await app.register(fastifyCookie, { hook: false });

  const rateLimiter = createRateLimiter({
    enabled: config.RATE_LIMITING_ENABLED,
    multiplier: config.DEBUG ? 10 : 1,
    redis: container.redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    // One warning a minute for the whole outage, not one per request.
    onStoreError: throttled((err: Error) => app.log.warn({ err: err.message }, 'rate-limit store unavailable, counting in memory'),
      60_000, () => container.clock.now().getTime()),
  });
  const guards = documentedGuards(createGuards({ config, rateLimiter, bearer: container.services.bearer,
    permissions: container.services.rbac, orgs: container.services.organizations.resolver, agents: container.services.agentAuth }));
  const deps: RouteDeps = { container, guards, metrics, apiPrefix: config.API_PREFIX };

  for (const plugin of ROOT_ROUTES) await app.register(plugin, deps);
  await app.register(async (api) => {
    registerCors(api, container.services.applications);
    registerAppAuth(api, config, container.services.applications);
    registerAgentAuth(api, config, container.services.agentAuth, container.services.pendingActions);
    registerAgentActivity(api, config, container.services.agentActivity);
    registerAgentRedaction(api, config);
    // Set before the handler runs (a callback hook, not a send hook, on every API request): a route that caches
    // replaces it, and error answers keep it.
    api.addHook('onRequest', (_req, reply, done) => {
      reply.header('cache-control', 'no-store');
      done();
    });
    for (const plugin of [...API_ROUTES, ...(opts.apiRoutes ?? [])]) await api.register(plugin, deps);
  }, { prefix: config.API_PREFIX.replace(/\/$/, '') });

  return app;
}
