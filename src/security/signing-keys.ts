import { createPrivateKey, createPublicKey, generateKeyPair, webcrypto, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, importJWK, importPKCS8, type JWK } from 'jose';
import type { AsymmetricAlgorithm, AsymmetricJwtKey } from './jwt.js';

/** NIST SP 800-57 part 1 and RFC 7518 §3.3: RSA keys below 2048 bits are too weak to sign with. */
export const MIN_RSA_BITS = 2048;

/** An asymmetric key as stored and published: the private part as PKCS#8 PEM, the public part as a JWK. */
export interface KeyMaterial {
  /** RFC 7638 thumbprint of the public key: the same on every instance that holds the key, without coordination. */
  kid: string;
  algorithm: AsymmetricAlgorithm;
  privatePem: string;
  publicJwk: JWK;
}

/** A PEM pasted into a one-line `.env` value carries `\n` escapes instead of line breaks. */
const unescapePem = (pem: string): string => (pem.includes('\n') ? pem : pem.replace(/\\n/g, '\n')).trim();

/** Reads a PEM private key. The message of a failure never repeats the key. */
export function readPrivateKey(pem: string): KeyObject {
  try {
    return createPrivateKey({ key: unescapePem(pem), format: 'pem' });
  } catch {
    throw new Error('not a readable PEM private key (PKCS#8, SEC1 or PKCS#1, without a passphrase)');
  }
}

const NAMED_KEYS: Record<string, string> = {
  ed25519: 'an Ed25519 key', ed448: 'an Ed448 key', x25519: 'an X25519 key', x448: 'an X448 key', 'rsa-pss': 'an RSA-PSS key',
  dsa: 'a DSA key', dh: 'a Diffie-Hellman key',
};

const describeKey = (key: KeyObject): string => {
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'ec') return `an EC key on ${details?.namedCurve ?? 'an unknown curve'}`;
  if (key.asymmetricKeyType === 'rsa') return `a ${details?.modulusLength ?? '?'}-bit RSA key`;
  return NAMED_KEYS[key.asymmetricKeyType ?? ''] ?? `a ${key.asymmetricKeyType ?? 'symmetric'} key`;
};

/** Why `key` cannot sign with `alg` (one line), or null when it can: one curve per algorithm, RSA of 2048 bits at least. */
export function algorithmMismatch(key: KeyObject, alg: AsymmetricAlgorithm): string | null {
  const type = key.asymmetricKeyType;
  switch (alg) {
    case 'EdDSA': return type === 'ed25519' ? null : `EdDSA needs an Ed25519 key, not ${describeKey(key)}`;
    case 'ES256':
      return type === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? null
        : `ES256 needs an EC key on P-256 (prime256v1), not ${describeKey(key)}`;
    case 'RS256': {
      if (type !== 'rsa') return `RS256 needs an RSA key, not ${describeKey(key)}`;
      const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
      return bits >= MIN_RSA_BITS ? null : `RS256 needs an RSA key of at least ${MIN_RSA_BITS} bits, not ${bits} (too weak)`;
    }
  }
}

/** Why `pem` cannot sign with `alg` (one line, never the key itself), or null when it can. */
export function privateKeyProblem(pem: string, alg: AsymmetricAlgorithm): string | null {
  try {
    return algorithmMismatch(readPrivateKey(pem), alg);
  } catch (err) {
    return (err as Error).message;
  }
}

async function materialOf(privateKey: KeyObject, algorithm: AsymmetricAlgorithm): Promise<KeyMaterial> {
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  return {
    kid: await calculateJwkThumbprint(publicJwk, 'sha256'),
    algorithm,
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicJwk,
  };
}

/** The material of a configured or stored PEM; throws when it cannot sign with `algorithm`. */
export async function keyMaterialFromPem(pem: string, algorithm: AsymmetricAlgorithm): Promise<KeyMaterial> {
  const key = readPrivateKey(pem);
  const problem = algorithmMismatch(key, algorithm);
  if (problem) throw new Error(problem);
  return materialOf(key, algorithm);
}

const generate = promisify(generateKeyPair);

/** A fresh key pair (off the event loop: an RSA key takes a noticeable moment). */
export async function generateKeyMaterial(algorithm: AsymmetricAlgorithm): Promise<KeyMaterial> {
  const { privateKey } = algorithm === 'EdDSA' ? await generate('ed25519')
    : algorithm === 'ES256' ? await generate('ec', { namedCurve: 'P-256' })
      : await generate('rsa', { modulusLength: MIN_RSA_BITS });
  return materialOf(privateKey, algorithm);
}

/** WebCrypto keys for jose, imported once per key. `privatePem` null: a key that only verifies. */
export async function importJwtKey(m: { kid: string; algorithm: AsymmetricAlgorithm; publicJwk: JWK; privatePem: string | null },
  issuer: string): Promise<AsymmetricJwtKey> {
  const publicKey = await importJWK(m.publicJwk, m.algorithm) as webcrypto.CryptoKey;
  const privateKey = m.privatePem === null ? null : await importPKCS8(m.privatePem, m.algorithm);
  return { alg: m.algorithm, kid: m.kid, publicKey, privateKey, issuer };
}

/** A public key as a JWKS lists it (RFC 7517): its type, the public members of that type, its kid, algorithm and use. */
export interface PublishedJwk {
  kty: string;
  kid: string;
  alg: AsymmetricAlgorithm;
  use: 'sig';
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

/** The public key as a JWKS lists it: only the public members, pinned to its one algorithm, for signatures. */
export const publishedJwk = (m: { kid: string; algorithm: AsymmetricAlgorithm; publicJwk: JWK }): PublishedJwk => {
  const { kty, crv, x, y, n, e } = m.publicJwk;
  // Every exported public key names its type; without one the key could not be published (nor verify anything).
  if (typeof kty !== 'string') throw new Error(`signing key ${m.kid}: its public JWK has no kty`);
  return { kty, ...(crv ? { crv } : {}), ...(x ? { x } : {}), ...(y ? { y } : {}), ...(n ? { n } : {}), ...(e ? { e } : {}),
    kid: m.kid, alg: m.algorithm, use: 'sig' };
};

/**
 * A private key as a signer's key set holds it (oidc-provider's `jwks` takes private JWKs: it signs with them and
 * verifies its own tokens): every member of the key, pinned to its one algorithm, for signatures. Never published.
 */
export type PrivateJwk = JWK & { kty: string; kid: string; alg: AsymmetricAlgorithm; use: 'sig' };

/** The private JWK of a PEM key (Node's KeyObject export); throws when the PEM is not a key that signs with `algorithm`. */
export function privateJwkOf(m: { kid: string; algorithm: AsymmetricAlgorithm; privatePem: string }): PrivateJwk {
  const key = readPrivateKey(m.privatePem);
  const problem = algorithmMismatch(key, m.algorithm);
  if (problem) throw new Error(problem);
  const jwk = key.export({ format: 'jwk' }) as JWK & { kty: string };
  return { ...jwk, kid: m.kid, alg: m.algorithm, use: 'sig' };
}
