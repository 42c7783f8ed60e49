import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';
import type { BearerService } from '../../modules/sessions/bearer.service.js';
import type { TokenScope } from '../../security/jwt.js';
import type { AgentAuthService } from '../../modules/agents/agent-auth.service.js';
import { agentAdmitted } from '../../modules/agents/agent-policy.js';
import { markAcceptsAgents } from './agent.js';

export interface UserGuardOptions {
  /** Token scopes this route accepts (docs/api.md "Token scopes"); default `full` only. */
  scopes?: TokenScope[];
  /** Authenticate when a bearer token is present and valid, carry on without one otherwise (logout/). */
  optional?: boolean;
  /**
   * The route accepts `AgentBearer` too (docs/decisions.md "Agents": routes that declare a permission, `me/`, `me/roles/`).
   * An agent on any other route is refused with 403 AGENT_NOT_ALLOWED before its guards run.
   */
  agents?: boolean;
}

// The scheme name is case-insensitive (RFC 9110 §11.1); the token is RFC 6750's b64token.
const BEARER_RE = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)$/i;

/** Bearer authentication (401 UNAUTHORIZED/TOKEN_*) then the scope check (403 INSUFFICIENT_SCOPE). */
export const createUserGuard = (config: Config, bearer: BearerService, agents: AgentAuthService) =>
  ({ scopes = ['full'], optional = false, agents: acceptsAgents = false }: UserGuardOptions = {}) => {
    const guard = async (req: FastifyRequest) => {
      // Authenticated by the agent hook, which let it through only because this route accepts agents; the
      // permission and organization guards that follow make the double check.
      if (req.agent) return agentAdmitted(agents, req.agent);
      const header = req.headers.authorization;
      if (!header || !config.JWT_AUTH_ENABLED) {
        if (optional) return;
        throw new AppError('UNAUTHORIZED');
      }
      const token = BEARER_RE.exec(header)?.[1];
      try {
        if (!token) throw new AppError('TOKEN_INVALID');
        req.auth = await bearer.authenticate(token, req.application?.id ?? null);
      } catch (err) {
        if (optional) return;
        throw err;
      }
      if (!scopes.includes(req.auth.claims.scope)) throw new AppError('INSUFFICIENT_SCOPE');
    };
    return acceptsAgents ? markAcceptsAgents(guard) : guard;
  };
