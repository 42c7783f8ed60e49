import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, describeAccepted, loadConfig, type Env } from './load.js';
import { PRESETS } from './presets.js';
import { PRESET_NAMES, SETTINGS, envName, type SettingDef, type SettingKey } from './settings.js';

const SECRET = 's'.repeat(32);
/** A production-shaped environment: not debug, with a valid signing secret. */
const load = (env: Env = {}) => loadConfig({ SVC_JWT_SECRET_KEY: SECRET, ...env });
/** Backends that deliver: outside debug the `console` ones are reported at start-up (they deliver nothing). */
const DELIVERING: Env = { SVC_EMAIL_BACKEND: 'smtp', SVC_SMS_BACKEND: 'webhook', SVC_SMS_WEBHOOK_URL: 'https://sms.example/hook' };
const definition = (key: SettingKey): SettingDef => SETTINGS[key] as SettingDef;

/** How a value of `def` is written in the environment. */
function toRaw(def: SettingDef, value: unknown): string {
  if (def.kind === 'list') return (value as readonly string[]).join(',');
  return String(value);
}

/** A valid explicit value for `def` that differs from `current`, and what it parses to. */
function overrideFor(def: SettingDef, current: unknown): { raw: string; expected: unknown } {
  switch (def.kind) {
    case 'bool': return { raw: String(!current), expected: !current };
    case 'int': {
      const n = current as number;
      const next = def.max === undefined || n + 1 <= def.max ? n + 1 : n - 1;
      return { raw: String(next), expected: next };
    }
    case 'enum': {
      const other = def.choices.find((c) => c !== current);
      assert.ok(other, `enum with a single choice cannot be overridden to another value`);
      return { raw: other, expected: other };
    }
    case 'list': return { raw: ' override-a , override-b ', expected: ['override-a', 'override-b'] };
    case 'url': {
      const raw = `${def.protocols[0]}//override.example/`;
      return { raw, expected: raw };
    }
    case 'secret': return { raw: 'o'.repeat(40), expected: 'o'.repeat(40) };
    default: return { raw: '/override/', expected: '/override/' }; // a fixed point of every string normalization
  }
}

function assertConfigError(fn: () => unknown, ...mustMention: string[]): ConfigError {
  let caught: unknown;
  try { fn(); } catch (error) { caught = error; }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  assert.equal(caught.name, 'ConfigError');
  assert.doesNotMatch(caught.message, /\n/, 'the message is one line');
  for (const text of mustMention) assert.ok(caught.message.includes(text), `"${caught.message}" mentions ${text}`);
  return caught;
}

