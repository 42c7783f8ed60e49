import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEndpointFaults } from './endpoint-faults.js';

export interface GithubEmail { email: string; primary: boolean; verified: boolean }

export interface GithubUser {
  id: number;
  name?: string | null;
  /**
   * GitHub: the public profile address `/user` shows (often null); `/user/emails` is the one to trust.
   * Facebook: the account's address, which `/me` gives with the `email` field.
   */
  email?: string | null;
  /** GitHub only. */
  emails?: GithubEmail[];
}

export type OAuth2Endpoint = 'authorize' | 'token' | 'user' | 'emails' | 'token_check';

export interface OAuth2ServerOptions {
  clientId?: string; clientSecret?: string;
  /**
   * `github` (default): `/login/oauth/*`, `/user`, `/user/emails`, `/applications/{client_id}/token`.
   * `facebook`: the Graph API's `/v19.0/dialog/oauth`, `/v19.0/oauth/access_token`, `/me`, `/debug_token`, where the
   * token check is `debug_token` with the app access token `<app id>|<secret>` and errors are 400 OAuthException.
   */
  shape?: 'github' | 'facebook';
}

export interface IssueOptions {
  login: string;
  /** Defaults to the shape's (github `read:user user:email`, facebook `email public_profile`); `/user/emails` needs `user:email` or `user`, `/me`'s `email` needs `email`. */
  scope?: string;
}

export interface TestOAuth2Server {
  /** `http://127.0.0.1:<port>` */
  url: string;
  clientId: string;
  clientSecret: string;
  /**
   * The endpoints, ready for the provider's settings: github's `token_check_url` keeps its `{client_id}` placeholder;
   * facebook has `debug_token_url` and no addresses endpoint.
   */
  urls: { authorization_url: string; token_url: string; userinfo_url: string; emails_url?: string; token_check_url?: string; debug_token_url?: string };
  setUser(login: string, user: GithubUser): void;
  /** Follows an authorization URL as the signed-in `login` (or refusing, with `deny`); answers the redirect back. */
  signIn(authorizationUrl: string | URL, login: string, opts?: { deny?: boolean }): Promise<URL>;
  /** A code as `/login/oauth/authorize` would give it, without the redirect. */
  issueCode(opts: IssueOptions & { redirectUri: string; codeChallenge?: string }): string;
  /** An access token, by default issued to this server's client; another `clientId` makes one the token check refuses. */
  issueToken(opts: IssueOptions & { clientId?: string }): string;
  /** Holds requests to `on` for `ms` before handling them (the service gives up after 5 s). */
  stall(ms: number, on?: OAuth2Endpoint[]): void;
  /** Makes `on` answer 200 with an HTML page instead of JSON. */
  garbage(on?: OAuth2Endpoint[]): void;
  restore(): void;
  close(): Promise<void>;
}

interface Code { login: string; clientId: string; redirectUri: string; scope: string; challenge?: string; expires: number }
interface Token { login: string; clientId: string; scope: string }

