import type { Config } from '../../config/settings.js';
import { AppError, type ErrorCode, type FieldErrors } from '../../core/errors.js';
import { orgContextIfMember, type OrgContext, type OrgContextResolver } from '../organizations/org-context.js';
import type { AgentAuthService } from './agent-auth.service.js';
import type { AgentContext } from './agent-context.js';
import { checkAgentOrganization, checkAgentPermission } from './agent-policy.js';
import type { AuthorizeAnswer, AuthorizeInput } from './authorize.schemas.js';
import { canonicalPath, type PendingActionService } from './pending-actions.service.js';
import type { AccessTokenVerifier } from '../oauth/access-token-verifier.js';
import { sha256Hex } from '../../security/random.js';

type Deps = {
  config: Config; agents: AgentAuthService; orgs: OrgContextResolver; pendingActions: PendingActionService;
  /** Checks the authorization server's access tokens (docs/oauth.md "Grants and ai/authorize/"). */
  oauthTokens: AccessTokenVerifier;
};

/** The refusals a decision answers: the token's state and breakers, the double check, approval. */
export const DENIALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['TOKEN_INVALID', 'AGENT_TOKEN_INVALID', 'AGENT_TOKEN_EXPIRED',
  'AGENT_TOKEN_REVOKED', 'AGENT_TOKEN_SUSPENDED', 'AGENT_PERMISSION_DENIED', 'ACTION_CONFIRMATION_INVALID', 'ACTION_REJECTED']);

/** The credential an integrator forwards: the agent's `AgentBearer` token, or an OAuth access token (`Bearer`). */
export type ForwardedCredential = { scheme: 'agent' | 'oauth'; token: string } | undefined;

/** The request an approval is bound to, as the integrator describes it. */
interface Binding { method: string; path: string; bodySha256: string }

const BINDING_FIELDS = ['method', 'path', 'body_sha256'] as const;

/**
 * docs/decisions.md "Agents", `POST ai/authorize/`: an integrator's backend asks whether the agent whose `AgentBearer` it
 * forwards may use a permission, and gets the answer a built-in route would give: the request counted against the
 * token's breakers, the double check (granted to the token AND held by the delegating user now, in the named
 * organization for an organization), then the delegating user's approval when the permission needs it. Refusals are
 * the catalogue's codes, as on a built-in route; the route answers them with `decision: "deny"`.
 */
export function createAuthorizeService({ config, agents, orgs, pendingActions, oauthTokens }: Deps) {
  const needsApproval = (permission: string) => config.AIRS_CONFIRMATION_REQUIRED.includes(permission);

  /** The fields approval binds, required when the permission needs approval: 400 VALIDATION_ERROR naming each one missing. */
  function requireBinding(input: AuthorizeInput): Binding {
    const missing: FieldErrors = {};
    for (const field of BINDING_FIELDS) if (input[field] === undefined) missing[field] = ['This field is required.'];
    if (Object.keys(missing).length > 0) throw AppError.validation(missing);
    return { method: input.method!.toUpperCase(), path: canonicalPath(input.path!), bodySha256: input.body_sha256!.toLowerCase() };
  }

  /**
   * The forwarded token, authenticated and counted as the agent hook does for built-in routes (breakers first);
   * a missing one is an unknown one. A call missing what approval binds is refused first, uncounted: it is the
   * integrator's mistake, not the agent's.
   */
  async function authenticate(input: AuthorizeInput, credential: ForwardedCredential, traceId: string | null): Promise<AgentContext> {
    if (needsApproval(input.permission)) requireBinding(input);
    if (credential === undefined) throw new AppError('AGENT_TOKEN_INVALID');
    if (credential.scheme === 'agent') return agents.authenticate(credential.token, traceId);
    const oauth = await oauthTokenOf(credential.token);
    // A child issued by the token-exchange grant is an agent token presented as its JWT (docs/agents.md "Delegation").
    if (oauth.delegated) return agents.authenticateExchanged(oauth.jti, traceId);
    return agents.authenticateGrant(sha256Hex(oauth.jti), traceId);
  }

  /**
   * An OAuth access token's `jti` when it is one of the authorization server's tokens for a registered resource or a
   * child the token-exchange grant issued (`delegated`); an opaque token (userinfo only), a token without a resource or
   * a forged one → 401 TOKEN_INVALID.
   */
  async function oauthTokenOf(token: string): Promise<{ jti: string; delegated: boolean }> {
    const verified = await grantTokenIfOauth(token);
    if (verified === null) throw new AppError('TOKEN_INVALID');
    return verified;
  }

  /** {@link oauthTokenOf}, answering null for what is not such a token (a Gatehouse access token, say); expired: 401. */
  async function grantTokenIfOauth(token: string): Promise<{ jti: string; delegated: boolean } | null> {
    if (!config.OAUTH_ENABLED) return null;
    const verified = await oauthTokens.verify(token);
    if (verified === 'expired') throw new AppError('AGENT_TOKEN_EXPIRED');
    return verified === null || verified.aud.length === 0 ? null : verified;
  }

  /**
   * The delegating user's standing in the organization; none there, an unknown slug, or organizations switched off
   * all fail the double check rather than answering the organization routes' 403 NOT_MEMBER or 404.
   */
  async function contextOf(slug: string, agent: AgentContext): Promise<OrgContext | null> {
    return config.ORGANIZATIONS_ENABLED ? orgContextIfMember(orgs, slug, agent.user.id) : null;
  }

  /** After {@link authenticate}: the double check, then approval. Answers allow (200) or pending (202); a denial throws. */
  async function decide(agent: AgentContext, input: AuthorizeInput, confirmation: string | undefined): Promise<AuthorizeAnswer> {
    const slug = input.organization?.trim().toLowerCase() || null;
    if (slug === null) await checkAgentPermission(agents, config, agent, input.permission);
    else await checkAgentOrganization(agents, config, agent, await contextOf(slug, agent), input.permission);
    await agents.settle(agent);
    if (agent.approval) {
      const binding = requireBinding(input);
      const outcome = await pendingActions.gate({
        agent, permission: agent.approval.permission, method: binding.method, path: binding.path, orgSlug: slug,
        // The integrator's body never reaches Gatehouse: its hash binds the approval, and there is nothing to show.
        bodySha256: binding.bodySha256, payload: undefined, confirmation,
      });
      if (outcome.kind === 'pending') return { status: 202, body: { decision: 'pending', ...outcome.body } };
    }
    agent.decision = 'allow';
    return {
      status: 200,
      body: {
        decision: 'allow', agent_token_id: agent.tokenId, agent_id: agent.agentId,
        user: { id: agent.user.id, email: agent.user.email }, granted_permissions: [...agent.granted].sort(), chain: [...agent.chain],
      },
    };
  }

  return { authenticate, decide, grantTokenIfOauth };
}

export type AuthorizeService = ReturnType<typeof createAuthorizeService>;
