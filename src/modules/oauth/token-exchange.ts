import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { exchangedTokenHash, type AgentAuthService } from '../agents/agent-auth.service.js';
import { AGENT_TOKEN_PATTERN, type ChainLink } from '../agents/agent-context.js';
import type { ChildTokenService } from '../agents/child-tokens.service.js';
import type { KeyService } from '../keys/keys.service.js';
import type { AccessTokenClaims, AccessTokenVerifier } from './access-token-verifier.js';
import type { OauthResourceService } from './resources.service.js';

/** RFC 8693's grant type, and the one token type it takes and issues here. */
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
/** The parameters the grant reads (oidc-provider passes only those a grant registers). */
export const TOKEN_EXCHANGE_PARAMETERS = ['subject_token', 'subject_token_type', 'requested_token_type', 'scope', 'resource', 'expires_in',
  'budget_limit_usd'];

type Deps = {
  clock: Clock; issuer: string; keys: Pick<KeyService, 'providerKeys'>; verifier: AccessTokenVerifier;
  resources: Pick<OauthResourceService, 'byUri'>;
  agents: Pick<AgentAuthService, 'authenticate' | 'authenticateExchanged' | 'inspectExchanged' | 'revokeExchanged'>;
  /** What a person holds in an organization now (introspection's `scope` for a bound child). */
  orgPermissions: (slug: string, userId: number) => Promise<ReadonlySet<string> | null>;
  childTokens: Pick<ChildTokenService, 'delegate'>;
};

/** The provider's error classes this grant answers with (oidc-provider's `errors`). */
type OidcErrors = Record<'InvalidGrant' | 'InvalidScope' | 'InvalidRequest' | 'InvalidTarget', new (description: string) => Error>;

/**
 * RFC 8693 `act`, nested: the outermost is the token itself, each `act` inside it the token it was delegated from, the
 * innermost the root (docs/agents.md "Delegation").
 */
export function actOf(chain: readonly ChainLink[]): Record<string, unknown> | undefined {
  let act: Record<string, unknown> | undefined;
  for (const link of chain) act = { sub: `agent_token:${link.id}`, agent_id: link.agent_id, ...(act ? { act } : {}) };
  return act;
}

/** A positive whole number of seconds, or undefined when absent; anything else is the caller's mistake. */
function seconds(value: unknown, InvalidRequest: OidcErrors['InvalidRequest']): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidRequest('expires_in must be a whole number of seconds');
  return n;
}

/**
 * The token-exchange grant (RFC 8693; docs/agents.md "Delegation"): a registered client presents an agent token that
 * may delegate (`gha_…`, or a JWT this grant issued) as `subject_token`, and gets a narrower child exactly as
 * `ai/tokens/<id>/delegate/` creates one (listed, controlled and checked like any child), as an RFC 9068 JWT whose
 * `act` claims name the chain. A wider scope → `invalid_scope`; a subject that cannot delegate, is suspended, revoked
 * or expired → `invalid_grant`; nothing is issued then.
 */
