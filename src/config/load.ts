import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { ConfigError } from './errors.js';
import { PRESETS } from './presets.js';
import { privateKeyProblem } from '../security/signing-keys.js';
import { SETTINGS, envName, publicHostOf, publicUrlOf, rpIdForHost, type Config, type PresetName, type SettingDef, type SettingKey } from './settings.js';
import { parseSocialProviders } from './social-providers.js';

export { ConfigError } from './errors.js';

export type Env = Record<string, string | undefined>;
export type Source = 'default' | 'preset' | 'env' | 'derived';

/** The settings the debug secrets file may supply (config/debug-secrets.ts). */
type Supplied = 'SVC_JWT_SECRET_KEY' | 'SVC_ENCRYPTION_KEY';

/** The data directory's debug secrets as a start used them (written and read by config/debug-secrets.ts). */
export interface DebugSecrets {
  /** Absolute path of the file. */
  file: string;
  /** Written by this process (a first start, or the first start since the file was added). */
  created: boolean;
  /** SVC_DEBUG was not set: debug mode was taken from the file. */
  adopted: boolean;
  /** The settings the file gave: those not set explicitly (an explicit setting always wins). */
  supplied: Supplied[];
}

export interface LoadedConfig {
  config: Config;
  preset: PresetName;
  sources: Record<SettingKey, Source>;
  warnings: string[];
  /** Set by openRuntime when the data directory's debug secrets were used (config/debug-secrets.ts). */
  debugSecrets?: DebugSecrets | null;
}

const MIN_JWT_SECRET_BYTES = 32;

/** What a setting accepts, in words, for error messages and the README. */
export function describeAccepted(def: SettingDef): string {
  switch (def.kind) {
    case 'bool': return '`true` or `false`';
    case 'int': return def.max !== undefined ? `an integer from ${def.min ?? 0} to ${def.max}` : `an integer ≥ ${def.min ?? 0}`;
    case 'enum': return `one of ${def.choices.join(', ')}`;
    case 'list': return 'a comma-separated list';
    case 'url': return `a URL (${def.protocols.join(' or ')})`;
    default: return 'a string';
  }
}

function parseValue(key: SettingKey, def: SettingDef, raw: string, name: string): unknown {
  // Secrets and URLs (which may carry a password) are never repeated in the message.
  const shown = def.kind === 'secret' || def.kind === 'url' ? '' : `=${JSON.stringify(raw)}`;
  const fail = () => new ConfigError(`Invalid setting ${name}${shown}: expected ${describeAccepted(def)}`);
  switch (def.kind) {
    case 'bool':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw fail();
    case 'int': {
      if (!/^-?\d+$/.test(raw.trim())) throw fail();
      const n = Number(raw.trim());
      if (!Number.isSafeInteger(n) || n < (def.min ?? 0) || (def.max !== undefined && n > def.max)) throw fail();
      return n;
    }
    case 'enum':
      if (!(def.choices as readonly string[]).includes(raw)) throw fail();
      return raw;
    case 'list':
      return raw.split(',').map((s) => s.trim()).filter(Boolean);
    case 'url': {
      let u: URL;
      try { u = new URL(raw); } catch { throw fail(); }
      if (!def.protocols.includes(u.protocol)) throw fail();
      return raw;
    }
    case 'secret':
      return raw === '' ? null : raw;
    default:
      if (key === 'API_PREFIX') return normalizePrefix(raw);
      return raw;
  }
}

