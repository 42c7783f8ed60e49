import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import type { SocialProviderConfig } from '../../config/social-providers.js';
import { identityFromClaims, PROVIDER_TIMEOUT_SECONDS, ProviderError, type ProviderIdentity } from './identity.js';
import { callProvider } from './provider-http.js';

export interface CodeExchange {
  code: string;
  redirectUri: string;
  codeVerifier?: string | undefined;
  /** The browser flow's nonce: the ID token must carry it. */
  nonce?: string | undefined;
}

/**
 * OpenID providers through `openid-client`: discovery (cached per provider once it succeeded), the authorization code
 * grant with PKCE and ID-token validation, userinfo; and a standalone ID token verified with `jose` against the
 * issuer's JWKS (signature, `iss`, `aud`, `exp`, `nonce`). Every call is bounded by PROVIDER_TIMEOUT_SECONDS.
 */
export function createOidcClient() {
  const configurations = new Map<string, Promise<client.Configuration>>();
  const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  async function discover(p: SocialProviderConfig): Promise<client.Configuration> {
    // Configuration only accepts http for a loopback issuer (a local identity provider).
    const insecure = new URL(p.issuer!).protocol === 'http:';
    const config = await client.discovery(new URL(p.issuer!), p.client_id, undefined, client.ClientSecretBasic(p.client_secret),
      { timeout: PROVIDER_TIMEOUT_SECONDS, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) });
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    return config;
  }

  function configurationOf(p: SocialProviderConfig): Promise<client.Configuration> {
    let config = configurations.get(p.name);
    if (!config) {
      config = discover(p);
      configurations.set(p.name, config);
      // A failed discovery is tried again by the next sign-in.
      config.catch(() => configurations.delete(p.name));
    }
    return config.catch(() => { throw new ProviderError('discovery_failed'); });
  }

  /** The authorization code grant: 401 CODE_EXCHANGE_FAILED is the caller's answer to any failure here. */
  async function exchangeCode(p: SocialProviderConfig, x: CodeExchange): Promise<ProviderIdentity> {
    const config = await configurationOf(p);
    const callback = new URL(x.redirectUri);
    callback.search = '';
    callback.hash = '';
    callback.searchParams.set('code', x.code);
    // A provider that names itself in authorization responses (RFC 9207) is expected to: the code reached us through the
    // client, not a redirect, so the issuer we discovered is the one it came from.
    if (config.serverMetadata().authorization_response_iss_parameter_supported) callback.searchParams.set('iss', config.serverMetadata().issuer);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callback, {
        ...(x.codeVerifier ? { pkceCodeVerifier: x.codeVerifier } : {}), ...(x.nonce ? { expectedNonce: x.nonce } : {}),
        idTokenExpected: true,
      });
    } catch (err) {
      throw new ProviderError(errorCodeOf(err, 'code_exchange_failed'));
    }
    const claims = tokens.claims()!;
    let info: Record<string, unknown> = {};
    try {
      info = await client.fetchUserInfo(config, tokens.access_token, claims.sub) as Record<string, unknown>;
    } catch {
      // The ID token is enough; userinfo only completes the profile.
    }
    return identityFromClaims(p.name, { ...info, ...claims });
  }

  /** A provider ID token: signature by the issuer's keys, issuer, our client as audience, expiry, and the nonce when given. */
  async function verifyIdToken(p: SocialProviderConfig, idToken: string, nonce?: string): Promise<ProviderIdentity> {
    const metadata = (await configurationOf(p)).serverMetadata();
    if (!metadata.jwks_uri) throw new ProviderError('no_jwks_uri');
    let keys = keySets.get(p.name);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: PROVIDER_TIMEOUT_SECONDS * 1000 });
      keySets.set(p.name, keys);
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(idToken, keys, { issuer: metadata.issuer, audience: p.client_id }));
    } catch (err) {
      throw new ProviderError(errorCodeOf(err, 'invalid_id_token'));
    }
    if (nonce !== undefined && payload.nonce !== nonce) throw new ProviderError('nonce_mismatch');
    return identityFromClaims(p.name, payload);
  }

  /**
   * A google access token, only once google's tokeninfo says it was issued to our client (`aud` or `azp`): else a token
   * granted to any other site would sign its holder in. The profile then comes from userinfo.
   */
  async function fromAccessToken(p: SocialProviderConfig, accessToken: string): Promise<ProviderIdentity> {
    if (p.name !== 'google' || !p.tokeninfo_url) throw new ProviderError('token_check_unavailable');
    const url = new URL(p.tokeninfo_url);
    url.searchParams.set('access_token', accessToken);
    const info = await callProvider(url) as Record<string, unknown>;
    if (info.aud !== p.client_id && info.azp !== p.client_id) throw new ProviderError('token_not_ours');
    const config = await configurationOf(p);
    let profile: Record<string, unknown>;
    try {
      profile = await client.fetchUserInfo(config, accessToken, client.skipSubjectCheck) as Record<string, unknown>;
    } catch (err) {
      throw new ProviderError(errorCodeOf(err, 'userinfo_failed'));
    }
    if (typeof info.sub === 'string' && profile.sub !== info.sub) throw new ProviderError('subject_mismatch');
    return identityFromClaims(p.name, profile);
  }

  /** The browser flow's step to the provider: its authorization URL with state, PKCE S256 and nonce. */
  async function authorizationUrl(p: SocialProviderConfig, a: { redirectUri: string; state: string; codeChallenge: string; nonce: string }) {
    return client.buildAuthorizationUrl(await configurationOf(p), {
      redirect_uri: a.redirectUri, scope: p.scopes.join(' '), state: a.state, nonce: a.nonce,
      code_challenge: a.codeChallenge, code_challenge_method: 'S256',
    });
  }

  return { exchangeCode, verifyIdToken, fromAccessToken, authorizationUrl };
}

/** A library error's code (never its message, which may quote the provider's answer). */
const errorCodeOf = (err: unknown, fallback: string): string => {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(code) ? code.toLowerCase() : fallback;
};

export type OidcClient = ReturnType<typeof createOidcClient>;