export function createTokenExchange({ clock, issuer, keys, verifier, resources, agents, childTokens, orgPermissions }: Deps) {
  /** The agent the subject token is, its request counted (the exchange is a request of the parent). */
  async function subjectOf(token: string, errors: OidcErrors) {
    try {
      if (AGENT_TOKEN_PATTERN.test(token)) return await agents.authenticate(token, null);
      const verified = await verifier.verify(token);
      if (verified === null || verified === 'expired' || !verified.delegated) throw new errors.InvalidGrant('subject_token is not an agent token that may delegate');
      return await agents.authenticateExchanged(verified.jti, null);
    } catch (err) {
      if (err instanceof AppError) throw new errors.InvalidGrant(`subject_token refused: ${err.code}`);
      throw err;
    }
  }

  /** Signs the child's JWT with the provider's RS256 key (the JWKS's first RSA key, as the provider's own tokens). */
  async function signed(claims: Record<string, unknown>): Promise<string> {
    const jwk = (await keys.providerKeys()).keys.find((k) => (k as { kty?: string }).kty === 'RSA') as Record<string, unknown> | undefined;
    if (!jwk) throw new Error('no RS256 key to sign with');
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid })).toString('base64url');
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const key = createPrivateKey({ key: jwk as never, format: 'jwk' });
    return `${header}.${payload}.${sign('sha256', Buffer.from(`${header}.${payload}`), key).toString('base64url')}`;
  }

  async function handler(ctx: KoaContextWithOIDC, errors: OidcErrors) {
    const params = ctx.oidc.params as Record<string, string | undefined>;
    if (params.subject_token_type !== ACCESS_TOKEN_TYPE) throw new errors.InvalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
    if (params.requested_token_type !== undefined && params.requested_token_type !== ACCESS_TOKEN_TYPE) {
      throw new errors.InvalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
    }
    if (!params.subject_token) throw new errors.InvalidRequest('subject_token is missing');
    const audience = params.resource ?? issuer;
    if (params.resource !== undefined && !(await resources.byUri(params.resource))) {
      throw new errors.InvalidTarget(`${params.resource} is not a registered resource`);
    }
    const expiresIn = seconds(params.expires_in, errors.InvalidRequest);
    const budget = params.budget_limit_usd === undefined ? undefined : Number(params.budget_limit_usd);
    if (budget !== undefined && !(Number.isFinite(budget) && budget >= 0)) throw new errors.InvalidRequest('budget_limit_usd must be an amount');
    const parent = await subjectOf(params.subject_token, errors);
    const jti = randomBytes(32).toString('base64url');
    const client = ctx.oidc.client!;
    let child: Awaited<ReturnType<ChildTokenService['delegate']>>;
    try {
      child = await childTokens.delegate(parent, parent.tokenId, {
        agent_id: client.clientId.slice(0, 128), permissions: (params.scope ?? '').split(' ').filter(Boolean),
        ...(expiresIn !== undefined ? { expires_in: expiresIn } : {}), ...(budget !== undefined ? { budget_limit_usd: budget } : {}),
      }, { credentialHash: exchangedTokenHash(jti) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const field = (err.opts.details as { field?: string } | undefined)?.field;
      if (err.code === 'AGENT_PERMISSION_DENIED' && field === 'permissions') throw new errors.InvalidScope('scope is wider than the subject token may give');
      throw new errors.InvalidGrant(`the subject token cannot delegate this: ${err.code}`);
    }
    const now = Math.floor(clock.now().getTime() / 1000);
    const exp = Math.floor(new Date(child.expires_at).getTime() / 1000);
    const scope = child.granted_permissions.join(' ');
    const token = await signed({ iss: issuer, sub: String(parent.user.id), aud: audience, client_id: client.clientId, scope, jti, iat: now,
      exp, act: actOf(child.chain) });
    ctx.set('cache-control', 'no-store');
    ctx.body = { access_token: token, issued_token_type: ACCESS_TOKEN_TYPE, token_type: 'Bearer', expires_in: exp - now,
      ...(scope ? { scope } : {}) };
  }

  /**
   * Introspection of a JWT this grant issued: active while the child, every ancestor and its person may act, `scope`
   * what it may use now, `act` its chain; inactive for a resource that is not its audience.
   */
  async function introspect(claims: AccessTokenClaims, callerResource: string | undefined): Promise<Record<string, unknown>> {
    if (callerResource !== undefined && !claims.aud.includes(callerResource)) return { active: false };
    const now = await agents.inspectExchanged(claims.jti, orgPermissions);
    if (!now) return { active: false };
    return { active: true, scope: now.permissions.join(' ') || undefined, client_id: claims.client_id, sub: String(now.userId),
      aud: claims.aud.length === 1 ? claims.aud[0] : claims.aud, iss: claims.iss, exp: claims.exp, iat: claims.iat, token_type: 'Bearer',
      jti: claims.jti, act: actOf(now.chain) };
  }

  /** Revocation by the client it was issued to: the child (and its descendants) revoked; any other caller changes nothing. */
  async function revoke(claims: AccessTokenClaims, callerClientId: string): Promise<void> {
    if (claims.client_id === callerClientId) await agents.revokeExchanged(claims.jti);
  }

  return { handler, introspect, revoke };
}

export type TokenExchange = ReturnType<typeof createTokenExchange>;