const normalizePrefix = (p: string): string => `/${p.trim().replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');

/**
 * Reads `SVC_<KEY>`, then its aliases; the first one set wins. A set-but-empty value is parsed like any other
 * (so `SVC_PORT=` is refused rather than silently ignored; an empty secret means unset).
 */
function explicitValue(env: Env, key: SettingKey, def: SettingDef): { name: string; raw: string } | undefined {
  for (const name of [envName(key), ...(def.aliases ?? [])]) {
    const raw = env[name];
    if (raw !== undefined) return { name, raw };
  }
  return undefined;
}

/**
 * The embedded database's directory as `loadConfig` would resolve it, without the other settings: null when a
 * PostgreSQL URL is set or the database is in memory. Read first, so a database held by another process is reported
 * before any other setting is checked.
 */
export function embeddedDataDir(env: Env): string | null {
  if (explicitValue(env, 'DATABASE_URL', SETTINGS.DATABASE_URL)) return null;
  const dir = explicitValue(env, 'DATA_DIR', SETTINGS.DATA_DIR)?.raw ?? SETTINGS.DATA_DIR.default;
  return dir === 'memory://' ? null : dir;
}

/**
 * One setting as given in `env` (its `SVC_` name or an alias), parsed; undefined when it is not set or malformed (the
 * loader reports a malformed value). For what must be known before loading: where the data directory is, and whether
 * debug mode was asked for (config/debug-secrets.ts).
 */
export function explicitSetting<K extends SettingKey>(env: Env, key: K): Config[K] | undefined {
  const def = SETTINGS[key] as SettingDef;
  const found = explicitValue(env, key, def);
  if (!found) return undefined;
  try { return parseValue(key, def, found.raw, found.name) as Config[K]; } catch { return undefined; }
}

/** Resolves every setting as default ← preset ← explicit environment, then checks the invariants. */
export function loadConfig(env: Env): LoadedConfig {
  const values: Record<string, unknown> = {};
  const sources = {} as Record<SettingKey, Source>;
  const explicit = new Map<SettingKey, unknown>();
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const def = SETTINGS[key] as SettingDef;
    const found = explicitValue(env, key, def);
    if (found) explicit.set(key, parseValue(key, def, found.raw, found.name));
  }
  const debug = (explicit.get('DEBUG') as boolean | undefined) ?? SETTINGS.DEBUG.default;
  const preset = (explicit.get('SHORTCUT_SECURE_MODE') as PresetName | undefined) ?? (debug ? 'development' : 'medium');
  const presetValues = PRESETS[preset] as Record<string, unknown>;
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    if (explicit.has(key)) { values[key] = explicit.get(key); sources[key] = 'env'; }
    else if (key in presetValues) { values[key] = presetValues[key]; sources[key] = 'preset'; }
    else {
      const def = SETTINGS[key] as SettingDef;
      values[key] = debug && def.debugDefault !== undefined ? def.debugDefault : def.default;
      sources[key] = 'default';
    }
  }
  values.SHORTCUT_SECURE_MODE = preset;
  if (!explicit.has('SHORTCUT_SECURE_MODE')) sources.SHORTCUT_SECURE_MODE = 'derived';
  const warnings = checkInvariants(values, sources);
  return { config: Object.freeze(values) as Config, preset, sources, warnings };
}

/** Below this many seconds a lifetime is reported at start-up: fine for testing a client, a mistake in production. */
const SHORT_LIFETIME = 30;

function shortLifetimes(values: Record<string, unknown>): string[] {
  return (Object.keys(SETTINGS) as SettingKey[])
    .filter((key) => { const def = SETTINGS[key] as SettingDef; return def.kind === 'int' && def.lifetime; })
    .filter((key) => (values[key] as number) < SHORT_LIFETIME)
    .map((key) => `${envName(key)}=${values[key] as number}`);
}

/** Invariants that no combination of settings may break. Mutates `values` only to fill the debug secret and the issuer. */
function checkInvariants(values: Record<string, unknown>, sources: Record<SettingKey, Source>): string[] {
  const warnings: string[] = [];
  const secret = values.JWT_SECRET_KEY as string | null;
  if (secret !== null && Buffer.byteLength(secret, 'utf8') < MIN_JWT_SECRET_BYTES) {
    throw new ConfigError(`Invalid setting SVC_JWT_SECRET_KEY: must be at least ${MIN_JWT_SECRET_BYTES} bytes`);
  }
  // With an asymmetric algorithm nothing is signed with the secret (docs/resource-servers.md "Turning it on").
  const asymmetric = values.JWT_ALGORITHM !== 'HS256';
  if (!values.DEBUG) {
    if (secret === null && !asymmetric) {
      throw new ConfigError('Missing setting SVC_JWT_SECRET_KEY: required outside debug mode (at least 32 bytes)');
    }
    if (values.APPLICATION_AUTH_ENABLED === false) {
      throw new ConfigError('Invalid setting SVC_APPLICATION_AUTH_ENABLED=false: application authentication can be switched off only in debug mode');
    }
  } else if (secret === null) {
    values.JWT_SECRET_KEY = randomBytes(48).toString('base64url');
    sources.JWT_SECRET_KEY = 'derived';
    // Only with PostgreSQL or `memory://`: on the embedded database on disk, openRuntime fills both from the data
    // directory's debug-secrets.json before loading (config/debug-secrets.ts).
    if (!asymmetric) {
      warnings.push('SVC_JWT_SECRET_KEY is not set: using an ephemeral secret; on restart every token becomes invalid, and '
        + 'the TOTP secrets, backup codes and webhook secrets stored meanwhile cannot be used');
    } else if (values.ENCRYPTION_KEY === null) {
      warnings.push('SVC_ENCRYPTION_KEY is not set: using an ephemeral key; stored signing keys cannot be decrypted after a restart, '
        + 'so a new one signs and earlier tokens become invalid (TOTP secrets and webhook secrets are lost likewise)');
    }
  }
  checkSigning(values, sources, warnings);
  derivePasskeyRelyingParty(values, sources, warnings);
  if ((values.PASSWORD_MIN_LENGTH as number) > (values.PASSWORD_MAX_LENGTH as number)) {
    throw new ConfigError('Invalid settings: SVC_PASSWORD_MIN_LENGTH is greater than SVC_PASSWORD_MAX_LENGTH');
  }
  if (values.EMAIL_BACKEND === 'memory' && !values.DEBUG) {
    warnings.push('SVC_EMAIL_BACKEND=memory keeps emails in memory and never delivers them (meant for tests)');
  }
  // The defaults deliver nothing: a production server left on them would answer every sign-up and reset normally.
  if (values.EMAIL_BACKEND === 'console' && !values.DEBUG) {
    warnings.push('SVC_EMAIL_BACKEND=console delivers no email: messages are printed on standard output with their codes, tokens '
      + 'and links masked; set SVC_EMAIL_BACKEND=smtp to deliver them');
  }
  if (values.SMS_BACKEND === 'console' && !values.DEBUG) {
    warnings.push('SVC_SMS_BACKEND=console delivers no SMS: messages are printed on standard output with their codes masked; '
      + 'set SVC_SMS_BACKEND=webhook to deliver them');
  }
  // Checked at start-up so a typo in a provider stops the server with a message instead of failing sign-ins later.
  parseSocialProviders(values.SOCIAL_PROVIDERS as string | null);
  if (values.SMS_BACKEND === 'webhook' && values.SMS_WEBHOOK_URL === null) {
    throw new ConfigError('Missing setting SVC_SMS_WEBHOOK_URL: required when SVC_SMS_BACKEND=webhook');
  }
  if (values.APPLICATION_AUTH_ENABLED === false) {
    warnings.push('Application authentication is switched off (SVC_APPLICATION_AUTH_ENABLED=false): debug use only');
  }
  const short = shortLifetimes(values);
  if (short.length > 0 && !values.DEBUG) {
    warnings.push(`Unusually short lifetimes (below ${SHORT_LIFETIME} seconds), meant for testing clients: ${short.join(', ')}`);
  }
  return warnings;
}