describe('loadConfig: preset × override matrix', () => {
  for (const preset of PRESET_NAMES) {
    const presetValues = PRESETS[preset] as Record<string, unknown>;
    describe(`preset ${preset}`, () => {
      for (const key of Object.keys(presetValues) as SettingKey[]) {
        it(`${key} takes the preset value`, () => {
          const { config, sources } = load({ SVC_SHORTCUT_SECURE_MODE: preset });
          assert.deepEqual(config[key], presetValues[key]);
          assert.equal(sources[key], 'preset');
        });

        it(`${key}: an explicit ${envName(key)} wins over the preset`, () => {
          const { raw, expected } = overrideFor(definition(key), presetValues[key]);
          assert.notDeepEqual(expected, presetValues[key]);
          const { config, sources } = load({ SVC_SHORTCUT_SECURE_MODE: preset, [envName(key)]: raw });
          assert.deepEqual(config[key], expected);
          assert.equal(sources[key], 'env');
        });

        it(`${key}: the preset value is itself valid for the setting`, () => {
          const { config } = load({ [envName(key)]: toRaw(definition(key), presetValues[key]) });
          assert.deepEqual(config[key], presetValues[key]);
        });
      }

      it('an override of one setting leaves the other preset values in place', () => {
        const keys = Object.keys(presetValues) as SettingKey[];
        const [first, ...rest] = keys;
        assert.ok(first);
        const { raw } = overrideFor(definition(first), presetValues[first]);
        const { config, sources } = load({ SVC_SHORTCUT_SECURE_MODE: preset, [envName(first)]: raw });
        for (const key of rest) {
          assert.deepEqual(config[key], presetValues[key], key);
          assert.equal(sources[key], 'preset', key);
        }
      });

      it('settings the preset does not set keep their defaults', () => {
        const { config, sources } = load({ SVC_SHORTCUT_SECURE_MODE: preset });
        for (const key of Object.keys(SETTINGS) as SettingKey[]) {
          // The relying-party id is derived from SVC_PUBLIC_URL (tested below).
          if (key in presetValues || key === 'SHORTCUT_SECURE_MODE' || key === 'JWT_SECRET_KEY' || key === 'WEBAUTHN_RP_ID') continue;
          assert.deepEqual(config[key], SETTINGS[key].default, key);
          assert.equal(sources[key], 'default', key);
        }
      });
    });
  }

  it('every preset sets only known settings', () => {
    for (const preset of PRESET_NAMES) {
      for (const key of Object.keys(PRESETS[preset])) assert.ok(key in SETTINGS, `${preset} sets unknown ${key}`);
    }
  });
});

describe('loadConfig: the preset table of docs/configuration.md', () => {
  const table = {
    development: {
      JWT_ACCESS_TOKEN_LIFETIME: 3600, REFRESH_TOKEN_ROTATION: false, MAX_LOGIN_ATTEMPTS: 10, LOCKOUT_DURATION: 15 * 60,
      PASSWORD_HISTORY: 0, BREACH_CHECK_ENABLED: false, AUDIT_LOGGING_ENABLED: false, MAX_DEVICES: 0,
      SECURITY_HEADERS_ENABLED: false, WEBAUTHN_ENABLED: false, ROOT_REFRESH_ALIAS: true,
    },
    medium: {
      JWT_ACCESS_TOKEN_LIFETIME: 900, REFRESH_TOKEN_ROTATION: true, MAX_LOGIN_ATTEMPTS: 5, LOCKOUT_DURATION: 30 * 60,
      PASSWORD_HISTORY: 5, BREACH_CHECK_ENABLED: true, AUDIT_LOGGING_ENABLED: true, MAX_DEVICES: 5,
      SECURITY_HEADERS_ENABLED: true, WEBAUTHN_ENABLED: false, ROOT_REFRESH_ALIAS: false,
    },
    robust: {
      JWT_ACCESS_TOKEN_LIFETIME: 300, REFRESH_TOKEN_ROTATION: true, MAX_LOGIN_ATTEMPTS: 3, LOCKOUT_DURATION: 60 * 60,
      PASSWORD_HISTORY: 12, BREACH_CHECK_ENABLED: true, AUDIT_LOGGING_ENABLED: true, MAX_DEVICES: 2,
      DEVICE_LIMIT_ACTION: 'deny', SECURITY_HEADERS_ENABLED: true, WEBAUTHN_ENABLED: true, ROOT_REFRESH_ALIAS: false,
    },
  } as const;

  for (const preset of PRESET_NAMES) {
    it(`${preset} resolves to the values of the specification`, () => {
      const { config } = load({ SVC_SHORTCUT_SECURE_MODE: preset });
      for (const [key, value] of Object.entries(table[preset])) assert.equal(config[key as SettingKey], value, key);
    });
  }
});

