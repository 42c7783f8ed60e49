import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createEndpointFaults } from './endpoint-faults.js';

/** Claims a test gives an account; any other key is released too when named in `extraClaims`. */
export interface OidcAccount {
  email?: string; email_verified?: boolean;
  name?: string; given_name?: string; family_name?: string;
  [claim: string]: unknown;
}

export type OidcEndpoint = 'discovery' | 'jwks' | 'token' | 'userinfo' | 'tokeninfo';

export interface OidcProviderOptions {
  /** Redirect URIs registered for the client: the service's `…/social/<provider>/callback/`, the application's… */
  redirectUris: string[];
  clientId?: string; clientSecret?: string;
  /** Claims beyond the standard ones (for example `xms_edov`), released with the `email` scope. */
  extraClaims?: string[];
}

export interface IdTokenOptions {
  sub: string;
  nonce?: string;
  /** `audience` defaults to the client id, `issuer` to the provider's. */
  audience?: string | string[];
  issuer?: string;
  /** Seconds from `now` to `exp`; negative for a token already expired. Defaults to 300. */
  expiresIn?: number;
  /** Defaults to the real time; pass the service's test clock to match it. */
  now?: Date;
  /** Signs with an unrelated RSA key that carries the provider's `kid`, so only the signature gives it away. */
  signWithForeignKey?: boolean;
  /** Claims added over the account's ones. */
  claims?: Record<string, unknown>;
}

export interface AuthorizeOptions {
  sub: string; redirectUri: string; codeChallenge?: string; nonce?: string; state?: string; scope?: string;
  /** Another client registered at the provider (`otherClient`), as another site would be. */
  client?: { id: string; secret: string };
}

export interface TokenResponse { access_token: string; id_token: string; token_type: string; expires_in: number; scope: string }

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: http on loopback, so openid-client needs `allowInsecureRequests`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A second confidential client with the same redirect URIs: another site, whose tokens must not sign anyone in. */
  otherClient: { id: string; secret: string };
  /**
   * Google-shaped `GET /tokeninfo?access_token=`: `aud`, `azp` (the client the token was issued to), `sub`, `scope`,
   * `exp`, `expires_in`; 400 `invalid_token` for a token it does not hold.
   */
  tokeninfoUrl: string;
  setAccount(sub: string, account: OidcAccount): void;
  /**
   * Follows an authorization URL (as the service builds it) through the provider's real endpoints, signing in
   * and consenting as `sub` (or refusing, with `deny`), and answers the final redirect to the client.
   */
  signIn(authorizationUrl: string | URL, sub: string, opts?: { deny?: boolean }): Promise<URL>;
  /** Builds the authorization request itself, signs in as `sub` and answers the code from the redirect. */
  authorize(opts: AuthorizeOptions): Promise<{ code: string; state: string | undefined; redirect: URL }>;
  /** The real code exchange at the token endpoint (client_secret_basic), by the client the code was issued to. */
  exchange(code: string, redirectUri: string, codeVerifier?: string, client?: { id: string; secret: string }): Promise<TokenResponse>;
  /** An ID token for an account, signed with the key published at the provider's `jwks_uri`. */
  issueIdToken(opts: IdTokenOptions): Promise<string>;
  /** Holds requests to `on` for `ms` before handling them (the service gives up after 5 s). */
  stall(ms: number, on?: OidcEndpoint[]): void;
  /** Makes `on` answer 200 with an HTML page instead of JSON. */
  garbage(on?: OidcEndpoint[]): void;
  restore(): void;
  close(): Promise<void>;
}

// Minimal shapes of the untyped oidc-provider module, for the parts used here.
interface KoaContext { path: string; method: string; req: IncomingMessage; res: ServerResponse; status: number; type: string; body: unknown; redirect(url: string): void }
interface Grant { addOIDCScope(scope: string): void; save(): Promise<string> }
interface Provider {
  use(fn: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ params: Record<string, string> }>;
  interactionResult(req: IncomingMessage, res: ServerResponse, result: object, opts?: object): Promise<string>;
  Grant: new (init: { accountId: string; clientId: string }) => Grant;
  AccessToken: { find(value: string): Promise<{ accountId: string; clientId: string; scope?: string; exp: number } | undefined> };
}
interface OidcProviderModule { default: new (issuer: string, config: object) => Provider; createMemoryAdapter(): unknown }

