import * as client from 'openid-client';
import type { LightMyRequestResponse } from 'fastify';
import { startOAuth2Server, type TestOAuth2Server } from '../../helpers/oauth2-server.js';
import { startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.js';
import type { TestApp } from '../../helpers/test-app.js';

/** The test application's one redirect URI. */
export const APP_REDIRECT = 'http://localhost:3000/callback';

/** Gatehouse's own callback for a provider, as the browser flow gives it to the provider (requests sent with `Host: localhost`). */
export const serviceCallback = (name: string) => `http://localhost/api/v1/auth/social/${name}/callback/`;

/**
 * A real OpenID provider (google, with a Google-shaped tokeninfo), a GitHub-shaped and a Facebook-shaped OAuth 2 server
 * on loopback, and the setting naming them: every URL the service calls is on 127.0.0.1.
 */
export async function startProviders() {
  const op: TestOidcProvider = await startOidcProvider({ redirectUris: [APP_REDIRECT, serviceCallback('google')] });
  const gh: TestOAuth2Server = await startOAuth2Server();
  const fb: TestOAuth2Server = await startOAuth2Server({ shape: 'facebook' });
  const setting = JSON.stringify({
    google: { client_id: op.clientId, client_secret: op.clientSecret, issuer: op.issuer, tokeninfo_url: op.tokeninfoUrl },
    github: { client_id: gh.clientId, client_secret: gh.clientSecret, ...gh.urls },
    facebook: { client_id: fb.clientId, client_secret: fb.clientSecret, ...fb.urls },
  });
  return { op, gh, fb, env: { SVC_SOCIAL_PROVIDERS: setting },
    restore: () => { op.restore(); gh.restore(); fb.restore(); },
    close: async () => { await Promise.all([op.close(), gh.close(), fb.close()]); } };
}

export async function pkce() {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) };
}

/** POST social/<provider>/ with application headers. */
export const socialLogin = (t: TestApp, provider: string, payload: object) =>
  t.api({ method: 'POST', path: `social/${provider}/`, payload }) as Promise<LightMyRequestResponse>;
