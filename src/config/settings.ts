import { isIP } from 'node:net';
/**
 * The one settings table. Each entry is read from `SVC_<KEY>` (plus any alias), parsed strictly,
 * and resolved as default ← preset ← explicit environment. The README table is generated from it
 * (`npm run docs:settings`).
 */
export type SettingKind = 'string' | 'secret' | 'int' | 'bool' | 'enum' | 'list' | 'url';

interface Base<K extends SettingKind, V> {
  kind: K;
  default: V;
  description: string;
  aliases?: readonly string[];
  /** The value in the README when the default is computed (for example "development in debug"). */
  defaultLabel?: string;
  /** The default in debug mode, when it differs (a preset does not set the value, and nothing explicit does). */
  debugDefault?: V;
}
/** `lifetime`: a duration in seconds that accepts values down to 1 and is reported when unusually short. */
export type IntSetting = Base<'int', number> & { min?: number; max?: number; lifetime?: true };
export type BoolSetting = Base<'bool', boolean>;
export type StringSetting = Base<'string', string>;
export type SecretSetting = Base<'secret', string | null>;
export type UrlSetting = Base<'url', string | null> & { protocols: readonly string[] };
export type ListSetting = Base<'list', readonly string[]>;
export type EnumSetting<C extends string = string> = Base<'enum', C> & { choices: readonly C[] };
export type SettingDef = IntSetting | BoolSetting | StringSetting | SecretSetting | UrlSetting | ListSetting | EnumSetting;

const int = (def: number, description: string, extra: Partial<IntSetting> = {}): IntSetting =>
  ({ kind: 'int', default: def, description, min: 0, ...extra });
const bool = (def: boolean, description: string, extra: Partial<BoolSetting> = {}): BoolSetting =>
  ({ kind: 'bool', default: def, description, ...extra });
const str = (def: string, description: string, extra: Partial<StringSetting> = {}): StringSetting =>
  ({ kind: 'string', default: def, description, ...extra });
const secret = (description: string, extra: Partial<SecretSetting> = {}): SecretSetting =>
  ({ kind: 'secret', default: null, description, ...extra });
const url = (def: string | null, protocols: readonly string[], description: string, extra: Partial<UrlSetting> = {}): UrlSetting =>
  ({ kind: 'url', default: def, protocols, description, ...extra });
const list = (def: readonly string[], description: string): ListSetting => ({ kind: 'list', default: def, description });
const oneOf = <C extends string>(def: C, choices: readonly C[], description: string, extra: Partial<EnumSetting<C>> = {}): EnumSetting<C> =>
  ({ kind: 'enum', default: def, choices, description, ...extra });

