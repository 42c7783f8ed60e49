import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, createLocalJWKSet, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';
import { decodeJwt } from '../../factories/sessions.js';
import { acquireTestDatabase, releaseTestDatabase } from '../../helpers/database.js';
import { createTestApp, useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { ASYMMETRIC, ENCRYPTION_KEY, fetchJwks, freshToken, keysEnv, kidsOf, me, privateKeyPem } from './helpers.js';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

/** An empty key table, then the key the app creates on a first start. */
async function emptyKeys(t: TestApp): Promise<void> {
  await t.reset();
  await t.container.services.keys.check();
}

/** Every test here starts from an empty key table: the app creates its key as on a first start. */
async function startFresh(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp({ env });
  await emptyKeys(t);
  return t;
}

/** startFresh's app for the enclosing describe, shared by its tests (not reset between them). */
function useFreshApp(env: Record<string, string>): TestApp {
  const t = useTestApp({ env, reset: false });
  before(() => emptyKeys(t));
  return t;
}

for (const alg of ['HS256', ...ASYMMETRIC]) {
  describe(`SVC_JWT_ALGORITHM=${alg}`, () => {
    const t = useFreshApp(keysEnv(alg));

    it('signs access tokens with a kid that Gatehouse accepts and a JWKS client verifies', async () => {
      const { user, token, kid, alg: signedWith } = await freshToken(t);
      assert.equal(signedWith, alg);
      assert.match(kid, /^[A-Za-z0-9_-]{16,}$/);
      const res = await me(t, token);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().id, user.id);

      const jwks = await fetchJwks(t);
      if (alg === 'HS256') {
        assert.deepEqual(jwks, { keys: [] }, 'a symmetric key is never published');
        return;
      }
      assert.equal(jwks.keys.length, 1);
      const [published] = jwks.keys as [JWK];
      assert.deepEqual([published.kid, published.alg, published.use], [kid, alg, 'sig']);
      assert.equal(published.kid, await calculateJwkThumbprint(published, 'sha256'));
      assert.deepEqual(Object.keys(published).filter((k) => PRIVATE_MEMBERS.includes(k)), []);
      const discovery = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
        issuer: discovery.issuer, algorithms: discovery.id_token_signing_alg_values_supported, currentDate: t.clock.now(),
      });
      assert.deepEqual([payload.sub, payload.typ, payload.scope, payload.app], [String(user.id), 'access', 'full', t.credentials.id]);
    });

    it('publishes the keys and the metadata without application credentials, cacheable', async () => {
      const root = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
      const prefixed = await t.api({ method: 'GET', path: 'jwks/', appAuth: false });
      for (const res of [root, prefixed]) {
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['cache-control']), /^public, max-age=\d+$/);
        assert.match(String(res.headers['content-type']), /^application\/json/);
      }
      assert.deepEqual(prefixed.json(), root.json());
      assert.equal(root.headers['access-control-allow-origin'], '*');

      const meta = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
      if (alg === 'HS256') {
        // Nothing to discover: no public key, and the issuer `gatehouse` is no URL. HS256 is never advertised.
        assertError(meta, 404, 'FEATURE_DISABLED', { details: { setting: 'SVC_JWT_ALGORITHM' } });
        assert.match(meta.json().error, /SVC_JWT_ALGORITHM to EdDSA, ES256 or RS256/);
        assert.deepEqual([meta.headers['cache-control'], meta.headers['access-control-allow-origin']], ['no-store', '*']);
        return;
      }
      assert.equal(meta.statusCode, 200, meta.body);
      assert.match(String(meta.headers['cache-control']), /^public, max-age=\d+$/);
      assert.deepEqual(meta.json(), {
        issuer: 'http://127.0.0.1:8000',
        jwks_uri: 'http://127.0.0.1:8000/.well-known/jwks.json',
        id_token_signing_alg_values_supported: [alg],
      });
      const { payload } = decodeJwt((await freshToken(t)).token);
      assert.equal(payload.iss, meta.json().issuer);
    });
  });
}

describe('the discovery document never names an issuer that is not a URL', () => {
  const t = useFreshApp(keysEnv('EdDSA', { SVC_JWT_ISSUER: 'gatehouse' }));

  it('answers 404 FEATURE_DISABLED naming SVC_JWT_ISSUER, while the keys are still published and the tokens carry it', async () => {
    const meta = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    assertError(meta, 404, 'FEATURE_DISABLED', { details: { setting: 'SVC_JWT_ISSUER' } });
    assert.equal((await fetchJwks(t)).keys.length, 1);
    assert.equal(decodeJwt((await freshToken(t)).token).payload.iss, 'gatehouse');
  });
});