describe('loadConfig: choosing the preset', () => {
  it('uses development in debug mode', () => {
    const loaded = loadConfig({ SVC_DEBUG: 'true' });
    assert.equal(loaded.preset, 'development');
    assert.equal(loaded.config.SHORTCUT_SECURE_MODE, 'development');
    assert.equal(loaded.sources.SHORTCUT_SECURE_MODE, 'derived');
  });

  it('uses medium outside debug mode', () => {
    const loaded = load();
    assert.equal(loaded.preset, 'medium');
    assert.equal(loaded.config.SHORTCUT_SECURE_MODE, 'medium');
    assert.equal(loaded.sources.SHORTCUT_SECURE_MODE, 'derived');
  });

  it('an explicit SVC_SHORTCUT_SECURE_MODE wins in debug and outside it', () => {
    const inDebug = loadConfig({ SVC_DEBUG: 'true', SVC_SHORTCUT_SECURE_MODE: 'robust' });
    assert.equal(inDebug.preset, 'robust');
    assert.equal(inDebug.config.JWT_ACCESS_TOKEN_LIFETIME, 300);
    assert.equal(inDebug.sources.SHORTCUT_SECURE_MODE, 'env');
    const outside = load({ SVC_SHORTCUT_SECURE_MODE: 'development' });
    assert.equal(outside.preset, 'development');
    assert.equal(outside.config.JWT_ACCESS_TOKEN_LIFETIME, 3600);
  });
});

describe('loadConfig: sources', () => {
  it('reports default, preset, env and derived', () => {
    const { sources } = loadConfig({ SVC_DEBUG: 'true', SVC_HOST: '0.0.0.0' });
    assert.equal(sources.PORT, 'default');
    assert.equal(sources.JWT_ACCESS_TOKEN_LIFETIME, 'preset');
    assert.equal(sources.HOST, 'env');
    assert.equal(sources.DEBUG, 'env');
    assert.equal(sources.SHORTCUT_SECURE_MODE, 'derived');
    assert.equal(sources.JWT_SECRET_KEY, 'derived');
  });

  it('reports a given secret as env', () => {
    assert.equal(load().sources.JWT_SECRET_KEY, 'env');
  });
});

