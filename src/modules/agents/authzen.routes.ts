import { publicUrlOf } from '../../config/settings.js';
import { registerAppAuth } from '../../http/hooks/app-auth.js';
import { actorMetaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import {
  AuthzenConfiguration, AuthzenDecision, AuthzenEvaluationBody, AuthzenEvaluationsBody, AuthzenEvaluationsResponse,
} from './authzen.schemas.js';

const tags = ['agents'];
export const AUTHZEN_PATHS = { evaluation: '/access/v1/evaluation', evaluations: '/access/v1/evaluations' } as const;

/**
 * docs/agents.md "AuthZEN": the OpenID AuthZEN Authorization API 1.0 at the host root, for applications (their
 * `X-Access-Key` and `X-Access-Secret`, as for ai/authorize/), and its public metadata. Off with SVC_AIRS_ENABLED.
 * Outside the API's OpenAPI document, like the OAuth endpoints: the standard describes them (docs/agents.md).
 */
export default async function authzenRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { config } = container;
  const { authzen, appCredentials } = container.services;
  const issuer = publicUrlOf(config);
  const onRequest = [guards.feature('AIRS_ENABLED')];

  app.get('/.well-known/authzen-configuration', {
    schema: { hide: true, tags, response: { 200: AuthzenConfiguration } }, onRequest,
  }, async () => ({
    policy_decision_point: issuer,
    access_evaluation_endpoint: `${issuer}${AUTHZEN_PATHS.evaluation}`,
    access_evaluations_endpoint: `${issuer}${AUTHZEN_PATHS.evaluations}`,
  }));

  await app.register(async (pdp: TypedApp) => {
    registerAppAuth(pdp, config, appCredentials);
    pdp.addHook('onRequest', (_req, reply, done) => {
      reply.header('cache-control', 'no-store');
      done();
    });
    pdp.post(AUTHZEN_PATHS.evaluation, {
      schema: { hide: true, tags, body: AuthzenEvaluationBody, response: { 200: AuthzenDecision },
        description: 'One decision, as ai/authorize/ makes it: `{decision, context: {reason?, chain?, pending_action?}}`.' },
      onRequest,
    }, async (req) => authzen.evaluate(req.body, actorMetaOf(req), AUTHZEN_PATHS.evaluation));
    pdp.post(AUTHZEN_PATHS.evaluations, {
      schema: { hide: true, tags, body: AuthzenEvaluationsBody, response: { 200: AuthzenEvaluationsResponse },
        description: 'Several decisions; each evaluation\'s subject, action, resource and context default to the request\'s.' },
      onRequest,
    }, async (req) => authzen.evaluateAll(req.body, actorMetaOf(req), AUTHZEN_PATHS.evaluations));
  });
}
