import type { AgentContext } from '../modules/agents/agent-context.js';
import type { AppContext } from '../modules/applications/applications.service.js';
import type { OrgContext } from '../modules/organizations/org-context.js';
import type { AuthContext } from '../modules/sessions/bearer.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client address: the socket peer, or the forwarded address when the peer is a trusted proxy. */
    clientIp: string;
    /** The calling application, once application authentication has passed. */
    application: AppContext | null;
    /** The authenticated user and token claims, once a user guard has passed. */
    auth: AuthContext | null;
    /** The organization the request names and the caller's standing there, once an `org()` guard has passed. */
    org: OrgContext | null;
    /** The agent token and its delegating user, for a request authenticated with `AgentBearer`. */
    agent: AgentContext | null;
  }
  interface FastifyContextConfig {
    /**
     * `false` on the few routes that answer without application credentials (docs viewers); `'optional'` where they
     * are checked when sent and the route also answers without them (the social-login callback, reached by a browser).
     */
    appAuth?: boolean | 'optional';
    /** Validation errors answer a bare field map, as organization create does (docs/organizations.md "Endpoints"). */
    bareValidationErrors?: boolean;
    /** Set from the route's declared user guard: the route accepts `AgentBearer` (never set by hand). */
    agents?: boolean;
    /**
     * How the agent hook treats `AgentBearer` here instead of counting the request: `usage` (heartbeat/,
     * report-usage/: the token's own bookkeeping, not counted) or `route` (ai/authorize/ authenticates itself).
     */
    agentAuthentication?: 'usage' | 'route';
  }
}