describe('loadConfig: strict parsing', () => {
  const refused: Array<[name: string, key: SettingKey, raw: string]> = [
    ['SVC_DEBUG', 'DEBUG', 'yes'],
    ['SVC_DEBUG', 'DEBUG', '1'],
    ['SVC_DEBUG', 'DEBUG', 'TRUE'],
    ['SVC_DEBUG', 'DEBUG', ''],
    ['SVC_REFRESH_TOKEN_ROTATION', 'REFRESH_TOKEN_ROTATION', 'on'],
    ['SVC_PORT', 'PORT', 'abc'],
    ['SVC_PORT', 'PORT', '1.5'],
    ['SVC_PORT', 'PORT', '65536'],
    ['SVC_PORT', 'PORT', '-1'],
    ['SVC_PORT', 'PORT', ''],
    ['SVC_JWT_ACCESS_TOKEN_LIFETIME', 'JWT_ACCESS_TOKEN_LIFETIME', '10s'],
    ['SVC_JWT_ACCESS_TOKEN_LIFETIME', 'JWT_ACCESS_TOKEN_LIFETIME', '1e3'],
    ['SVC_JWT_ACCESS_TOKEN_LIFETIME', 'JWT_ACCESS_TOKEN_LIFETIME', '0'],
    ['SVC_OTP_LIFETIME', 'OTP_LIFETIME', '0'],
    ['SVC_MAX_LOGIN_ATTEMPTS', 'MAX_LOGIN_ATTEMPTS', '0'],
    ['SVC_LOCKOUT_DURATION', 'LOCKOUT_DURATION', '99999999999999999999'],
    ['SVC_SHORTCUT_SECURE_MODE', 'SHORTCUT_SECURE_MODE', 'strict'],
    ['SVC_SHORTCUT_SECURE_MODE', 'SHORTCUT_SECURE_MODE', 'Robust'],
    ['SVC_LOG_LEVEL', 'LOG_LEVEL', 'verbose'],
    ['SVC_DEVICE_LIMIT_ACTION', 'DEVICE_LIMIT_ACTION', 'block'],
    ['SVC_DATABASE_URL', 'DATABASE_URL', 'mysql://x'],
    ['SVC_DATABASE_URL', 'DATABASE_URL', 'not a url'],
    ['SVC_REDIS_URL', 'REDIS_URL', 'http://127.0.0.1:6379'],
    ['SVC_BREACH_CHECK_API_URL', 'BREACH_CHECK_API_URL', 'ftp://example.org'],
    ['SVC_SMS_WEBHOOK_URL', 'SMS_WEBHOOK_URL', 'example.org/hook'],
  ];
  for (const [name, key, raw] of refused) {
    it(`refuses ${name}=${JSON.stringify(raw)} naming the setting and what it accepts`, () => {
      assertConfigError(() => load({ [name]: raw }), name, describeAccepted(definition(key)));
    });
  }

  it('accepts the boundaries of an integer range', () => {
    assert.equal(load({ SVC_PORT: '0' }).config.PORT, 0);
    assert.equal(load({ SVC_PORT: '65535' }).config.PORT, 65535);
    assert.equal(load({ SVC_JWT_ACCESS_TOKEN_LIFETIME: '30' }).config.JWT_ACCESS_TOKEN_LIFETIME, 30);
  });

  // see: issue 12 — a 30-second minimum stopped users testing their clients' expiry handling.
  it('accepts every lifetime down to 1 second, with one warning outside debug naming each short one', () => {
    const short = { SVC_JWT_ACCESS_TOKEN_LIFETIME: '2', SVC_JWT_REFRESH_TOKEN_LIFETIME: '1', SVC_OTP_LIFETIME: '8',
      SVC_MAGIC_LINK_LIFETIME: '1', SVC_LOCKOUT_DURATION: '1', SVC_OUTBOX_POLL_INTERVAL: '1' };
    const { config, warnings } = load({ ...short, ...DELIVERING, SVC_ENCRYPTION_KEY: SECRET });
    assert.equal(config.JWT_ACCESS_TOKEN_LIFETIME, 2);
    assert.equal(config.JWT_REFRESH_TOKEN_LIFETIME, 1);
    assert.equal(config.OTP_LIFETIME, 8);
    assert.equal(config.MAGIC_LINK_LIFETIME, 1);
    assert.equal(warnings.length, 1, warnings.join('; '));
    assert.match(warnings[0]!, /SVC_JWT_ACCESS_TOKEN_LIFETIME=2, SVC_JWT_REFRESH_TOKEN_LIFETIME=1, SVC_OTP_LIFETIME=8, SVC_MAGIC_LINK_LIFETIME=1/);
    assert.deepEqual(loadConfig({ ...short, SVC_DEBUG: 'true', SVC_JWT_SECRET_KEY: SECRET }).warnings, []);
    assert.deepEqual(load({ SVC_JWT_ACCESS_TOKEN_LIFETIME: '30', SVC_OTP_LIFETIME: '30', ...DELIVERING, SVC_ENCRYPTION_KEY: SECRET }).warnings, []);
  });

  it('accepts true and false for booleans', () => {
    assert.equal(load({ SVC_METRICS_ENABLED: 'false' }).config.METRICS_ENABLED, false);
    assert.equal(load({ SVC_ORGANIZATIONS_ENABLED: 'true' }).config.ORGANIZATIONS_ENABLED, true);
  });

  it('accepts both PostgreSQL URL spellings', () => {
    assert.equal(load({ SVC_DATABASE_URL: 'postgres://u@db/app' }).config.DATABASE_URL, 'postgres://u@db/app');
    assert.equal(load({ SVC_DATABASE_URL: 'postgresql://u@db/app' }).config.DATABASE_URL, 'postgresql://u@db/app');
  });

  it('never echoes a password carried in a refused URL', () => {
    const error = assertConfigError(() => load({ SVC_DATABASE_URL: 'mysql://admin:hunter2-secret@db/app' }), 'SVC_DATABASE_URL');
    assert.ok(!error.message.includes('hunter2-secret'), error.message);
  });

  it('never echoes a refused JWT secret', () => {
    const error = assertConfigError(() => load({ SVC_JWT_SECRET_KEY: 'too-short-signing-key' }), 'SVC_JWT_SECRET_KEY');
    assert.ok(!error.message.includes('too-short-signing-key'), error.message);
  });
});

