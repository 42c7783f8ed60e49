import { TOKEN_EXCHANGE } from './token-exchange.js';
import type { AdapterPayload } from 'oidc-provider';
import type { AppCredentialService } from '../applications/app-credentials.service.js';
import { isLoopbackHttp } from './loopback.js';
import type { OauthResourceService } from './resources.service.js';

/** Set on a resource's client metadata: the URI whose tokens it may introspect (docs/oauth.md "Resources"). */
export const RESOURCE_URI = 'gatehouse_resource';

/**
 * A confidential application's `client_secret` as the provider sees it: never the secret (only its hash is stored);
 * {@link OauthClients.verifySecret} checks what a client presents (docs/oauth.md "Clients").
 */
export const SECRET_HELD_AS_HASH = 'held-as-a-hash-see-verifySecret';

/**
 * Whether every redirect URI is a loopback `http` address: a native client (RFC 8252), whose redirect matches on any
 * port. (An application's redirect URIs are `http` or `https`, so a private-use scheme never reaches here.)
 */
const isNative = (redirectUris: string[]): boolean => redirectUris.length > 0 && redirectUris.every((uri) => isLoopbackHttp(new URL(uri)));

/**
 * Every Gatehouse application is an OAuth client (docs/oauth.md "Clients"): `client_id` is its access key, a
 * confidential one authenticates with its access secret (`client_secret_basic` or `client_secret_post`), a public one
 * with `none`; its redirect URIs match exactly, but for a native client's loopback port (RFC 8252).
 */
export function createOauthClients({ appCredentials, resources }: { appCredentials: AppCredentialService; resources: OauthResourceService }) {
  /** A registered resource as a client: it only introspects, with its own credentials. */
  async function resourceMetadataOf(clientId: string): Promise<AdapterPayload | undefined> {
    const resource = await resources.byClientId(clientId);
    if (!resource) return undefined;
    return { client_id: clientId, client_name: resource.name, redirect_uris: [], grant_types: [], response_types: [],
      token_endpoint_auth_method: 'client_secret_basic', client_secret: SECRET_HELD_AS_HASH, [RESOURCE_URI]: resource.uri } as AdapterPayload;
  }

  /** The client metadata of the active application with this access key, or of the resource with this client id, or undefined. */
  async function metadataOf(clientId: string): Promise<AdapterPayload | undefined> {
    if (clientId.startsWith('rs_')) return resourceMetadataOf(clientId);
    const app = await appCredentials.activeApplication(clientId);
    if (!app) return undefined;
    const redirects = app.redirect_uris.filter((uri) => URL.canParse(uri));
    const canAuthorize = redirects.length > 0;
    return {
      client_id: clientId,
      client_name: app.name,
      application_type: isNative(redirects) ? 'native' : 'web',
      redirect_uris: redirects,
      post_logout_redirect_uris: app.post_logout_redirect_uris,
      // Without a redirect URI an application can still introspect and revoke, never authorize.
      // Any application may exchange an agent token that may delegate for a narrower child (docs/agents.md "Delegation").
      grant_types: canAuthorize ? ['authorization_code', 'refresh_token', TOKEN_EXCHANGE] : [TOKEN_EXCHANGE],
      response_types: canAuthorize ? ['code'] : [],
      require_auth_time: true,
      ...(app.kind === 'confidential'
        ? { token_endpoint_auth_method: 'client_secret_basic', client_secret: SECRET_HELD_AS_HASH }
        : { token_endpoint_auth_method: 'none' }),
    } as AdapterPayload;
  }

  /** A confidential application's secret, compared as SHA-256 in constant time (the application credentials' own check). */
  async function verifySecret(clientId: string, presented: string): Promise<boolean> {
    return (await authenticateCaller(clientId, presented)) !== null;
  }

  /** A confidential caller by its secret, with the resource URI whose tokens it may introspect when it is a resource. */
  async function authenticateCaller(clientId: string, presented: string): Promise<{ clientId: string; resource?: string } | null> {
    if (clientId.startsWith('rs_')) {
      const resource = await resources.authenticate(clientId, presented);
      return resource ? { clientId, resource: resource.uri } : null;
    }
    return (await appCredentials.authenticate(clientId, presented)) ? { clientId } : null;
  }

  return { metadataOf, verifySecret, authenticateCaller };
}

export type OauthClients = ReturnType<typeof createOauthClients>;
