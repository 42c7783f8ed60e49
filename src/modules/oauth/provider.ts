import type { Configuration, KoaContextWithOIDC, default as Provider } from 'oidc-provider';
import type { Config } from '../../config/settings.js';
import { publicUrlOf } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import type { IssuedToken, OauthAccounts } from './accounts.js';
import { RESOURCE_URI, type OauthClients } from './clients.js';
import { TOKEN_EXCHANGE, TOKEN_EXCHANGE_PARAMETERS, type TokenExchange } from './token-exchange.js';
import { createJwtAccessTokens, introspectable, type IssuingToken } from './jwt-access-tokens.js';
import type { OauthResourceService } from './resources.service.js';
import { recordAdapter } from './record-adapter.js';
import { handBack, readBody } from './request-body.js';
import type { AccessTokenVerifier } from './access-token-verifier.js';
import { rotateUnlessInGrace, type RefreshGrace } from './refresh-grace.js';
import { orgSlugsIn } from './consent.js';
import { checkTarget } from '../webhooks/url-guard.js';

/** Where the protocol's endpoints live, at the host root (docs/oauth.md "Endpoints"). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  revocation: '/oauth/revoke',
  end_session: '/oauth/logout',
  registration: '/oauth/register',
  jwks: '/.well-known/jwks.json',
} as const;

/** The parameter an authorization request's `offline_access` is carried in (see the middleware in createProvider). */
export const OFFLINE_REQUESTED = 'gatehouse_offline_access';

/** Whether the grant behind a token request holds offline access. */
const grantsOffline = (grant: { getOIDCScope(): string } | undefined) => Boolean(grant?.getOIDCScope().split(' ').includes('offline_access'));

/** Set on every client registered dynamically: it is not one of Gatehouse's applications, and the pages say so. */
export const REGISTERED = 'gatehouse_registered';

/**
 * What a dynamic registration may ask for (docs/oauth.md "Dynamic registration"): a public client, whatever it asked
 * (a confidential one is downgraded to `none`: the secret would be handed to whoever asked), the code flow only, and
 * marked as registered — a value it sends itself is overwritten. Other clients pass unchanged.
 */
function registeredClientRules(ctx: KoaContextWithOIDC | undefined, key: string, _value: unknown, metadata: Record<string, unknown>) {
  const byDocument = isMetadataDocumentId(metadata.client_id);
  // A client describing itself (registering, or by its metadata document) cannot claim a resource's audience.
  if (key === RESOURCE_URI && (ctx?.oidc?.route === 'registration' || byDocument)) delete metadata[RESOURCE_URI];
  if (key !== REGISTERED) return;
  // A metadata-document client is unverified too: whoever serves the document names it.
  if (byDocument) {
    metadata[REGISTERED] = true;
    return;
  }
  if (ctx?.oidc?.route !== 'registration') return;
  metadata[REGISTERED] = true;
  metadata.token_endpoint_auth_method = 'none';
  delete metadata.client_secret;
  metadata.grant_types = (Array.isArray(metadata.grant_types) ? metadata.grant_types : ['authorization_code'])
    .filter((g) => g === 'authorization_code' || g === 'refresh_token');
  metadata.response_types = ['code'];
}

/** The `org:<slug>` scopes a request names, or its grant holds for the resource (consent.ts decides which one is granted). */
function orgScopesAt(ctx: KoaContextWithOIDC, indicator: string): string[] {
  const grant = ctx.oidc.entities.Grant as { resources?: Record<string, string> } | undefined;
  const requested = (ctx.oidc.params as { scope?: string } | undefined)?.scope;
  return [...new Set([...orgSlugsIn(requested), ...orgSlugsIn(grant?.resources?.[indicator])])].map((slug) => `org:${slug}`);
}

/** A client_id that names its metadata document (an https URL; applications' and resources' ids never are). */
const isMetadataDocumentId = (clientId: unknown) => typeof clientId === 'string' && /^https:\/\//i.test(clientId);

/**
 * The provider's outgoing requests (Client ID Metadata Documents): with private addresses allowed, Node's own fetch —
 * TLS verified as always — instead of the provider's dispatcher, which refuses loopback and private peers at connect
 * time; otherwise that dispatcher stays, behind the address check `allowFetch` made.
 */
function metadataFetch(allowPrivate: boolean): NonNullable<Configuration['fetch']> {
  return async (url, options) => {
    if (allowPrivate) delete (options as { dispatcher?: unknown }).dispatcher;
    return withoutScope(await globalThis.fetch(url, options as RequestInit));
  };
}

/**
 * A client describing itself may name a `scope` (RFC 7591), which the provider checks against its OpenID scopes only
 * and would refuse for any permission code: what a client gets is decided at consent and by the resources' scopes
 * (docs/oauth.md "Dynamic registration"), so the property is dropped — from a metadata document here, from a
 * registration request by {@link withoutRegisteredScope}.
 */
