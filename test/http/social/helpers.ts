import * as client from 'openid-client';
import type { LightMyRequestResponse } from 'fastify';
import { startOAuth2Server, type TestOAuth2Server } from '../../helpers/oauth2-server.js';
import { startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.js';
import type { TestApp } from '../../helpers/test-app.js';

/** The test application's one redirect URI. */
export const APP_REDIRECT = 'http://localhost:3000/callback';

/** Gatehouse's own callback for a provider, as the browser flow gives it to the provider (requests sent with `Host: localhost`). */
export const serviceCallback = (name: string) => `http://localhost/api/v1/auth/social/${name}/callback/`;

/** A real OpenID provider (google) and a GitHub-shaped OAuth 2 server (github) on loopback, and the setting naming them. */
export async function startProviders() {
  const op: TestOidcProvider = await startOidcProvider({ redirectUris: [APP_REDIRECT, serviceCallback('google')] });
  const gh: TestOAuth2Server = await startOAuth2Server();
  const setting = JSON.stringify({
    google: { client_id: op.clientId, client_secret: op.clientSecret, issuer: op.issuer },
    github: { client_id: gh.clientId, client_secret: gh.clientSecret, ...gh.urls },
  });
  return { op, gh, env: { SVC_SOCIAL_PROVIDERS: setting }, close: async () => { await op.close(); await gh.close(); } };
}

export async function pkce() {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) };
}

/** POST social/<provider>/ with application headers. */
export const socialLogin = (t: TestApp, provider: string, payload: object) =>
  t.api({ method: 'POST', path: `social/${provider}/`, payload }) as Promise<LightMyRequestResponse>;
