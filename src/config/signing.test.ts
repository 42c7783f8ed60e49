import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, type Env } from './load.js';
import { publicUrlOf } from './settings.js';

const SECRET = 's'.repeat(32);
const ENCRYPTION = 'e'.repeat(40);
/** Production-shaped: not debug, with an encryption key. */
const load = (env: Env) => loadConfig({ SVC_ENCRYPTION_KEY: ENCRYPTION, ...env });
/** Backends that deliver: outside debug the `console` ones are reported at start-up too. */
const DELIVERING: Env = { SVC_EMAIL_BACKEND: 'smtp', SVC_SMS_BACKEND: 'webhook', SVC_SMS_WEBHOOK_URL: 'https://sms.example/hook' };
const pem = (type: 'ed25519' | 'ec' | 'rsa', options: object = {}) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- node's overloads do not take a union of key types
  (generateKeyPairSync as any)(type, options).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

function assertConfigError(fn: () => unknown, pattern: RegExp): void {
  let caught: unknown;
  try { fn(); } catch (error) { caught = error; }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  assert.doesNotMatch(caught.message, /\n/, 'one line');
  assert.doesNotMatch(caught.message, /BEGIN|PRIVATE KEY-----/, 'never the key');
  assert.match(caught.message, pattern);
}

describe('signing settings (docs/resource-servers.md)', () => {
  it('default to HS256 with the issuer gatehouse, as before', () => {
    const { config } = load({ SVC_JWT_SECRET_KEY: SECRET });
    assert.equal(config.JWT_ALGORITHM, 'HS256');
    assert.equal(config.JWT_ISSUER, 'gatehouse');
    assert.equal(config.JWT_PRIVATE_KEY, null);
    assert.equal(publicUrlOf(config), 'http://127.0.0.1:8000');
  });

  it('with an asymmetric algorithm, make SVC_PUBLIC_URL (or its default) the issuer unless SVC_JWT_ISSUER is set', () => {
    for (const alg of ['EdDSA', 'ES256', 'RS256']) {
      assert.equal(load({ SVC_JWT_ALGORITHM: alg }).config.JWT_ISSUER, 'http://127.0.0.1:8000');
      const { config, sources } = load({ SVC_JWT_ALGORITHM: alg, SVC_PUBLIC_URL: 'https://auth.example.com/', SVC_PORT: '9000' });
      assert.equal(config.JWT_ISSUER, 'https://auth.example.com');
      assert.equal(sources.JWT_ISSUER, 'derived');
      assert.equal(load({ SVC_JWT_ALGORITHM: alg, SVC_JWT_ISSUER: 'https://issuer.example' }).config.JWT_ISSUER, 'https://issuer.example');
    }
    assert.equal(load({ SVC_JWT_ALGORITHM: 'EdDSA', SVC_PORT: '9000' }).config.JWT_ISSUER, 'http://127.0.0.1:9000');
  });

  it('need no JWT secret with an asymmetric algorithm, but SVC_ENCRYPTION_KEY outside debug', () => {
    assert.equal(load({ SVC_JWT_ALGORITHM: 'EdDSA' }).config.JWT_SECRET_KEY, null);
    assertConfigError(() => loadConfig({ SVC_JWT_ALGORITHM: 'ES256' }), /Missing setting SVC_ENCRYPTION_KEY: required outside debug mode/);
    assertConfigError(() => loadConfig({ SVC_JWT_ALGORITHM: 'ES256', SVC_JWT_SECRET_KEY: SECRET }), /SVC_ENCRYPTION_KEY/);
    assertConfigError(() => loadConfig({ SVC_JWT_ALGORITHM: 'RS256', SVC_JWT_PRIVATE_KEY: pem('rsa', { modulusLength: 2048 }) }),
      /SVC_ENCRYPTION_KEY/);
    const debug = loadConfig({ SVC_DEBUG: 'true', SVC_JWT_ALGORITHM: 'EdDSA' });
    assert.ok(debug.warnings.some((w) => /SVC_ENCRYPTION_KEY is not set: using an ephemeral key/.test(w)), debug.warnings.join('; '));
  });

  it('with HS256 and no SVC_ENCRYPTION_KEY, keep deriving it from the JWT secret, with a start-up warning', () => {
    const { warnings } = loadConfig({ SVC_JWT_SECRET_KEY: SECRET, ...DELIVERING });
    assert.equal(warnings.length, 1, warnings.join('; '));
    assert.match(warnings[0]!, /SVC_ENCRYPTION_KEY is not set.*derived from SVC_JWT_SECRET_KEY.*set SVC_ENCRYPTION_KEY to the current/);
    assert.doesNotMatch(warnings[0]!, new RegExp(SECRET));
    assert.deepEqual(load({ SVC_JWT_SECRET_KEY: SECRET, ...DELIVERING }).warnings, []);
  });

  it('accept a PEM key of the configured algorithm', () => {
    const cases = [['EdDSA', pem('ed25519')], ['ES256', pem('ec', { namedCurve: 'P-256' })],
      ['RS256', pem('rsa', { modulusLength: 2048 })]];
    for (const [alg, key] of cases) assert.equal(load({ SVC_JWT_ALGORITHM: alg, SVC_JWT_PRIVATE_KEY: key }).config.JWT_ALGORITHM, alg);
  });

  it('stop start-up with one line on a malformed PEM, a key of another algorithm, a weak key or an unsupported algorithm', () => {
    const ed = pem('ed25519');
    const malformed = '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----';
    assertConfigError(() => load({ SVC_JWT_ALGORITHM: 'EdDSA', SVC_JWT_PRIVATE_KEY: malformed }),
      /Invalid setting SVC_JWT_PRIVATE_KEY: not a readable PEM private key/);
    assertConfigError(() => load({ SVC_JWT_ALGORITHM: 'ES256', SVC_JWT_PRIVATE_KEY: ed }),
      /Invalid setting SVC_JWT_PRIVATE_KEY: ES256 needs an EC key on P-256.*\(SVC_JWT_ALGORITHM=ES256\)/);
    assertConfigError(() => load({ SVC_JWT_ALGORITHM: 'RS256', SVC_JWT_PRIVATE_KEY: pem('rsa', { modulusLength: 1024 }) }),
      /RS256 needs an RSA key of at least 2048 bits, not 1024 \(too weak\)/);
    assertConfigError(() => load({ SVC_JWT_SECRET_KEY: SECRET, SVC_JWT_PRIVATE_KEY: ed }),
      /SVC_JWT_PRIVATE_KEY: used only with SVC_JWT_ALGORITHM=EdDSA, ES256 or RS256/);
    for (const alg of ['HS512', 'none', 'PS256', 'ES384', 'eddsa']) {
      assertConfigError(() => load({ SVC_JWT_ALGORITHM: alg }),
        /Invalid setting SVC_JWT_ALGORITHM=.*expected one of HS256, EdDSA, ES256, RS256/);
    }
  });

  it('refuse a public URL with a query, fragment or credentials', () => {
    for (const url of ['https://a.example/?x=1', 'https://a.example/#f', 'https://u:p@a.example/', 'ftp://a.example/']) {
      assertConfigError(() => load({ SVC_JWT_SECRET_KEY: SECRET, SVC_PUBLIC_URL: url }), /SVC_PUBLIC_URL/);
    }
    const { config } = load({ SVC_JWT_SECRET_KEY: SECRET, SVC_PUBLIC_URL: 'https://a.example/auth/' });
    assert.equal(publicUrlOf(config), 'https://a.example/auth');
  });
});