describe('loadConfig: aliases and normalization', () => {
  it('honours PORT', () => {
    const { config, sources } = load({ PORT: '9000' });
    assert.equal(config.PORT, 9000);
    assert.equal(sources.PORT, 'env');
  });

  it('prefers SVC_PORT over PORT', () => {
    assert.equal(load({ PORT: '9000', SVC_PORT: '9001' }).config.PORT, 9001);
  });

  it('names the alias when its value is malformed', () => {
    assertConfigError(() => load({ PORT: 'eighty' }), 'PORT', describeAccepted(SETTINGS.PORT));
  });

  it('honours DATABASE_URL and prefers SVC_DATABASE_URL over it', () => {
    assert.equal(load({ DATABASE_URL: 'postgres://a/one' }).config.DATABASE_URL, 'postgres://a/one');
    assert.equal(load({ DATABASE_URL: 'postgres://a/one', SVC_DATABASE_URL: 'postgres://b/two' }).config.DATABASE_URL, 'postgres://b/two');
  });

  it('leaves DATABASE_URL unset by default', () => {
    assert.equal(load().config.DATABASE_URL, null);
  });

  for (const [raw, expected] of [['api/v2', '/api/v2/'], ['/api/v2', '/api/v2/'], ['api/v2/', '/api/v2/'], ['/api/v2/', '/api/v2/'], ['/', '/'], [' //auth// ', '/auth/']]) {
    it(`normalizes SVC_API_PREFIX=${JSON.stringify(raw)} to ${expected}`, () => {
      assert.equal(load({ SVC_API_PREFIX: raw }).config.API_PREFIX, expected);
    });
  }

  it('defaults SVC_API_PREFIX to /api/v1/auth/', () => {
    assert.equal(load().config.API_PREFIX, '/api/v1/auth/');
  });

  it('splits lists on commas, trims entries and drops empty ones', () => {
    assert.deepEqual(load({ SVC_TRUSTED_PROXIES: ' 10.0.0.1 , 192.168.0.0/16,,' }).config.TRUSTED_PROXIES, ['10.0.0.1', '192.168.0.0/16']);
    assert.deepEqual(load({ SVC_TRUSTED_PROXIES: '' }).config.TRUSTED_PROXIES, []);
    assert.deepEqual(load().config.TRUSTED_PROXIES, []);
  });
});