const DEFAULT_FAULTS: OAuth2Endpoint[] = ['token', 'user', 'emails'];
const CODE_TTL_MS = 10 * 60_000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const basicAuth = (req: IncomingMessage) => {
  const [scheme, value = ''] = (req.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  return at < 0 ? undefined : { id: decoded.slice(0, at), secret: decoded.slice(at + 1) };
};

const GITHUB_PATHS: Record<string, OAuth2Endpoint> = {
  '/login/oauth/authorize': 'authorize', '/login/oauth/access_token': 'token', '/user': 'user', '/user/emails': 'emails',
};
const FACEBOOK_PATHS: Record<string, OAuth2Endpoint> = {
  '/v19.0/dialog/oauth': 'authorize', '/v19.0/oauth/access_token': 'token', '/me': 'user', '/debug_token': 'token_check',
};
/** The Graph API's error shape (always with a 400). */
const graphError = (message: string, code = 190) => ({ error: { message, type: 'OAuthException', code, fbtrace_id: 'A1b2C3' } });

/** A GitHub- or Facebook-shaped OAuth 2 server (authorize, token, user, emails, token check) on a free loopback port. */
export async function startOAuth2Server(opts: OAuth2ServerOptions = {}): Promise<TestOAuth2Server> {
  const facebook = opts.shape === 'facebook';
  const clientId = opts.clientId ?? (facebook ? String(100000000000000 + randomBytes(4).readUInt32BE()) : `Iv1.${randomBytes(8).toString('hex')}`);
  const clientSecret = opts.clientSecret ?? randomBytes(20).toString('hex');
  const users = new Map<string, GithubUser>();
  const codes = new Map<string, Code>();
  const tokens = new Map<string, Token>();
  const faults = createEndpointFaults(DEFAULT_FAULTS);

  const issueCode = (c: Omit<Code, 'expires'>) => {
    const code = randomBytes(10).toString('hex');
    codes.set(code, { ...c, expires: Date.now() + CODE_TTL_MS });
    return code;
  };
  const issueToken = (t: Token) => {
    const token = facebook ? `EAA${randomBytes(30).toString('base64url')}` : `gho_${randomBytes(18).toString('base64url')}`;
    tokens.set(token, t);
    return token;
  };
  const userJson = (login: string) => {
    const u = users.get(login)!;
    return { id: u.id, login, name: u.name ?? null, email: u.email ?? null };
  };
  /** Graph's `/me`: ids are strings, and only the fields asked for (and granted: `email` needs that scope) are given. */
  const graphMe = (token: Token, fields: string[]) => {
    const u = users.get(token.login)!;
    const [first_name, ...rest] = (u.name ?? '').split(' ');
    const all: Record<string, unknown> = { id: String(u.id), name: u.name ?? undefined, first_name: first_name || undefined,
      last_name: rest.join(' ') || undefined, email: token.scope.split(/[ ,]+/).includes('email') ? u.email ?? undefined : undefined };
    return Object.fromEntries(['id', ...fields].filter((f) => all[f] !== undefined).map((f) => [f, all[f]]));
  };

  /** The token endpoint: GitHub answers its errors with 200 and an `error` field, Facebook with a 400 OAuthException. */
  function exchange(p: URLSearchParams, req: IncomingMessage): [number, object] {
    const [status, answer] = exchangeCode(p, req);
    if (!facebook) return [status, answer];
    if (answer.error) return [400, graphError(answer.error_description ?? answer.error, 100)];
    return [200, { access_token: answer.access_token, token_type: 'bearer', expires_in: 5183944 }];
  }

  function exchangeCode(p: URLSearchParams, req: IncomingMessage): [number, Record<string, string>] {
    const basic = basicAuth(req);
    const id = p.get('client_id') ?? basic?.id;
    const secret = p.get('client_secret') ?? basic?.secret;
    if (id !== clientId || secret !== clientSecret) return [200, { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' }];
    const code = codes.get(p.get('code') ?? '');
    codes.delete(p.get('code') ?? '');
    const verifier = p.get('code_verifier');
    if (!code || code.expires < Date.now() || code.clientId !== id || (code.challenge && (!verifier || sha256(verifier) !== code.challenge))) {
      return [200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' }];
    }
    if (p.has('redirect_uri') && p.get('redirect_uri') !== code.redirectUri) {
      return [200, { error: 'redirect_uri_mismatch', error_description: 'The redirect_uri MUST match the registered callback URL for this application.' }];
    }
    return [200, { access_token: issueToken(code), token_type: 'bearer', scope: code.scope.split(/[ ,]+/).join(',') }];
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(value));
    };
    const notFound = () => json(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    const bearer = () => {
      const [scheme, value = ''] = (req.headers.authorization ?? '').split(' ');
      return ['bearer', 'token'].includes(scheme?.toLowerCase() ?? '') ? tokens.get(value) : undefined;
    };
    const path = url.pathname;
    const checkPath = facebook ? null : /^\/applications\/([^/]+)\/token$/.exec(path);
    const endpoint: OAuth2Endpoint | undefined = (facebook ? FACEBOOK_PATHS : GITHUB_PATHS)[path] ?? (checkPath ? 'token_check' : undefined);
    await faults.hold(endpoint);
    if (faults.garbled(endpoint)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body><h1>Unicorn!</h1></body></html>');
      return;
    }

    if (endpoint === 'authorize' && req.method === 'GET') {
      // The signed-in user comes from the session cookie, as on GitHub; `deny` is the user refusing.
      const session = new URLSearchParams((req.headers.cookie ?? '').replaceAll('; ', '&'));
      const login = session.get('user_session') ?? '';
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      if (q.get('client_id') !== clientId || !redirectUri) return notFound();
      const back = new URL(redirectUri);
      if (session.get('deny')) {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user has denied your application access.');
      } else if (users.has(login)) {
        const challenge = q.get('code_challenge') ?? undefined;
        if (challenge && q.get('code_challenge_method') !== 'S256') return json(400, { message: 'code_challenge_method must be S256' });
        back.searchParams.set('code', issueCode({ login, clientId, redirectUri, scope: q.get('scope') ?? '', challenge }));
      } else {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body><form>Sign in to GitHub</form></body></html>');
        return;
      }
      if (q.has('state')) back.searchParams.set('state', q.get('state')!);
      res.writeHead(302, { location: back.href }).end();
    } else if (endpoint === 'token' && facebook) {
      const [status, answer] = exchange(req.method === 'POST' ? new URLSearchParams(body) : url.searchParams, req);
      json(status, answer);
    } else if (endpoint === 'user' && facebook && req.method === 'GET') {
      const token = bearer() ?? tokens.get(url.searchParams.get('access_token') ?? '');
      if (!token) return json(400, graphError('An active access token must be used to query information about the current user.', 2500));
      json(200, graphMe(token, (url.searchParams.get('fields') ?? 'name').split(',')));
    } else if (endpoint === 'token_check' && facebook && req.method === 'GET') {
      if (url.searchParams.get('access_token') !== `${clientId}|${clientSecret}`) return json(400, graphError('Invalid OAuth access token signature.'));
      const input = url.searchParams.get('input_token') ?? '';
      const token = tokens.get(input);
      if (!token) return json(200, { data: { is_valid: false, error: { code: 190, message: 'Invalid OAuth access token.' } } });
      const u = users.get(token.login)!;
      json(200, { data: { app_id: token.clientId, type: 'USER', application: 'Gatehouse', is_valid: true,
        expires_at: Math.floor(Date.now() / 1000) + 3600, scopes: token.scope.split(/[ ,]+/), user_id: String(u.id) } });
    } else if (endpoint === 'token' && req.method === 'POST') {
      const isJson = (req.headers['content-type'] ?? '').includes('json');
      const params = isJson ? new URLSearchParams(JSON.parse(body || '{}') as Record<string, string>) : new URLSearchParams(body);
      const [status, answer] = exchange(params, req);
      if ((req.headers.accept ?? '').includes('application/json')) return json(status, answer);
      res.writeHead(status, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' })
        .end(new URLSearchParams(answer as Record<string, string>).toString());
    } else if ((endpoint === 'user' || endpoint === 'emails') && req.method === 'GET') {
      const token = bearer();
      if (!token) return json(401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' });
      if (endpoint === 'user') return json(200, userJson(token.login));
      if (!token.scope.split(/[ ,]+/).some((s) => s === 'user' || s === 'user:email')) return notFound();
      json(200, (users.get(token.login)!.emails ?? []).map((e) => ({ ...e, visibility: e.primary ? 'public' : null })));
    } else if (endpoint === 'token_check' && req.method === 'POST') {
      const basic = basicAuth(req);
      if (basic?.id !== clientId || basic.secret !== clientSecret) return json(401, { message: 'Bad credentials' });
      if (checkPath![1] !== clientId) return notFound();
      let accessToken: unknown;
      try { accessToken = (JSON.parse(body) as { access_token?: unknown }).access_token; } catch { return json(400, { message: 'Problems parsing JSON' }); }
      const token = typeof accessToken === 'string' ? tokens.get(accessToken) : undefined;
      if (!token || token.clientId !== clientId) return notFound();
      json(200, { token: accessToken, scopes: token.scope.split(/[ ,]+/), app: { client_id: clientId, name: 'Gatehouse' }, user: userJson(token.login) });
    } else {
      notFound();
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      route(req, res, new URL(req.url ?? '/', 'http://127.0.0.1'), Buffer.concat(chunks).toString('utf8'))
        .catch((err: Error) => { if (!res.headersSent) res.writeHead(500).end(err.message); });
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const defaultScope = facebook ? 'email public_profile' : 'read:user user:email';

  return {
    url, clientId, clientSecret,
    urls: facebook
      ? { authorization_url: `${url}/v19.0/dialog/oauth`, token_url: `${url}/v19.0/oauth/access_token`,
        userinfo_url: `${url}/me?fields=id,name,email,first_name,last_name`, debug_token_url: `${url}/debug_token` }
      : { authorization_url: `${url}/login/oauth/authorize`, token_url: `${url}/login/oauth/access_token`,
        userinfo_url: `${url}/user`, emails_url: `${url}/user/emails`, token_check_url: `${url}/applications/{client_id}/token` },
    setUser: (login, user) => { users.set(login, user); },
    async signIn(authorizationUrl, login, { deny = false } = {}) {
      if (!deny && !users.has(login)) throw new Error(`no user "${login}": call setUser first`);
      const cookie = new URLSearchParams(deny ? { deny: '1' } : { user_session: login }).toString().replaceAll('&', '; ');
      const res = await fetch(authorizationUrl, { redirect: 'manual', headers: { cookie } });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`the server answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
      return new URL(location);
    },
    issueCode: ({ login, redirectUri, codeChallenge, scope = defaultScope }) => {
      if (!users.has(login)) throw new Error(`no user "${login}": call setUser first`);
      return issueCode({ login, clientId, redirectUri, scope, challenge: codeChallenge });
    },
    issueToken: ({ login, clientId: to = clientId, scope = defaultScope }) => {
      if (!users.has(login)) throw new Error(`no user "${login}": call setUser first`);
      return issueToken({ login, clientId: to, scope });
    },
    ...faults.controls,
    close: () => faults.close(server),
  };
}