async function withoutScope(res: Response): Promise<Response> {
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').includes('json')) return res;
  const text = await res.text();
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return new Response(text, { status: res.status, headers: res.headers });
  }
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) delete (doc as Record<string, unknown>).scope;
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(doc), { status: res.status, headers });
}

/** The registration endpoint's half of {@link withoutScope}: a JSON registration request loses its `scope`. */
async function withoutRegisteredScope(ctx: KoaContextWithOIDC, next: () => Promise<unknown>) {
  if (ctx.path !== OAUTH_ROUTES.registration || ctx.method !== 'POST' || !ctx.is('application/json')) return next();
  const body = await readBody(ctx);
  let metadata: unknown;
  try {
    metadata = JSON.parse(body.toString('utf8'));
  } catch {
    handBack(ctx, body);
    return next();
  }
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) delete (metadata as Record<string, unknown>).scope;
  handBack(ctx, Buffer.from(JSON.stringify(metadata)));
  return next();
}

/** The sign-in and consent pages of an authorization request. */
export const interactionPath = (uid: string) => `/oauth/interaction/${encodeURIComponent(uid)}`;

/** The scopes of OpenID Connect and the claims each one releases (docs/oauth.md "Scopes"). */
const CLAIMS = {
  // auth_time with openid: every ID token carries it, without asking clients to send openid on every request (as
  // require_auth_time would: MCP clients ask for permission scopes only).
  openid: ['sub', 'auth_time'],
  profile: ['name', 'given_name', 'family_name'],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
};

export interface ProviderDeps {
  resources: OauthResourceService;
  /** Checks the JWT access tokens the provider issued (introspection and revocation of a JWT). */
  verifier: AccessTokenVerifier;
  /** Refresh tokens' reuse grace: successors derived from their predecessors. */
  refreshGrace: RefreshGrace;
  /** What a person holds in an organization, for a grant bound to it (introspection's `scope`). */
  orgPermissions: (slug: string, userId: number) => Promise<ReadonlySet<string> | null>;
  db: Db;
  clock: Clock;
  config: Config;
  clients: OauthClients;
  accounts: OauthAccounts;
  /** The signing keys as private JWKs, RS256 signer first (keys.service.ts `providerKeys`). */
  keys: { keys: Record<string, unknown>[] };
  /** Keys the provider signs its cookies with. */
  cookieKeys: string[];
  pages: ProviderPages;
  /** The token-exchange grant (RFC 8693): delegated agents' JWTs (docs/agents.md "Delegation"). */
  exchange: TokenExchange;
}

/** The pages the provider renders itself (oauth.service.ts gives them the look and policy of the others). */
export interface ProviderPages {
  renderError: NonNullable<Configuration['renderError']>;
  logoutSource: (ctx: KoaContextWithOIDC, form: string) => void;
  postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => void;
}

/**
 * The OpenID Provider (`oidc-provider`, OpenID Certified) configured with Gatehouse's rules (docs/oauth.md): the code
 * flow only, PKCE S256 for every client, codes valid 60 s, refresh tokens rotated, Gatehouse's applications as
 * clients, its accounts and sign-in checks, its signing keys, its database.
 */