/**
 * The passkeys' relying-party id defaults to the host of SVC_PUBLIC_URL, the address every printed link uses
 * (docs/passkeys.md "Settings"). WebAuthn accepts only a domain as an RP ID, never an IP address: for an IP host
 * (`http://127.0.0.1:<port>` by default) it is `localhost`, the name the same loopback server answers to.
 */
function derivePasskeyRelyingParty(values: Record<string, unknown>, sources: Record<SettingKey, Source>, warnings: string[]): void {
  if (sources.WEBAUTHN_RP_ID === 'env') return;
  const host = publicHostOf(values as unknown as Config);
  values.WEBAUTHN_RP_ID = rpIdForHost(host);
  sources.WEBAUTHN_RP_ID = 'derived';
  if (values.WEBAUTHN_ENABLED && isIP(host) !== 0) {
    warnings.push(`Passkeys need a domain name, and SVC_PUBLIC_URL's host ${host} is an IP address: the relying-party id is `
      + '`localhost` (open the service at http://localhost, not the IP address); set SVC_PUBLIC_URL to a domain, or SVC_WEBAUTHN_RP_ID');
  }
}

/**
 * docs/resource-servers.md "For operators": a configured key must sign with the configured algorithm (and be strong enough),
 * keys kept in the database need `SVC_ENCRYPTION_KEY`, and the issuer of published keys is a URL (OpenID discovery).
 */