describe('loadConfig: invariants', () => {
  it('outside debug, a missing SVC_JWT_SECRET_KEY stops start-up', () => {
    assertConfigError(() => loadConfig({}), 'SVC_JWT_SECRET_KEY');
    assertConfigError(() => loadConfig({ SVC_DEBUG: 'false', SVC_JWT_SECRET_KEY: '' }), 'SVC_JWT_SECRET_KEY');
  });

  for (const debug of ['true', 'false']) {
    it(`refuses a secret shorter than 32 bytes with SVC_DEBUG=${debug}`, () => {
      assertConfigError(() => loadConfig({ SVC_DEBUG: debug, SVC_JWT_SECRET_KEY: 'x'.repeat(31) }), 'SVC_JWT_SECRET_KEY', '32');
    });
  }

  it('counts the secret in bytes, not characters', () => {
    assertConfigError(() => loadConfig({ SVC_JWT_SECRET_KEY: 'é'.repeat(15) }), 'SVC_JWT_SECRET_KEY'); // 15 characters, 30 bytes
    assert.equal(loadConfig({ SVC_JWT_SECRET_KEY: 'é'.repeat(16) }).config.JWT_SECRET_KEY, 'é'.repeat(16)); // 32 bytes
  });

  it('accepts a secret of exactly 32 bytes', () => {
    assert.equal(loadConfig({ SVC_JWT_SECRET_KEY: SECRET }).config.JWT_SECRET_KEY, SECRET);
  });

  it('outside debug, refuses SVC_APPLICATION_AUTH_ENABLED=false', () => {
    assertConfigError(() => load({ SVC_APPLICATION_AUTH_ENABLED: 'false' }), 'SVC_APPLICATION_AUTH_ENABLED');
  });

  it('derives the passkeys\' relying-party id from the host of SVC_PUBLIC_URL; an explicit one wins; an IP host is localhost', () => {
    const rp = (env: Env) => load(env).config.WEBAUTHN_RP_ID;
    assert.equal(rp({ SVC_PUBLIC_URL: 'https://Auth.Example.com/gate' }), 'auth.example.com');
    assert.equal(rp({ SVC_PUBLIC_URL: 'https://auth.example.com', SVC_WEBAUTHN_RP_ID: 'example.com' }), 'example.com');
    assert.equal(rp({}), 'localhost', 'the default http://127.0.0.1:<port>: WebAuthn takes no IP address');
    assert.equal(rp({ SVC_PUBLIC_URL: 'http://[::1]:8000' }), 'localhost');
    const ipWarnings = (env: Env) => load({ SVC_WEBAUTHN_ENABLED: 'true', ...env }).warnings.filter((w) => w.includes('Passkeys need'));
    assert.equal(ipWarnings({}).length, 1);
    assert.deepEqual(ipWarnings({ SVC_PUBLIC_URL: 'https://auth.example.com' }), []);
    assert.deepEqual(ipWarnings({ SVC_WEBAUTHN_RP_ID: 'localhost' }), []);
  });

  it('warns when an explicit SVC_JWT_ISSUER of an asymmetric algorithm is not a URL (no discovery document then)', () => {
    const issuerWarnings = (env: Env) => loadConfig({ SVC_DEBUG: 'true', SVC_JWT_ALGORITHM: 'EdDSA', ...env }).warnings
      .filter((w) => w.includes('SVC_JWT_ISSUER'));
    assert.equal(issuerWarnings({ SVC_JWT_ISSUER: 'gatehouse' }).length, 1);
    assert.deepEqual(issuerWarnings({ SVC_JWT_ISSUER: 'https://auth.example.com' }), []);
    assert.deepEqual(issuerWarnings({}), []);
  });

  it('in debug, allows SVC_APPLICATION_AUTH_ENABLED=false with a warning', () => {
    const { config, warnings } = loadConfig({ SVC_DEBUG: 'true', SVC_APPLICATION_AUTH_ENABLED: 'false' });
    assert.equal(config.APPLICATION_AUTH_ENABLED, false);
    assert.ok(warnings.some((w) => w.includes('SVC_APPLICATION_AUTH_ENABLED')), warnings.join('; '));
  });

  it('in debug, replaces a missing secret with a generated one of at least 32 bytes, different on each load, with a warning', () => {
    const first = loadConfig({ SVC_DEBUG: 'true' });
    const second = loadConfig({ SVC_DEBUG: 'true' });
    const secret = first.config.JWT_SECRET_KEY;
    assert.ok(secret !== null && Buffer.byteLength(secret, 'utf8') >= 32);
    assert.notEqual(second.config.JWT_SECRET_KEY, secret);
    assert.ok(first.warnings.some((w) => w.includes('SVC_JWT_SECRET_KEY')), first.warnings.join('; '));
  });

  it('in debug, keeps a given secret and does not warn about it', () => {
    const { config, warnings } = loadConfig({ SVC_DEBUG: 'true', SVC_JWT_SECRET_KEY: SECRET });
    assert.equal(config.JWT_SECRET_KEY, SECRET);
    assert.ok(!warnings.some((w) => w.includes('SVC_JWT_SECRET_KEY')));
  });

  it('outside debug, a valid configuration loads without warnings', () => {
    // Without SVC_ENCRYPTION_KEY, HS256 warns about the derived key (src/config/signing.test.ts).
    assert.deepEqual(load({ SVC_ENCRYPTION_KEY: SECRET, ...DELIVERING }).warnings, []);
  });

  it('outside debug, warns once for each console backend that nothing is delivered and what it prints is masked', () => {
    const both = load({ SVC_ENCRYPTION_KEY: SECRET }).warnings;
    assert.equal(both.length, 2, both.join('; '));
    assert.match(both[0]!, /^SVC_EMAIL_BACKEND=console delivers no email: .*codes, tokens and links masked; set SVC_EMAIL_BACKEND=smtp/);
    assert.match(both[1]!, /^SVC_SMS_BACKEND=console delivers no SMS: .*codes masked; set SVC_SMS_BACKEND=webhook/);
    const smsOnly = load({ SVC_ENCRYPTION_KEY: SECRET, SVC_EMAIL_BACKEND: 'smtp' }).warnings;
    assert.deepEqual(smsOnly, [both[1]]);
    const emailOnly = load({ SVC_ENCRYPTION_KEY: SECRET, SVC_SMS_BACKEND: 'webhook', SVC_SMS_WEBHOOK_URL: 'https://sms.example/hook' }).warnings;
    assert.deepEqual(emailOnly, [both[0]]);
    // In debug the console backends are the development delivery: printed as they are, without a warning.
    assert.deepEqual(loadConfig({ SVC_DEBUG: 'true', SVC_JWT_SECRET_KEY: SECRET }).warnings, []);
  });

  it('refuses SVC_SMS_BACKEND=webhook without SVC_SMS_WEBHOOK_URL', () => {
    assertConfigError(() => load({ SVC_SMS_BACKEND: 'webhook' }), 'SVC_SMS_WEBHOOK_URL');
  });

  it('accepts SVC_SMS_BACKEND=webhook with SVC_SMS_WEBHOOK_URL', () => {
    const { config } = load({ SVC_SMS_BACKEND: 'webhook', SVC_SMS_WEBHOOK_URL: 'https://sms.example/hook' });
    assert.equal(config.SMS_BACKEND, 'webhook');
    assert.equal(config.SMS_WEBHOOK_URL, 'https://sms.example/hook');
  });

  it('refuses SVC_PASSWORD_MIN_LENGTH greater than SVC_PASSWORD_MAX_LENGTH', () => {
    assertConfigError(() => load({ SVC_PASSWORD_MIN_LENGTH: '20', SVC_PASSWORD_MAX_LENGTH: '16' }), 'SVC_PASSWORD_MIN_LENGTH', 'SVC_PASSWORD_MAX_LENGTH');
  });

  it('refuses a maximum password length below the preset minimum', () => {
    assertConfigError(() => load({ SVC_SHORTCUT_SECURE_MODE: 'robust', SVC_PASSWORD_MAX_LENGTH: '14' }), 'SVC_PASSWORD_MAX_LENGTH');
  });

  it('accepts equal minimum and maximum password lengths', () => {
    const { config } = load({ SVC_PASSWORD_MIN_LENGTH: '16', SVC_PASSWORD_MAX_LENGTH: '16' });
    assert.equal(config.PASSWORD_MIN_LENGTH, 16);
    assert.equal(config.PASSWORD_MAX_LENGTH, 16);
  });

  it('returns a frozen config', () => {
    const { config } = load();
    assert.ok(Object.isFrozen(config));
    assert.equal(Reflect.set(config, 'PORT', 1), false);
    assert.equal(config.PORT, 8000);
  });
});