const DEFAULT_FAULTS: OidcEndpoint[] = ['token', 'userinfo'];
const PATHS: Record<string, OidcEndpoint> = { '/.well-known/openid-configuration': 'discovery', '/jwks': 'jwks', '/token': 'token',
  '/me': 'userinfo', '/tokeninfo': 'tokeninfo' };

let loaded: Promise<OidcProviderModule> | undefined;
/**
 * oidc-provider 9 warns once, on import, that Node 20 is not a release it supports; it runs on Node 20 all the
 * same, so that one line is dropped. The specifiers are strings so the untyped package needs no declarations.
 */
function loadOidcProvider(): Promise<OidcProviderModule> {
  return loaded ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => { if (!String(args[0]).includes('Unsupported runtime')) warn(...args); };
    try {
      const [main, memory]: string[] = ['oidc-provider', 'oidc-provider/lib/adapters/memory_adapter.js'];
      const [mod, adapter] = await Promise.all([import(main!), import(memory!)]);
      return { default: mod.default, createMemoryAdapter: adapter.createMemoryAdapter };
    } finally {
      console.warn = warn;
    }
  })();
}

const readForm = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

/** panva's oidc-provider (a certified OpenID Provider) on a free loopback port, with one confidential client. */
export async function startOidcProvider(opts: OidcProviderOptions): Promise<TestOidcProvider> {
  const { default: Provider, createMemoryAdapter } = await loadOidcProvider();
  const clientId = opts.clientId ?? `client-${randomBytes(4).toString('hex')}`;
  const clientSecret = opts.clientSecret ?? randomBytes(24).toString('base64url');
  const otherClient = { id: `other-${randomBytes(4).toString('hex')}`, secret: randomBytes(24).toString('base64url') };
  const accounts = new Map<string, OidcAccount>();
  const faults = createEndpointFaults(DEFAULT_FAULTS);

  const [own, foreign] = await Promise.all([1, 2].map(() => generateKeyPair('RS256', { extractable: true })));
  const kid = randomUUID();
  const signingJwk: JWK = { ...(await exportJWK(own!.privateKey)), kid, alg: 'RS256', use: 'sig' };

  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => { res.writeHead(503).end(); };
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const accountClaims = (sub: string): Record<string, unknown> => {
    const account = accounts.get(sub) ?? {};
    const name = account.name ?? ([account.given_name, account.family_name].filter(Boolean).join(' ') || undefined);
    return { sub, ...account, ...(name ? { name } : {}) };
  };

  const provider = new Provider(issuer, {
    adapter: createMemoryAdapter(),
    // The provider accepts client_secret_post as well from a client registered for client_secret_basic.
    clients: [{ id: clientId, secret: clientSecret }, otherClient].map(({ id, secret }) => ({
      client_id: id, client_secret: secret, redirect_uris: opts.redirectUris,
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified', ...(opts.extraClaims ?? [])], profile: ['name', 'given_name', 'family_name'] },
    // Like Google's, the ID token carries the scope's claims, not only `sub`.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => false },
    clientBasedCORS: () => false,
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    findAccount: (_ctx: unknown, sub: string) => accounts.has(sub) ? { accountId: sub, claims: () => accountClaims(sub) } : undefined,
  });

  provider.use(async (ctx, next) => {
    const endpoint = PATHS[ctx.path];
    await faults.hold(endpoint);
    if (faults.garbled(endpoint)) {
      ctx.status = 200;
      ctx.type = 'text/html';
      ctx.body = '<html><body><h1>Service temporarily unavailable</h1></body></html>';
      return;
    }
    if (endpoint === 'tokeninfo') {
      const token = await provider.AccessToken.find(new URL(ctx.req.url ?? '/', issuer).searchParams.get('access_token') ?? '');
      ctx.type = 'application/json';
      const now = Math.floor(Date.now() / 1000);
      [ctx.status, ctx.body] = token
        ? [200, { azp: token.clientId, aud: token.clientId, sub: token.accountId, scope: token.scope ?? '', exp: String(token.exp),
          expires_in: String(token.exp - now), ...(accounts.get(token.accountId)?.email ? { email: accounts.get(token.accountId)!.email } : {}) }]
        : [400, { error: 'invalid_token', error_description: 'Invalid Value' }];
      return;
    }
    // The login and consent screen: a POST carrying the account to sign in as (or `deny`) finishes both at once.
    const interaction = /^\/interaction\/[\w-]+$/.test(ctx.path);
    if (!interaction || ctx.method !== 'POST') return next();
    const form = await readForm(ctx.req);
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    let result: object;
    if (form.get('deny')) {
      result = { error: 'access_denied', error_description: 'The user refused access.' };
    } else {
      const accountId = form.get('sub') ?? '';
      const grant = new provider.Grant({ accountId, clientId: details.params.client_id! });
      grant.addOIDCScope(details.params.scope ?? 'openid');
      result = { login: { accountId }, consent: { grantId: await grant.save() } };
    }
    ctx.status = 303;
    ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }));
  });
  handler = provider.callback();

  const signIn = async (authorizationUrl: string | URL, sub: string, { deny = false } = {}): Promise<URL> => {
    if (!deny && !accounts.has(sub)) throw new Error(`no account "${sub}": call setAccount first`);
    const cookies = new Map<string, string>();
    let url = new URL(authorizationUrl);
    let init: RequestInit = {};
    for (let hop = 0; hop < 10; hop += 1) {
      const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { ...init, redirect: 'manual', headers: { cookie, ...init.headers } });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) {
        throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${(await res.text()).slice(0, 500)}`);
      }
      await res.body?.cancel();
      url = new URL(location, url);
      if (url.origin !== issuer) return url;
      init = url.pathname.startsWith('/interaction/')
        ? { method: 'POST', body: new URLSearchParams(deny ? { deny: '1' } : { sub }), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
        : {};
    }
    throw new Error('the authorization request did not come back to the client after 10 redirects');
  };

  return {
    issuer, clientId, clientSecret, otherClient, tokeninfoUrl: `${issuer}/tokeninfo`, signIn,
    setAccount: (sub, account) => { accounts.set(sub, account); },
    async authorize({ sub, redirectUri, codeChallenge, nonce, state, scope = 'openid email profile', client }) {
      const url = new URL('/auth', issuer);
      const params = { client_id: client?.id ?? clientId, response_type: 'code', scope, redirect_uri: redirectUri, state, nonce,
        ...(codeChallenge ? { code_challenge: codeChallenge, code_challenge_method: 'S256' } : {}) };
      for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
      const redirect = await signIn(url, sub);
      const code = redirect.searchParams.get('code');
      if (!code) throw new Error(`no code in the redirect: ${redirect.href}`);
      return { code, state: redirect.searchParams.get('state') ?? undefined, redirect };
    },
    async exchange(code, redirectUri, codeVerifier, client = { id: clientId, secret: clientSecret }) {
      const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
      if (codeVerifier) body.set('code_verifier', codeVerifier);
      const basic = Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64');
      const res = await fetch(new URL('/token', issuer), { method: 'POST', body, headers: { authorization: `Basic ${basic}` } });
      const json = await res.json() as TokenResponse;
      if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${JSON.stringify(json)}`);
      return json;
    },
    async issueIdToken({ sub, nonce, audience = clientId, issuer: iss = issuer, expiresIn = 300, now = new Date(), signWithForeignKey = false, claims = {} }) {
      const iat = Math.floor(now.getTime() / 1000);
      const payload = { ...accountClaims(sub), ...(nonce === undefined ? {} : { nonce }), ...claims };
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer(iss).setAudience(audience).setSubject(sub).setIssuedAt(iat).setExpirationTime(iat + expiresIn)
        .sign((signWithForeignKey ? foreign : own)!.privateKey);
    },
    ...faults.controls,
    close: () => faults.close(server),
  };
}
