/**
 * What the MCP server tells clients about its protection, and the local check of the access tokens they send:
 * the Protected Resource Metadata (RFC 9728) that names Gatehouse as the authorization server, the 401 challenge
 * that points at it (RFC 6750 §3, RFC 9728 §5.1), and the verification of Gatehouse's JWT access tokens (RFC 9068)
 * against its key set — offline, without a call to Gatehouse.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';

export interface BearerOptions {
  /** Gatehouse's issuer: `SVC_PUBLIC_URL` without its trailing slash. */
  issuer: string;
  /** The MCP endpoint's URL, registered in Gatehouse as a resource: the audience of the tokens it accepts. */
  resource: string;
  /** The permission codes the tools need: the scopes a client asks for. */
  scopes: string[];
  /** The time the tokens' expiry is checked against (tests move it). */
  now?: () => Date;
}

/** Where the metadata lives: the well-known path with the endpoint's path appended (RFC 9728 §3.1). */
export const metadataUrlOf = (resource: string) => {
  const url = new URL(resource);
  return new URL(`/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`, url.origin).href;
};

/** A request that may not reach the tools: the status and headers to answer it with. */
export interface Refusal { status: 401; challenge: string; body: { error?: string; error_description: string } }

export function createBearerCheck(opts: BearerOptions) {
  // The key set is fetched once and again only for an unknown `kid` (a rotation), as jose caches it.
  const jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', opts.issuer));
  const resourceMetadataUrl = metadataUrlOf(opts.resource);

  const metadata: OAuthProtectedResourceMetadata = {
    resource: opts.resource,
    authorization_servers: [opts.issuer],
    scopes_supported: opts.scopes,
    bearer_methods_supported: ['header'],
    resource_name: 'Gatehouse example MCP server',
  };

  /**
   * The challenge names the metadata, so that a client that knows nothing of this server can find Gatehouse; its
   * `scope` is what a client asks for: the tools' permissions, and `offline_access` for a refresh token, so that the
   * person is not sent through consent again each time an access token expires.
   */
  function refuse(error?: { code: 'invalid_token'; description: string }): Refusal {
    const parts = [`resource_metadata="${resourceMetadataUrl}"`, `scope="${[...opts.scopes, 'offline_access'].join(' ')}"`];
    if (error) parts.unshift(`error="${error.code}"`, `error_description="${error.description}"`);
    return { status: 401, challenge: `Bearer ${parts.join(', ')}`,
      body: error ? { error: error.code, error_description: error.description } : { error_description: 'An access token is required' } };
  }

  /** The token's grant as the MCP SDK hands it to the tools (`extra.authInfo`), or the refusal to answer. */
  async function check(authorization: string | undefined): Promise<AuthInfo | Refusal> {
    // No bearer token at all: a bare challenge, without an error code (RFC 6750 §3.1).
    const [scheme, token, ...rest] = (authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length) return refuse();
    try {
      // `typ: at+jwt` keeps an ID token, signed by the same keys, from passing as an access token (RFC 9068 §4);
      // the audience keeps a token Gatehouse issued for another resource from being replayed here. Gatehouse signs
      // access tokens RS256 (docs/oauth.md "Resources"): no other algorithm is accepted.
      const { payload } = await jwtVerify(token, jwks, { issuer: opts.issuer, audience: opts.resource, typ: 'at+jwt',
        algorithms: ['RS256'], ...(opts.now ? { currentDate: opts.now() } : {}) });
      if (typeof payload.sub !== 'string' || typeof payload.client_id !== 'string' || typeof payload.exp !== 'number') {
        return refuse({ code: 'invalid_token', description: 'The access token lacks sub, client_id or exp' });
      }
      return { token, clientId: payload.client_id, expiresAt: payload.exp, resource: new URL(opts.resource),
        scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [], extra: { sub: payload.sub } };
    } catch (err) {
      // Gatehouse's key set out of reach says nothing of the token: the server answers 503, not a 401 that would send
      // the client through consent again (jose throws its base error, or the fetch's, when it cannot read the set).
      if (!(err instanceof errors.JOSEError) || err.constructor === errors.JOSEError
        || err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) throw err;
      const description = err instanceof errors.JWTExpired ? 'The access token expired' : 'The access token is not valid here';
      return refuse({ code: 'invalid_token', description });
    }
  }

  return { metadata, resourceMetadataUrl, check };
}

export type BearerCheck = ReturnType<typeof createBearerCheck>;
