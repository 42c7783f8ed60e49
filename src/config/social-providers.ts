import { ConfigError } from './errors.js';

/**
 * docs/social-login.md "Configuring providers": `SVC_SOCIAL_PROVIDERS` is a JSON object keyed by provider name. Built-in names get
 * their kind and public endpoints; any other name is a generic OpenID provider with an `issuer`. Parsed strictly: an
 * unknown key, a missing client id or an insecure URL stops the start-up with a message naming it (never its secret).
 */
export type SocialProviderKind = 'oidc' | 'oauth2';

export interface SocialProviderConfig {
  name: string;
  kind: SocialProviderKind;
  client_id: string;
  client_secret: string;
  scopes: string[];
  /** OpenID providers: endpoints and keys come from its discovery document. */
  issuer: string | null;
  authorization_url: string | null;
  token_url: string | null;
  userinfo_url: string | null;
  /** github: the addresses of the account, with their primary and verified flags. */
  emails_url: string | null;
  /** google: proves a provider access token was issued to our client (`aud`/`azp`). */
  tokeninfo_url: string | null;
  /** github: `POST {access_token}` with our client's credentials answers 200 only for our tokens. */
  token_check_url: string | null;
  /** facebook: `debug_token` names the app a token was issued to. */
  debug_token_url: string | null;
}

type Endpoints = Omit<SocialProviderConfig, 'name' | 'client_id' | 'client_secret'>;

const NONE = { issuer: null, authorization_url: null, token_url: null, userinfo_url: null, emails_url: null, tokeninfo_url: null,
  token_check_url: null, debug_token_url: null } as const;

/** The public defaults of the built-in providers; every URL can be overridden. */
export const BUILT_IN_PROVIDERS: Record<string, Endpoints> = {
  google: { ...NONE, kind: 'oidc', issuer: 'https://accounts.google.com', tokeninfo_url: 'https://oauth2.googleapis.com/tokeninfo',
    scopes: ['openid', 'email', 'profile'] },
  microsoft: { ...NONE, kind: 'oidc', issuer: 'https://login.microsoftonline.com/common/v2.0', scopes: ['openid', 'email', 'profile'] },
  github: { ...NONE, kind: 'oauth2', authorization_url: 'https://github.com/login/oauth/authorize',
    token_url: 'https://github.com/login/oauth/access_token', userinfo_url: 'https://api.github.com/user',
    emails_url: 'https://api.github.com/user/emails', token_check_url: 'https://api.github.com/applications/{client_id}/token',
    scopes: ['read:user', 'user:email'] },
  facebook: { ...NONE, kind: 'oauth2', authorization_url: 'https://www.facebook.com/v19.0/dialog/oauth',
    token_url: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userinfo_url: 'https://graph.facebook.com/me?fields=id,name,email,first_name,last_name',
    debug_token_url: 'https://graph.facebook.com/debug_token', scopes: ['email', 'public_profile'] },
};

/** The neutral provider names, aliases of the built-in ones (docs/social-login.md "Configuring providers"). */
export const PROVIDER_ALIASES: Record<string, string> = {
  provider_a: 'google', provider_b: 'github', provider_c: 'microsoft', provider_d: 'facebook',
};

const URL_KEYS = ['issuer', 'authorization_url', 'token_url', 'userinfo_url', 'emails_url', 'tokeninfo_url', 'token_check_url',
  'debug_token_url'] as const;
const KEYS = new Set<string>(['kind', 'client_id', 'client_secret', 'scopes', ...URL_KEYS]);
const NAME = /^[a-z][a-z0-9_-]{0,31}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

const SETTING = 'SVC_SOCIAL_PROVIDERS';
const invalid = (what: string) => new ConfigError(`Invalid setting ${SETTING}: ${what}`);

/** https, or http on a loopback address (a local identity provider, as in tests). */
function checkUrl(name: string, key: string, value: unknown): string {
  if (typeof value !== 'string') throw invalid(`${name}.${key} must be a URL`);
  let u: URL;
  try { u = new URL(value.replace('{client_id}', 'client')); } catch { throw invalid(`${name}.${key} must be a URL`); }
  const secure = u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname));
  if (!secure) throw invalid(`${name}.${key} must use https (http only on a loopback address)`);
  return value;
}

function parseProvider(name: string, raw: unknown): SocialProviderConfig {
  if (!NAME.test(name)) throw invalid(`provider name "${name}" must be lowercase letters, digits, "_" or "-" (at most 32)`);
  if (PROVIDER_ALIASES[name]) throw invalid(`"${name}" is an alias of ${PROVIDER_ALIASES[name]}: configure "${PROVIDER_ALIASES[name]}"`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(`${name} must be an object`);
  const entry = raw as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((k) => !KEYS.has(k));
  if (unknown.length) throw invalid(`${name} has unknown keys: ${unknown.join(', ')}`);
  const builtIn = BUILT_IN_PROVIDERS[name];
  const kind = entry.kind ?? builtIn?.kind;
  if (kind !== 'oidc' && kind !== 'oauth2') throw invalid(`${name}.kind must be "oidc" (or name a built-in provider)`);
  if (builtIn && kind !== builtIn.kind) throw invalid(`${name} is a built-in ${builtIn.kind} provider; its kind cannot change`);
  if (!builtIn && kind !== 'oidc') throw invalid(`${name}: only OpenID providers ("kind": "oidc", with an issuer) can be added`);
  for (const key of ['client_id', 'client_secret'] as const) {
    if (typeof entry[key] !== 'string' || entry[key] === '') throw invalid(`${name}.${key} is required (a non-empty string)`);
  }
  if (entry.scopes !== undefined && (!Array.isArray(entry.scopes) || entry.scopes.length === 0
    || !entry.scopes.every((s) => typeof s === 'string' && /^[\x21-\x7e]+$/.test(s)))) {
    throw invalid(`${name}.scopes must be a non-empty array of scope strings`);
  }
  const base: Endpoints = builtIn ?? { ...NONE, kind: 'oidc', scopes: ['openid', 'email', 'profile'] };
  const urls = Object.fromEntries(URL_KEYS.map((k) => [k, entry[k] === undefined ? base[k] : checkUrl(name, k, entry[k])]));
  const provider: SocialProviderConfig = {
    ...base, ...urls, name, kind, client_id: entry.client_id as string, client_secret: entry.client_secret as string,
    scopes: (entry.scopes as string[] | undefined) ?? base.scopes,
  } as SocialProviderConfig;
  if (kind === 'oidc' && !provider.issuer) throw invalid(`${name}.issuer is required for an OpenID provider`);
  if (kind === 'oauth2' && (!provider.authorization_url || !provider.token_url || !provider.userinfo_url)) {
    throw invalid(`${name} needs authorization_url, token_url and userinfo_url`);
  }
  return provider;
}

/** The configured providers, by name (none when the setting is unset). */
export function parseSocialProviders(raw: string | null): Map<string, SocialProviderConfig> {
  const providers = new Map<string, SocialProviderConfig>();
  if (raw === null || raw.trim() === '') return providers;
  let parsed: unknown;
  try { parsed = JSON.parse(raw); } catch { throw invalid('must be a JSON object keyed by provider name'); }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('must be a JSON object keyed by provider name');
  for (const [name, entry] of Object.entries(parsed)) providers.set(name, parseProvider(name, entry));
  return providers;
}

/** The configured provider a path segment names (`provider_a` is google's alias), or undefined. */
export function resolveProvider(providers: Map<string, SocialProviderConfig>, segment: string): SocialProviderConfig | undefined {
  return providers.get(PROVIDER_ALIASES[segment] ?? segment);
}