describe('verification picks the key by kid and accepts only that key\'s algorithm', () => {
  const t = useFreshApp(keysEnv('ES256'));

  /** The claims of a real token, re-signed with `key` under `header`. */
  async function resign(token: string, header: { alg: string; kid?: string }, key: Parameters<SignJWT['sign']>[0]) {
    return new SignJWT(decodeJwt(token).payload).setProtectedHeader({ typ: 'JWT', ...header }).sign(key);
  }

  it('answers 401 TOKEN_INVALID for another algorithm under the key\'s kid, an unknown kid, or no kid', async () => {
    const { token, kid } = await freshToken(t);
    const [published] = (await fetchJwks(t)).keys as [JWK];
    const foreignEc = await generateKeyPair('ES256');
    const foreignEd = await generateKeyPair('EdDSA');
    const forged = [
      // RFC 8725 §2.1: the published key as an HMAC secret.
      await resign(token, { alg: 'HS256', kid }, new TextEncoder().encode(JSON.stringify(published))),
      await resign(token, { alg: 'EdDSA', kid }, foreignEd.privateKey),
      await resign(token, { alg: 'ES256', kid }, foreignEc.privateKey),
      await resign(token, { alg: 'ES256', kid: 'not-a-known-kid' }, foreignEc.privateKey),
      await resign(token, { alg: 'ES256' }, foreignEc.privateKey),
    ];
    for (const f of forged) assertError(await me(t, f), 401, 'TOKEN_INVALID');
    assert.equal((await me(t, token)).statusCode, 200);
  });
});

describe('SVC_JWT_PRIVATE_KEY', () => {
  for (const alg of ASYMMETRIC) {
    it(`${alg}: the configured key signs, is the one key published, and nothing is stored`, async () => {
      const t = await createTestApp({ env: keysEnv(alg, { SVC_JWT_PRIVATE_KEY: privateKeyPem(alg) }) });
      try {
        await t.reset();
        const { token, kid } = await freshToken(t);
        assert.equal((await me(t, token)).statusCode, 200);
        const jwks = await fetchJwks(t);
        assert.deepEqual(kidsOf(jwks), [kid]);
        assert.equal(kid, await calculateJwkThumbprint(jwks.keys[0]!, 'sha256'));
        const stored = await t.container.db.selectFrom('signing_keys').select('kid').execute();
        assert.deepEqual(stored, []);
        const keys = await t.container.services.keys.list();
        assert.deepEqual(keys.map((k) => [k.kid, k.algorithm, k.state, k.source]), [[kid, alg, 'active', 'environment']]);
        await assert.rejects(t.container.services.keys.rotate(), /not rotated/);
      } finally {
        await t.close();
      }
    });
  }
});

describe('generated keys', () => {
  // The database outlives each app, as it outlives a restart (the last app to close would drop it).
  before(async () => { await acquireTestDatabase(); });
  after(async () => { await releaseTestDatabase(); });

  it('are stored with the private part sealed, and a restart with another algorithm rotates to it', async () => {
    const first = await startFresh(keysEnv('EdDSA'));
    const old = await freshToken(first);
    const [row] = await first.container.db.selectFrom('signing_keys').select(['kid', 'algorithm', 'private_key_sealed']).execute();
    assert.deepEqual([row?.kid, row?.algorithm], [old.kid, 'EdDSA']);
    assert.match(row!.private_key_sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.doesNotMatch(row!.private_key_sealed, /PRIVATE KEY|MC4CAQAw/);
    await first.close();

    // The same database, started again with ES256 (and the same encryption key).
    const second = await createTestApp({ env: keysEnv('ES256') });
    try {
      const fresh = await freshToken(second);
      assert.equal(fresh.alg, 'ES256');
      assert.deepEqual(kidsOf(await fetchJwks(second)), [fresh.kid, old.kid], 'the new key first, the EdDSA one still verifying');
      const meta = (await second.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
      assert.deepEqual(meta.id_token_signing_alg_values_supported, ['ES256', 'EdDSA']);
      // Presented with the application it was issued to (each test app registers its own).
      const res = await second.api({ method: 'GET', path: 'me/', token: old.token, appAuth: false, headers: first.headers });
      assert.equal(res.statusCode, 200, `a token of the previous key still verifies: ${res.body}`);
      const states = (await second.container.services.keys.list()).map((k) => [k.kid, k.state]);
      assert.deepEqual(states, [[old.kid, 'verifying'], [fresh.kid, 'active']]);
    } finally {
      await second.close();
    }
  });

  // Outside debug, start-up stops instead: test/cli/keys.test.ts.
  it('a key sealed under another SVC_ENCRYPTION_KEY is replaced in debug, its public part verifying on', async () => {
    const first = await startFresh(keysEnv('EdDSA'));
    const old = await freshToken(first);
    await first.close();
    const second = await createTestApp({ env: keysEnv('EdDSA', { SVC_ENCRYPTION_KEY: `${ENCRYPTION_KEY}-changed` }) });
    try {
      const fresh = await freshToken(second);
      assert.notEqual(fresh.kid, old.kid);
      const res = await second.api({ method: 'GET', path: 'me/', token: old.token, appAuth: false, headers: first.headers });
      assert.equal(res.statusCode, 200, `its public part still verifies its tokens: ${res.body}`);
    } finally {
      await second.close();
    }
  });
});
