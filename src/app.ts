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
import { registerOpsMetrics } from './http/ops-metrics.js';
import { documentedGuards, openApiOptions } from './http/openapi.js';
import { createRateLimiter } from './http/rate-limit.js';
import './http/request-types.js';
import type { RouteDeps, RoutePlugin } from './http/route-plugin.js';
import { API_ROUTES, ROOT_ROUTES } from './http/routes.js';
import { validatorCompiler } from './http/validation.js';

export interface BuildAppOptions {
  /** Where JSON logs go; defaults to stdout. `false` turns logging off. */
  logStream?: Writable | false;
  /** Extra route plugins mounted under the API prefix after the built-in ones (embedding, tests). */
  apiRoutes?: RoutePlugin[];
}

/**
 * A client has this long to send its request line and headers (node answers 408 and closes): a real client sends them
 * in one packet, so a connection still short of its headers after 10 s is a slowloris holding a socket.
 */
const HEADERS_TIMEOUT_MS = 10_000;
/**
 * The whole request, body included: a 2 MB avatar still arrives over a 300 kbit/s uplink. Fastify's default is 0 (no
 * limit), which lets a client that never finishes its body hold the connection forever.
 */
const REQUEST_TIMEOUT_MS = 60_000;
/** A connection silent this long in both directions mid-request is abandoned; no answer takes this long to compute. */
const CONNECTION_TIMEOUT_MS = 60_000;
/** Longer than the 60 s idle timeout of common load balancers, so the balancer closes an idle connection first. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** How often node enforces the two timeouts above; its default of 30 s lets a slow client stay that much longer. */
const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;
/** Node's default, stated here: a bearer token and cookies fit many times over; a larger header block answers 431. */
const MAX_HEADER_BYTES = 16_384;

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
    // Slow or silent clients are closed on a clock instead of holding sockets (test/faults/slow-clients.test.ts).
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: CONNECTIONS_CHECK_INTERVAL_MS, maxHeaderSize: MAX_HEADER_BYTES },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // `gatehouse serve` drains the server itself before closing the app (src/http/drain.ts), so this and
    // `forceCloseConnections` below only apply to an embedder that closes the app while it still serves.
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
  // Keys first: a key that cannot be opened stops start-up before anything listens.
  app.addHook('onReady', async () => {
    await container.services.keys.start();
    await container.changes.start();
  });
  app.addHook('onClose', async () => { await Promise.all([container.services.keys.stop(), container.changes.stop()]); });

  const metrics = config.METRICS_ENABLED ? registerMetrics(app) : null;
  if (metrics) {
    registerOpsMetrics(metrics, { stats: container.stats, now: () => container.clock.now(),
      outbox: container.services.outbox.backlog, webhooks: container.services.webhookDelivery.backlog });
  }
  if (config.SECURITY_HEADERS_ENABLED) {
    registerSecurityHeaders(app);
  }
  await app.register(fastifySwagger, openApiOptions(config));
  await app.register(fastifyCookie, { hook: false });

  // One warning a minute per store for a whole outage, not one per request.
  const everyMinute = (warn: (err: Error) => void) => throttled(warn, 60_000, () => container.clock.now().getTime());
  const redisFallback = container.database.kind === 'postgres' ? 'in PostgreSQL' : 'in memory';
  const warnStore = {
    redis: everyMinute((err) => app.log.warn({ err: err.message }, `rate-limit counters: Redis unavailable, counting ${redisFallback}`)),
    postgres: everyMinute((err) => app.log.warn({ err: err.message }, 'rate-limit counters: PostgreSQL unavailable, counting in memory')),
  };
  const rateLimiter = createRateLimiter({
    enabled: config.RATE_LIMITING_ENABLED,
    multiplier: config.DEBUG ? 10 : 1,
    redis: container.redis,
    postgres: container.database.kind === 'postgres' ? container.database.counters : null,
    now: () => container.clock.now(),
    keyPrefix: config.REDIS_KEY_PREFIX,
    onStoreError: (store, err) => {
      if (store === 'redis') container.stats.redisError();
      warnStore[store](err);
    },
  });
  const guards = documentedGuards(createGuards({ config, rateLimiter, bearer: container.services.bearer,
    permissions: container.services.rbac, orgs: container.services.organizations.resolver, agents: container.services.agentAuth,
    reauth: container.services.reauth }));
  const deps: RouteDeps = { container, guards, metrics, apiPrefix: config.API_PREFIX };

  for (const plugin of ROOT_ROUTES) await app.register(plugin, deps);
  await app.register(async (api) => {
    registerCors(api, container.services.appCredentials);
    registerAppAuth(api, config, container.services.appCredentials);
    registerAgentAuth(api, config, container.services.agentAuth, container.services.pendingActions, container.services.authorize);
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
