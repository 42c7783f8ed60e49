import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { hmacKey, signAccessToken, verifyAccessToken, type AsymmetricAlgorithm } from './jwt.js';
import {
  generateKeyMaterial, importJwtKey, keyMaterialFromPem, privateKeyProblem, publishedJwk,
} from './signing-keys.js';

const ISSUER = 'https://auth.example.com';
const now = new Date('2026-01-02T03:04:05Z');
const claims = { sub: '12', app: 3, sid: '45', scope: 'full' as const };
const ALGORITHMS: AsymmetricAlgorithm[] = ['EdDSA', 'ES256', 'RS256'];

const pemOf = (type: 'ed25519' | 'ed448' | 'ec' | 'rsa' | 'rsa-pss', options: object = {}, format: 'pkcs8' | 'sec1' | 'pkcs1' = 'pkcs8') =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- node's overloads do not take a union of key types
  (generateKeyPairSync as any)(type, options).privateKey.export({ type: format, format: 'pem' }) as string;

describe('asymmetric access tokens', () => {
  for (const alg of ALGORITHMS) {
    it(`${alg}: signed with the key's kid, verified by jose against the published key alone`, async () => {
      const material = await generateKeyMaterial(alg);
      assert.equal(material.kid, await calculateJwkThumbprint(material.publicJwk, 'sha256'), 'the kid is the RFC 7638 thumbprint');
      const key = await importJwtKey(material, ISSUER);
      const { token, jti } = await signAccessToken(key, claims, now, 900);
      assert.deepEqual(decodeProtectedHeader(token), { alg, kid: material.kid, typ: 'JWT' });
      const published = publishedJwk(material);
      assert.deepEqual(Object.keys(published).filter((k) => ['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(k)), [], 'no private member');
      const { payload } = await jwtVerify(token, createLocalJWKSet({ keys: [published] }), { issuer: ISSUER, currentDate: now });
      assert.equal(payload.jti, jti);
      const ok = await verifyAccessToken(key, token, now);
      assert.ok(ok.ok && ok.claims.sub === '12');
    });
  }

  it('refuses a token whose header names another algorithm than its key, the public key used as an HMAC secret included', async () => {
    const material = await generateKeyMaterial('ES256');
    const key = await importJwtKey(material, ISSUER);
    const { token } = await signAccessToken(key, claims, now, 900);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    // RFC 8725 §2.1: the public key, as text, used as an HMAC secret under the kid of the EC key.
    const confused = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: material.kid, typ: 'JWT' })
      .sign(new TextEncoder().encode(JSON.stringify(material.publicJwk)));
    assert.deepEqual(await verifyAccessToken(key, confused, now), { ok: false, reason: 'invalid' });
    const other = await importJwtKey(await generateKeyMaterial('ES256'), ISSUER);
    assert.deepEqual(await verifyAccessToken({ ...other, kid: key.kid }, token, now), { ok: false, reason: 'invalid' });
  });

  it('refuses a token without kid for an asymmetric key, and accepts one for the HMAC secret (tokens from before kids)', async () => {
    const key = await importJwtKey(await generateKeyMaterial('EdDSA'), ISSUER);
    const { token } = await signAccessToken(key, claims, now, 900);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const bare = await new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' }).sign(key.privateKey!);
    assert.deepEqual(await verifyAccessToken(key, bare, now), { ok: false, reason: 'invalid' });
    const secret = 'a-signing-secret-of-at-least-thirty-two-bytes';
    const hmac = hmacKey(secret, ISSUER);
    const legacy = await new SignJWT({ ...payload }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(secret));
    assert.ok((await verifyAccessToken(hmac, legacy, now)).ok);
  });

  it('a retired key recognises its signature (an expired token says expired) and accepts nothing', async () => {
    const key = await importJwtKey(await generateKeyMaterial('EdDSA'), ISSUER);
    const { token } = await signAccessToken(key, claims, now, 60);
    const retired = () => ({ key, retired: true });
    assert.deepEqual(await verifyAccessToken(retired, token, now), { ok: false, reason: 'invalid' });
    assert.deepEqual(await verifyAccessToken(retired, token, new Date(now.getTime() + 61_000)), { ok: false, reason: 'expired' });
  });

  it('a verify-only key does not sign', async () => {
    const material = await generateKeyMaterial('EdDSA');
    const key = await importJwtKey({ ...material, privatePem: null }, ISSUER);
    await assert.rejects(signAccessToken(key, claims, now, 60), /only verifies/);
  });
});

describe('configured private keys', () => {
  it('accept PKCS#8, SEC1 and PKCS#1 PEM, and one-line values with \\n escapes, with a stable kid', async () => {
    const ec = pemOf('ec', { namedCurve: 'P-256' }, 'sec1');
    const rsa = pemOf('rsa', { modulusLength: 2048 }, 'pkcs1');
    for (const [pem, alg] of [[ec, 'ES256'], [rsa, 'RS256'], [pemOf('ed25519'), 'EdDSA']] as const) {
      assert.equal(privateKeyProblem(pem, alg), null);
      const a = await keyMaterialFromPem(pem, alg);
      const b = await keyMaterialFromPem(pem.trim().replace(/\n/g, '\\n'), alg);
      assert.equal(a.kid, b.kid);
      assert.match(a.privatePem, /^-----BEGIN PRIVATE KEY-----/);
    }
  });

  it('name what is wrong in one line, never repeating the key', () => {
    const ed = pemOf('ed25519');
    const cases: Array<[string, AsymmetricAlgorithm, RegExp]> = [
      ['not a key', 'EdDSA', /not a readable PEM private key/],
      [ed.replace(/[A-Za-z0-9+/]{20}\n/, 'AAAA\n'), 'EdDSA', /not a readable PEM private key/],
      [ed, 'ES256', /ES256 needs an EC key on P-256.*not an Ed25519 key/],
      [pemOf('ec', { namedCurve: 'P-384' }), 'ES256', /not an EC key on secp384r1/],
      [pemOf('ec', { namedCurve: 'P-256' }), 'EdDSA', /EdDSA needs an Ed25519 key/],
      [pemOf('ed448'), 'EdDSA', /EdDSA needs an Ed25519 key, not an Ed448 key/],
      [pemOf('rsa', { modulusLength: 1024 }), 'RS256', /at least 2048 bits, not 1024 \(too weak\)/],
      [pemOf('rsa-pss', { modulusLength: 2048 }), 'RS256', /RS256 needs an RSA key, not an RSA-PSS key/],
      [generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string, 'EdDSA', /not a readable PEM/],
    ];
    for (const [pem, alg, pattern] of cases) {
      const problem = privateKeyProblem(pem, alg);
      assert.ok(problem, `${alg}: ${pattern}`);
      assert.match(problem, pattern);
      assert.doesNotMatch(problem, /\n|BEGIN|[A-Za-z0-9+/]{40}/);
    }
  });
});