function checkSigning(values: Record<string, unknown>, sources: Record<SettingKey, Source>, warnings: string[]): void {
  const algorithm = values.JWT_ALGORITHM as Config['JWT_ALGORITHM'];
  const pem = values.JWT_PRIVATE_KEY as string | null;
  const publicUrl = values.PUBLIC_URL as string | null;
  if (publicUrl !== null) {
    const u = new URL(publicUrl);
    if (u.search || u.hash || u.username || u.password) {
      throw new ConfigError('Invalid setting SVC_PUBLIC_URL: expected an origin, optionally with a path '
        + '(no query, fragment or credentials)');
    }
  }
  if (algorithm === 'HS256') {
    if (pem !== null) {
      throw new ConfigError('Invalid setting SVC_JWT_PRIVATE_KEY: used only with SVC_JWT_ALGORITHM=EdDSA, ES256 or RS256 '
        + '(HS256 signs with SVC_JWT_SECRET_KEY)');
    }
    if (values.ENCRYPTION_KEY === null && !values.DEBUG) {
      warnings.push('SVC_ENCRYPTION_KEY is not set: secrets encrypted at rest (TOTP) use a key derived from SVC_JWT_SECRET_KEY, so '
        + 'rotating that secret would make them unreadable; set SVC_ENCRYPTION_KEY to the current SVC_JWT_SECRET_KEY first');
    }
    return;
  }
  if (pem !== null) {
    const problem = privateKeyProblem(pem, algorithm);
    if (problem) throw new ConfigError(`Invalid setting SVC_JWT_PRIVATE_KEY: ${problem} (SVC_JWT_ALGORITHM=${algorithm})`);
  }
  if (values.ENCRYPTION_KEY === null && !values.DEBUG) {
    throw new ConfigError(`Missing setting SVC_ENCRYPTION_KEY: required outside debug mode with SVC_JWT_ALGORITHM=${algorithm} `
      + '(it encrypts the signing keys and TOTP secrets; there is no JWT secret to derive it from)');
  }
  if (sources.JWT_ISSUER !== 'env') {
    values.JWT_ISSUER = publicUrlOf(values as unknown as Config);
    sources.JWT_ISSUER = 'derived';
  } else if (!/^https?:\/\//i.test(values.JWT_ISSUER as string)) {
    // Tokens still carry it; the discovery document is what cannot name it (docs/resource-servers.md "Discovery").
    warnings.push(`SVC_JWT_ISSUER is not a URL: /.well-known/openid-configuration answers 404 until it is (or is unset, `
      + 'to use SVC_PUBLIC_URL)');
  }
}