export async function createProvider({ db, clock, config, clients, accounts, resources, verifier, refreshGrace, orgPermissions, keys, cookieKeys,
  pages, exchange }: ProviderDeps)
  : Promise<Provider> {
  // Loaded on first use: most deployments never serve OAuth, and importing it on Node 20 prints a runtime notice.
  const { default: OidcProvider, errors } = await import('oidc-provider');
  const jwts = createJwtAccessTokens({ db, clock, clients, verifier, orgPermissions, exchanged: exchange });
  const configuration: Configuration = {
    adapter: recordAdapter(db, clock, clients, errors, refreshGrace.withinGrace),
    findAccount: (_ctx, sub, token) => accounts.find(sub, token as IssuedToken | undefined),
    claims: CLAIMS,
    scopes: ['openid', 'offline_access', 'profile', 'email', 'phone'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256', 'ES256', 'EdDSA'],
      userinfoSigningAlgValues: ['RS256', 'ES256', 'EdDSA'],
      introspectionSigningAlgValues: ['RS256', 'ES256', 'EdDSA'],
    },
    jwks: keys as Configuration['jwks'],
    cookies: {
      keys: cookieKeys,
      names: { session: 'gatehouse_oauth_session', interaction: 'gatehouse_oauth_interaction', resume: 'gatehouse_oauth_resume' },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    routes: OAUTH_ROUTES,
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    features: {
      devInteractions: { enabled: false },
      // Any confidential application may introspect any token (docs/oauth.md "Introspection"); a token whose person can no longer
      // sign in, or issued before their tokens_valid_after, is inactive.
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) =>
          // A public client (no secret: registered dynamically, by its document, or a public application) sees its own tokens only.
          (client.clientAuthMethod !== 'none' || token.clientId === client.clientId)
          && introspectable(accounts, client.metadata()[RESOURCE_URI] as string | undefined, {
            aud: 'aud' in token ? token.aud : undefined, accountId: 'accountId' in token ? token.accountId : undefined, iat: token.iat }),
      },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource: pages.logoutSource, postLogoutSuccessSource: pages.postLogoutSuccessSource },
      // Public clients only (docs/oauth.md "Dynamic registration"): see registeredClientRules.
      registration: { enabled: config.OAUTH_DYNAMIC_REGISTRATION, initialAccessToken: false },
      // A client_id that is an https URL is a Client ID Metadata Document (docs/oauth.md "Client ID Metadata Documents"):
      // fetched under the webhooks' address rules, cached as its Cache-Control says within 30 s to 24 h.
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowFetch: async (_ctx, id) => (await checkTarget(id, config.OAUTH_ALLOW_PRIVATE_CLIENT_METADATA)).ok,
        cacheDuration: { min: 30, max: 86_400 },
      },
      // `resource` must name a registered resource (docs/oauth.md "Resources"): its tokens are RFC 9068 JWTs for it.
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: async (ctx, indicator) => {
          const resource = await resources.byUri(indicator);
          if (!resource) throw new errors.InvalidTarget(`${indicator} is not a registered resource`);
          // `org:<slug>` is never filtered by a resource: the one asked for (or held by the grant) is its scope too.
          const scope = [...resource.scopes, ...orgScopesAt(ctx, indicator)].join(' ');
          return { scope, audience: resource.uri, accessTokenTTL: config.JWT_ACCESS_TOKEN_LIFETIME,
            accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: config.JWT_ACCESS_TOKEN_LIFETIME,
      IdToken: config.JWT_ACCESS_TOKEN_LIFETIME,
      RefreshToken: config.JWT_REFRESH_TOKEN_LIFETIME,
      Grant: config.JWT_REFRESH_TOKEN_LIFETIME,
      Session: config.OAUTH_SESSION_LIFETIME,
      Interaction: 3600,
    },
    extraClientMetadata: { properties: [REGISTERED, RESOURCE_URI], validator: registeredClientRules },
    fetch: metadataFetch(config.OAUTH_ALLOW_PRIVATE_CLIENT_METADATA),
    extraTokenClaims: (ctx, token) => jwts.issued(ctx, token as unknown as IssuingToken),
    // Every refresh rotates, but for a successor handed out again within the reuse grace (refresh-grace.ts).
    rotateRefreshToken: rotateUnlessInGrace,
    extraParams: [OFFLINE_REQUESTED],
    // A refresh token whenever offline_access was granted at consent (docs/oauth.md "Scopes"), prompt=consent or not.
    issueRefreshToken: (ctx, client, code) => client.grantTypeAllowed('refresh_token')
      && (code.scopes.has('offline_access') || grantsOffline(ctx.oidc.entities.Grant)),
    expiresWithSession: (ctx, code) => !code.scopes.has('offline_access') && !grantsOffline(ctx.oidc.entities.Grant),
    renderError: pages.renderError,
  };
  const provider = new OidcProvider(publicUrlOf(config), configuration);
  provider.use((ctx, next) => jwts.middleware(ctx as KoaContextWithOIDC, next, OAUTH_ROUTES));
  provider.use((ctx, next) => withoutRegisteredScope(ctx as KoaContextWithOIDC, next));
  provider.use((ctx, next) => refreshGrace.middleware(ctx as KoaContextWithOIDC, next, OAUTH_ROUTES.token));
  refreshGrace.deriveSuccessors(provider, OidcProvider as unknown as { readonly ctx: KoaContextWithOIDC | undefined });
  // oidc-provider drops offline_access from a request without prompt=consent; the request keeps it as a parameter of its
  // own instead, which the consent step turns into offline access on the grant.
  provider.use(async (ctx, next) => {
    if (ctx.path === OAUTH_ROUTES.authorization && ctx.method === 'GET') {
      const query = new URLSearchParams(ctx.querystring);
      const scopes = (query.get('scope') ?? '').split(' ');
      if (scopes.includes('offline_access')) {
        query.set('scope', scopes.filter((s) => s !== 'offline_access').join(' '));
        query.set(OFFLINE_REQUESTED, 'true');
        ctx.querystring = query.toString();
      }
    }
    await next();
  });
  // A confidential application's secret is held as a hash: what a client presents is checked against it.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientId: string }, presented: string) {
    return clients.verifySecret(this.clientId, presented);
  } as never;
  provider.registerGrantType(TOKEN_EXCHANGE, (ctx) => exchange.handler(ctx as KoaContextWithOIDC, errors as never), TOKEN_EXCHANGE_PARAMETERS);
  // Behind a proxy the issuer's scheme comes from X-Forwarded-Proto, as for the rest of Gatehouse.
  provider.proxy = config.TRUSTED_PROXIES.length > 0;
  return provider;
}
