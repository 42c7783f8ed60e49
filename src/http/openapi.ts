import type { SwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import type { Config } from '../config/settings.js';
import type { Guards } from './guards/index.js';

type SecurityRequirement = Record<string, string[]>;

/** The security schemes, named after what a client sends, so the references' Authorize dialog reads like the headers. */
const SECURITY_SCHEMES = {
  'X-Access-Key': {
    type: 'apiKey', in: 'header', name: 'X-Access-Key',
    description: 'Access key of the calling application, on every API request.',
  },
  'X-Access-Secret': {
    type: 'apiKey', in: 'header', name: 'X-Access-Secret',
    description: 'Access secret of the calling application, sent with its access key. A public application has none: it '
      + 'sends the key alone, from one of its allowed origins.',
  },
  Bearer: {
    type: 'http', scheme: 'bearer', bearerFormat: 'JWT',
    description: 'A user\'s access token: `Authorization: Bearer <access token>`.',
  },
  AgentBearer: {
    type: 'apiKey', in: 'header', name: 'Authorization',
    description: 'An AI agent\'s token: `Authorization: AgentBearer <token>`. OpenAPI 3.0 asks an `http` scheme to be '
      + 'one registered with IANA, which AgentBearer is not (and the references only send Basic and Bearer), so it is '
      + 'declared as an API key carried in the Authorization header: enter the whole value, `AgentBearer <token>`.',
  },
} as const;

/** Whether each user guard made through `documentedGuards` lets a request without a bearer through. */
const userGuards = new WeakMap<object, { optional: boolean; agents: boolean }>();

/**
 * The route guards, with each user guard remembered, so that the document lists the bearer scheme on the
 * routes that declare one: the guards stay the one place that says what a route requires.
 */
export function documentedGuards(guards: Guards): Guards {
  return {
    ...guards,
    user: (opts = {}) => {
      const guard = guards.user(opts);
      userGuards.set(guard, { optional: opts.optional ?? false, agents: opts.agents ?? false });
      return guard;
    },
  };
}

function userGuardOf(route: RouteOptions) {
  const hooks = [route.onRequest, route.preValidation, route.preHandler].flat();
  return hooks.map((hook) => (hook ? userGuards.get(hook) : undefined)).find((guard) => guard !== undefined);
}

/** A route's own requirement, when it differs from the document's global one (the application's keys). */
function routeSecurity(route: RouteOptions, appKeys: SecurityRequirement): SecurityRequirement[] | undefined {
  if (route.config?.appAuth === false) return [];
  if (route.config?.appAuth === 'optional') return [appKeys, {}];
  // The token's own routes (heartbeat/, report-usage/) and ai/authorize/ take an agent token, or an OAuth grant's access
  // token as Bearer (docs/oauth.md "Grants and ai/authorize/").
  if (route.config?.agentAuthentication) return [{ ...appKeys, AgentBearer: [] }, { ...appKeys, Bearer: [] }];
  const user = userGuardOf(route);
  if (!user) return undefined;
  const withBearer = { ...appKeys, Bearer: [] };
  // A route that accepts agents takes either token (docs/agents.md "Agent requests").
  const bearers = user.agents ? [withBearer, { ...appKeys, AgentBearer: [] }] : [withBearer];
  return user.optional ? [...bearers, appKeys] : bearers;
}

export function openApiOptions(config: Config): SwaggerOptions {
  const appKeys: SecurityRequirement = config.APPLICATION_AUTH_ENABLED ? { 'X-Access-Key': [], 'X-Access-Secret': [] } : {};
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Gatehouse API',
        version: '1',
        description: 'Authentication and access management for people and the AI agents acting for them.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: SECURITY_SCHEMES },
      security: config.APPLICATION_AUTH_ENABLED ? [appKeys] : [],
    },
    transform: ({ schema, url, route }) => {
      const security = schema?.security ?? routeSecurity(route, appKeys);
      return { schema: security ? { ...schema, security } : schema, url };
    },
  };
}
