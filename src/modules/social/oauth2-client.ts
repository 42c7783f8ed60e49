import type { SocialProviderConfig } from '../../config/social-providers.js';
import { ProviderError, splitName, type ProviderIdentity } from './identity.js';
import type { CodeExchange } from './oidc-client.js';
import { callProvider } from './provider-http.js';

/**
 * The plain OAuth 2 providers (github, facebook): code exchange, the profile and its verified address, and the proof
 * that a provider access token was issued to our client. Every call goes through `callProvider` (bounded; an answer
 * that is not the JSON expected fails the sign-in, never the server).
 */
export function createOAuth2Client() {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /** The authorization code grant (client secret in the body, as both providers accept). */
  async function exchangeCode(p: SocialProviderConfig, x: CodeExchange): Promise<ProviderIdentity> {
    const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: p.client_id, client_secret: p.client_secret,
      code: x.code, redirect_uri: x.redirectUri, ...(x.codeVerifier ? { code_verifier: x.codeVerifier } : {}) });
    const body = await callProvider(p.token_url!, { method: 'POST', body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' } }) as Record<string, unknown>;
    if (typeof body.access_token !== 'string' || body.access_token === '') {
      throw new ProviderError(typeof body.error === 'string' ? body.error.slice(0, 64) : 'no_access_token');
    }
    return profile(p, body.access_token);
  }

  /**
   * A provider access token, only once the provider confirmed it was issued to our client (docs/social-login.md: else a token
   * granted to any other site would sign its holder in).
   */
  async function fromAccessToken(p: SocialProviderConfig, accessToken: string): Promise<ProviderIdentity> {
    if (p.name === 'github' && p.token_check_url) {
      const basic = Buffer.from(`${p.client_id}:${p.client_secret}`).toString('base64');
      await callProvider(p.token_check_url.replace('{client_id}', encodeURIComponent(p.client_id)), { method: 'POST',
        body: JSON.stringify({ access_token: accessToken }), headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' } });
    } else if (p.name === 'facebook' && p.debug_token_url) {
      const url = new URL(p.debug_token_url);
      url.searchParams.set('input_token', accessToken);
      url.searchParams.set('access_token', `${p.client_id}|${p.client_secret}`);
      const data = ((await callProvider(url.toString())) as { data?: { app_id?: unknown; is_valid?: unknown } }).data;
      if (data?.is_valid !== true || String(data.app_id) !== p.client_id) throw new ProviderError('token_not_ours');
    } else {
      throw new ProviderError('token_check_unavailable');
    }
    return profile(p, accessToken);
  }

  /** The person behind a token: github's verified primary address from its emails API; facebook's address is trusted. */
  async function profile(p: SocialProviderConfig, accessToken: string): Promise<ProviderIdentity> {
    const user = await callProvider(p.userinfo_url!, { headers: bearer(accessToken) }) as Record<string, unknown>;
    const id = typeof user.id === 'number' || typeof user.id === 'string' ? String(user.id) : '';
    if (!id) throw new ProviderError('no_subject');
    let email: string | null = null;
    if (p.name === 'github' && p.emails_url) {
      const emails = await callProvider(p.emails_url, { headers: bearer(accessToken) });
      const primary = Array.isArray(emails)
        ? emails.find((e) => (e as { primary?: unknown }).primary === true && (e as { verified?: unknown }).verified === true) as
          { email?: unknown } | undefined
        : undefined;
      email = typeof primary?.email === 'string' ? primary.email : null;
    } else if (p.name === 'facebook') {
      email = typeof user.email === 'string' ? user.email : null;
    }
    const names = typeof user.first_name === 'string' ? { firstName: user.first_name.slice(0, 150),
      lastName: typeof user.last_name === 'string' ? user.last_name.slice(0, 150) : '' } : splitName(user.name);
    return { subject: id, email: email?.trim().toLowerCase() || null, ...names };
  }

  /** The browser flow's step to the provider: its authorization URL with state and PKCE S256. */
  function authorizationUrl(p: SocialProviderConfig, a: { redirectUri: string; state: string; codeChallenge: string }): URL {
    const url = new URL(p.authorization_url!);
    url.searchParams.set('client_id', p.client_id);
    url.searchParams.set('redirect_uri', a.redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', p.scopes.join(' '));
    url.searchParams.set('state', a.state);
    url.searchParams.set('code_challenge', a.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    return url;
  }

  return { exchangeCode, fromAccessToken, authorizationUrl };
}

export type OAuth2Client = ReturnType<typeof createOAuth2Client>;