export const PRESET_NAMES = ['development', 'medium', 'robust'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

const HOUR = 3600;
const DAY = 24 * HOUR;
/** A lifetime accepts 1 second (clients test their expiry handling against it); below 30 s start-up warns. */
const lifetime = { min: 1, lifetime: true } as const;

export const SETTINGS = {
  // Server
  HOST: str('127.0.0.1', 'Listen address.'),
  PORT: int(8000, 'Listen port (`PORT` is honoured too).', { aliases: ['PORT'], min: 0, max: 65535 }),
  API_PREFIX: str('/api/v1/auth/', 'Where the API is mounted; starts and ends with `/`.'),
  DEBUG: bool(false, 'Debug mode: secrets generated when unset (kept in `$SVC_DATA_DIR/debug-secrets.json` with the embedded database), rate limits ×10, `development` preset by default. `npm start` turns it on.'),
  SHORTCUT_SECURE_MODE: oneOf<PresetName>('medium', PRESET_NAMES, 'Security preset setting many values at once; every value stays overridable.', { defaultLabel: '`development` in debug, else `medium`' }),
  TRUSTED_PROXIES: list([], 'Comma-separated proxy addresses or CIDRs whose `X-Forwarded-For` is trusted.'),
  BODY_LIMIT: int(65536, 'Largest accepted request body in bytes.', { min: 1024 }),
  SHUTDOWN_DELAY: int(0, 'Seconds between SIGTERM/SIGINT and closing the listener, while `/health/ready` answers 503 and requests are still served, so a load balancer takes the instance out of rotation first.', { max: 300 }),
  SHUTDOWN_TIMEOUT: int(10, 'Seconds the drain may take after `SVC_SHUTDOWN_DELAY` (closing the listener, answering the requests in flight, ending running jobs and deliveries, closing the database); past it what is left is cut off and the process exits with status 1.'),
  JOBS_ENABLED: bool(true, 'Run the scheduled jobs (outbox, webhooks, cleanup, expired deletions, agent heartbeats, dashboard counts) inside `serve`; every job is safe on several instances, so turn it off only to pin jobs to some of them.'),
  LOG_LEVEL: oneOf('info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'Log level of the JSON logs.'),
  DOCS_ENABLED: bool(true, 'Serve the OpenAPI schema and the interactive references under `<prefix>docs/`.'),
  METRICS_ENABLED: bool(true, 'Serve Prometheus metrics at `/metrics`.'),
  SECURITY_HEADERS_ENABLED: bool(false, 'Send security headers (HSTS, CSP, frame and content-type protections).'),
  // Storage
  DATABASE_URL: url(null, ['postgres:', 'postgresql:'], 'PostgreSQL URL (`DATABASE_URL` is honoured too); unset selects the embedded database.', { aliases: ['DATABASE_URL'] }),
  DATABASE_POOL_SIZE: int(10, 'PostgreSQL connections per instance.', { min: 1, max: 200 }),
  DATABASE_PREPARED_STATEMENTS: bool(true, 'Send queries that keep recurring as named prepared statements; turn off behind a PgBouncer in transaction mode older than 1.21.'),
  DATABASE_CONNECT_TIMEOUT: int(3, 'Seconds a request waits for a PostgreSQL connection (a new one, or a free one from the pool) before it answers 503.', { min: 1, max: 60 }),
  DATABASE_STATEMENT_TIMEOUT: int(5, 'Seconds one query may take while serving (PostgreSQL `statement_timeout`; a connection silent 1 s longer is dropped) before the request answers 503. Migrations are not bound by it.', { min: 1, max: 600 }),
  DATA_DIR: str('./data', 'Embedded database directory (PGlite in `$SVC_DATA_DIR/pglite`); `memory://` keeps it in memory.'),
  REDIS_URL: url(null, ['redis:', 'rediss:'], 'Redis URL; enables shared rate-limit counters and caches across instances.'),
  REDIS_KEY_PREFIX: str('gatehouse:', 'Prefix of every Redis key, so several deployments can share one Redis.'),
  // Applications and tokens
  APPLICATION_AUTH_ENABLED: bool(true, 'Check `X-Access-Key`/`X-Access-Secret` on every API request; cannot be off outside debug.'),
  JWT_SECRET_KEY: secret('Access-token signing secret for HS256, at least 32 bytes; required outside debug with HS256 '
    + '(debug generates one: kept in `$SVC_DATA_DIR/debug-secrets.json` with the embedded database, new at each start otherwise).'),
  JWT_ALGORITHM: oneOf('HS256', ['HS256', 'EdDSA', 'ES256', 'RS256'] as const, 'Access-token signing algorithm: `HS256` with '
    + 'SVC_JWT_SECRET_KEY, or `EdDSA` (Ed25519), `ES256` (P-256), `RS256` (RSA) with public keys at `/.well-known/jwks.json` '
    + '(docs/resource-servers.md).'),
  JWT_PRIVATE_KEY: secret('PEM private key for EdDSA, ES256 or RS256 (at least 2048 bits); unset, keys are generated, kept encrypted '
    + 'in the database and rotated with `gatehouse keys rotate`.'),
  JWT_ISSUER: str('gatehouse', 'The `iss` claim of access tokens.',
    { defaultLabel: '`gatehouse`; SVC_PUBLIC_URL with EdDSA, ES256 or RS256' }),
  PUBLIC_URL: url(null, ['http:', 'https:'], 'The service\'s own origin as clients reach it: the issuer with an asymmetric algorithm, '
    + 'where `jwks_uri` points, the origin the console\'s public application is pinned to, and the host a public application\'s '
    + 'same-origin `GET` must be addressed to.', { defaultLabel: '`http://127.0.0.1:<port>`' }),
  CONSOLE_ENABLED: bool(false, 'The admin console: `gatehouse seed` (and `quickstart`, `start`, `serve`) creates its public '
    + 'application "Gatehouse Console", pinned to the origin of SVC_PUBLIC_URL.',
  { debugDefault: true, defaultLabel: '`true` in debug, else `false`' }),
  JWT_AUTH_ENABLED: bool(true, 'Accept bearer tokens (testing only).'),
  JWT_ACCESS_TOKEN_LIFETIME: int(900, 'Access-token lifetime in seconds.', lifetime),
  JWT_REFRESH_TOKEN_LIFETIME: int(7 * DAY, 'Refresh-token lifetime in seconds.', lifetime),
  REFRESH_TOKEN_ROTATION: bool(true, 'Issue a new refresh token on every refresh and retire the old one.'),
  REFRESH_TOKEN_REUSE_GRACE: int(10, 'Seconds during which a retired refresh token returns the same successor.'),
  REFRESH_TOKEN_COOKIE_ENABLED: bool(false, 'Set and read the refresh token through an HttpOnly cookie.'),
  REFRESH_TOKEN_COOKIE_NAME: str('refresh_token', 'Name of the refresh-token cookie.'),
  ROOT_REFRESH_ALIAS: bool(false, 'Also serve `POST /auth/refresh/` at the host root, where the Tenxyte SDK refreshes without '
    + 'application headers: there a refresh token of a confidential application is redeemed without its secret, so turn it on '
    + 'knowingly. In cookie mode the cookie\'s Path becomes `/` so the browser sends it there.'),
  TOKEN_BLACKLIST_ENABLED: bool(true, 'Blacklist access tokens on logout.'),
  ENCRYPTION_KEY: secret('Key for secrets encrypted at rest (TOTP, webhook secrets, signing keys); derived from the JWT secret when '
    + 'unset; required outside debug with EdDSA, ES256 or RS256. Start-up refuses a key that cannot open what is stored; change it with '
    + '`gatehouse keys rotate-encryption`.'),
  // Login protection
  RATE_LIMITING_ENABLED: bool(true, 'Per-IP rate limits on sensitive endpoints.'),
  ACCOUNT_LOCKOUT_ENABLED: bool(true, 'Lock accounts after repeated failed checks.'),
  MAX_LOGIN_ATTEMPTS: int(5, 'Failed checks before an account locks.', { min: 1 }),
  LOCKOUT_DURATION: int(30 * 60, 'First lockout in seconds; doubles on each repeat up to 24 h.', { min: 1 }),
  AUDIT_LOGGING_ENABLED: bool(true, 'Write audit events.'),
  MAX_DEVICES: int(5, 'Devices per account; 0 turns the limit off.'),
  DEVICE_LIMIT_ACTION: oneOf('revoke_oldest', ['revoke_oldest', 'deny'] as const, 'What a login from one device too many does.'),
  MAX_SESSIONS: int(0, 'Active sessions per account; 0 turns the limit off.'),
  SESSION_LIMIT_ACTION: oneOf('deny', ['deny', 'revoke_oldest'] as const, 'What a login beyond the session limit does.'),
  REAUTH_MAX_AGE: int(900, 'Seconds after a sign-in during which sensitive changes (an agent token, a passkey, a 2FA setup, a new '
    + 'phone) need no other proof; later they need `password` (and `totp_code` with 2FA) in the body, or a new sign-in.', { min: 1 }),
  FORCE_PASSWORD_CHANGE_ON_FIRST_LOGIN_ENABLED: bool(true, 'Give accounts flagged `must_change_password` only a `password_change_only` token.'),
  // Passwords
  PASSWORD_MIN_LENGTH: int(12, 'Minimum password length (code points after NFKC).', { min: 1, max: 128 }),
  PASSWORD_MAX_LENGTH: int(128, 'Maximum password length.', { min: 8, max: 128 }),
  PASSWORD_REQUIRE_UPPERCASE: bool(false, 'Require an upper-case letter.'),
  PASSWORD_REQUIRE_LOWERCASE: bool(false, 'Require a lower-case letter.'),
  PASSWORD_REQUIRE_NUMBERS: bool(false, 'Require a digit.'),
  PASSWORD_REQUIRE_SPECIAL: bool(false, 'Require a character that is neither a letter nor a digit.'),
  PASSWORD_HISTORY: int(5, 'Previous passwords that cannot be reused; 0 turns the check off.'),
  PASSWORD_HASH_CONCURRENCY: int(0, 'Password hashes computed at once; more wait in line. 0: one per CPU core, at most one fewer than libuv\'s thread pool (`UV_THREADPOOL_SIZE`, 4 by default).', { max: 64 }),
  BREACH_CHECK_ENABLED: bool(true, 'Refuse passwords found by the k-anonymity breach range API.'),
  BREACH_CHECK_API_URL: url('https://api.pwnedpasswords.com', ['http:', 'https:'], 'Base of the range API (`GET {url}/range/{5 hex}`).'),
  // One-time codes and links
  OTP_LIFETIME: int(600, 'Lifetime of one-time codes in seconds.', lifetime),
  MAGIC_LINK_LIFETIME: int(600, 'Lifetime of magic links in seconds.', lifetime),
  OTP_LOGIN_ENABLED: bool(false, 'Passwordless phone login and set-initial password.'),
  OTP_LOGIN_AUTO_REGISTER: bool(true, 'Create a passwordless account for an unknown phone on login-code request.'),
  MAGIC_LINK_ENABLED: bool(false, 'Magic-link login by email.'),
  MAGIC_LINK_ALLOWED_URLS: list([], 'Extra allowed magic-link `validation_url` values (exact match).'),
  TOTP_VALID_WINDOW: int(1, 'TOTP periods of 30 s accepted on each side.', { max: 10 }),
  TOTP_ISSUER: str('Gatehouse', 'Issuer shown in authenticator apps.'),
  // Optional features
  WEBAUTHN_ENABLED: bool(false, 'Passkey endpoints.'),
  WEBAUTHN_RP_ID: str('localhost', 'WebAuthn relying-party id (a domain). Passkeys are bound to it: changing it orphans them.',
    { defaultLabel: 'the host of SVC_PUBLIC_URL (`localhost` when that host is an IP address)' }),
  WEBAUTHN_RP_NAME: str('Gatehouse', 'WebAuthn relying-party name.'),
  WEBAUTHN_ORIGINS: list([], 'Origins a passkey ceremony may come from (comma list). Unset: the origin of SVC_PUBLIC_URL '
    + '(with `localhost` for an IP host), `https://<rp id>`, and the calling application\'s `allowed_origins`, each when its host '
    + 'is the RP ID or under it.'),
  SOCIAL_PROVIDERS: secret('Social-login providers, a JSON object keyed by name (`google`, `microsoft`, `github`, `facebook` or any OpenID provider with an `issuer`): `{"google": {"client_id": "…", "client_secret": "…"}}`; see docs/social-login.md.'),
  SOCIAL_CALLBACK_TOKENS_IN_FRAGMENT: bool(false, 'The browser social-login flow returns the tokens in the redirect URI\'s fragment instead of its query.'),
  ORGANIZATIONS_ENABLED: bool(false, 'Organization endpoints.'),
  ORG_ROLE_INHERITANCE: bool(true, 'A role held in an organization applies in all its descendants.'),
  ORG_INVITATION_URL: url(null, ['http:', 'https:'], 'Page that accepts organization invitations: the email links to `{url}?token=…`. Unset: the email carries the token itself.'),
  AIRS_ENABLED: bool(true, 'Agent tokens: `ai/*` endpoints and `AgentBearer` authentication.'),
  AIRS_CONFIRMATION_REQUIRED: list([], 'Permission codes whose use by an agent waits for the delegating user\'s approval (202).'),
  AIRS_CONFIRMATION_LIFETIME: int(600, 'Seconds a pending agent action can be approved and replayed.', lifetime),
  AIRS_MAX_TOKEN_LIFETIME: int(86400, 'Longest agent-token lifetime in seconds (`expires_in`).', { min: 1 }),
  AIRS_MAX_DELEGATION_DEPTH: int(3, 'Longest delegation chain: a token its person creates is depth 1, its child 2… (docs/agents.md "Delegation").',
    { min: 1, max: 16 }),
  AIRS_REDACT_PII: bool(false, 'Answers to agent requests show emails, phones, names and addresses as `***REDACTED***`.'),
  ACCOUNT_DELETION_GRACE_PERIOD_DAYS: int(30, 'Days between a confirmed deletion request and anonymization.'),
  ACCOUNT_DELETION_CONFIRMATION_LIFETIME: int(86400, 'Seconds the emailed account-deletion confirmation token stays valid.', lifetime),
  PURGE_IP_ON_DELETION: bool(false, 'When an account is deleted, also blank the IP addresses and user agents of its audit rows.'),
  // OAuth 2.1 authorization server and OpenID Provider
  OAUTH_ENABLED: bool(false, 'The OAuth 2.1 authorization server and OpenID Provider at the host root (`/oauth/*` and the '
    + 'discovery documents, docs/oauth.md); off, those routes answer 404.', { debugDefault: true, defaultLabel: '`true` in debug, else `false`' }),
  OAUTH_DYNAMIC_REGISTRATION: bool(true, 'Dynamic client registration (RFC 7591) at `/oauth/register`, public clients only, '
    + 'rate-limited per IP, while the OAuth server is on.'),
  OAUTH_SESSION_LIFETIME: int(14 * DAY, 'Seconds the sign-in session of the OAuth pages lasts (an HttpOnly cookie of its own).', lifetime),
  OAUTH_GRANT_MAX_REQUESTS_PER_MINUTE: int(600, 'Calls a minute through `ai/authorize/` that the grant of one of Gatehouse\'s '
    + 'applications allows (its delegation\'s rate breaker); an agent client\'s grant gets the rate its person chose at consent.', { min: 1 }),
  OAUTH_ALLOW_PRIVATE_CLIENT_METADATA: bool(false, 'Fetch Client ID Metadata Documents from hosts that are or resolve to '
    + 'loopback, private or other non-public addresses (tests, local development); the document must still be served over '
    + '`https` with a certificate Node trusts.'),
  // Notifications
  EMAIL_BACKEND: oneOf('console', ['console', 'smtp', 'memory'] as const, 'Email delivery: `console`, `smtp`, or `memory` (tests).'),
  EMAIL_FROM: str('no-reply@localhost', 'Sender address.'),
  SMTP_HOST: str('127.0.0.1', 'SMTP host.'),
  SMTP_PORT: int(25, 'SMTP port.', { max: 65535 }),
  SMTP_USER: str('', 'SMTP user (empty: no authentication).'),
  SMTP_PASSWORD: secret('SMTP password.'),
  SMTP_SECURE: bool(false, 'Use TLS from the start (port 465).'),
  SMS_BACKEND: oneOf('console', ['console', 'webhook', 'memory'] as const, 'SMS delivery: `console`, `webhook`, or `memory` (tests).'),
  SMS_WEBHOOK_URL: url(null, ['http:', 'https:'], 'Webhook receiving `POST {to, body, purpose}` for the `webhook` SMS backend.'),
  OUTBOX_MAX_ATTEMPTS: int(8, 'Delivery attempts of one email or SMS before it is given up (backoff doubles from 5 s up to 1 h).', { min: 1, max: 50 }),
  OUTBOX_POLL_INTERVAL: int(5, 'Seconds between two passes of the delivery worker over due messages.', { min: 1 }),
  // Webhooks
  WEBHOOK_ALLOW_PRIVATE_URLS: bool(false, 'Allow webhook URLs whose host is or resolves to a loopback, private, link-local, '
    + 'unique-local, shared (CGNAT) or metadata address (tests, local development); checked again at every delivery.',
  { debugDefault: true, defaultLabel: '`true` in debug, else `false`' }),
} as const satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTINGS;

type ValueOf<D> = D extends EnumSetting<infer C> ? C
  : D extends { kind: 'int' } ? number
  : D extends { kind: 'bool' } ? boolean
  : D extends { kind: 'list' } ? readonly string[]
  : D extends { kind: 'secret' | 'url' } ? string | null
  : string;

export type Config = { readonly [K in SettingKey]: ValueOf<(typeof SETTINGS)[K]> };

export const envName = (key: SettingKey): string => `SVC_${key}`;

/** `SVC_PUBLIC_URL` without its trailing slash, or `http://127.0.0.1:<port>` when unset (docs/resource-servers.md "Turning it on"). */
export const publicUrlOf = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string =>
  (config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');

/** The host name of `publicUrlOf`, lower-case, an IPv6 address without its brackets. */
export const publicHostOf = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string =>
  new URL(publicUrlOf(config)).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** A WebAuthn relying-party id must be a domain (WebAuthn §5.1.3): an IP host stands for the loopback name `localhost`. */
export const rpIdForHost = (host: string): string => (isIP(host) !== 0 ? 'localhost' : host);
