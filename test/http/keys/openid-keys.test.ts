import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, createLocalJWKSet, importJWK, jwtVerify, SignJWT } from 'jose';
import type { PrivateJwk } from '../../../src/security/signing-keys.js';
import { decodeJwt } from '../../factories/sessions.js';
import { createTestApp, useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { eventually, fetchJwks, freshToken, keysEnv, kidsOf, me, privateKeyPem } from './helpers.js';

/**
 * The OpenID Provider's keys (docs/resource-servers.md "The OpenID Provider's keys"): ID tokens are signed RS256, with
 * the access keys themselves when they are RS256, else with an RS256 set of the provider's own, kept in `signing_keys`
 * with purpose `oauth` and created only when the provider first asks for its keys.
 */

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

const oauthRows = (t: TestApp) => t.container.db.selectFrom('signing_keys')
  .select(['kid', 'algorithm', 'private_key_sealed', 'superseded_at', 'verifies_until']).where('purpose', '=', 'oauth').orderBy('id').execute();

const providerKeys = (t: TestApp) => t.container.services.keys.providerKeys();

/** An app on an empty key table: its access key created as on a first start, and no OpenID key. */
function useEmptyKeysApp(env: Record<string, string>): TestApp {
  const t = useTestApp({ env, reset: false });
  before(async () => {
    await t.reset();
    await t.container.services.keys.check();
  });
  return t;
}

/** An ID token as the provider would sign it with its first key, verified by a client with the published key set. */
async function assertSignsAndVerifies(t: TestApp, keys: PrivateJwk[]) {
  const [signer] = keys;
  const idToken = await new SignJWT({ sub: '1', aud: 'client', nonce: 'n' })
    .setProtectedHeader({ alg: signer!.alg, kid: signer!.kid, typ: 'JWT' }).setIssuer('http://127.0.0.1:8000')
    .setIssuedAt().setExpirationTime('5m').sign(await importJWK(signer!, signer!.alg));
  const { protectedHeader } = await jwtVerify(idToken, createLocalJWKSet(await fetchJwks(t)), { algorithms: ['RS256'] });
  assert.deepEqual([protectedHeader.alg, protectedHeader.kid], ['RS256', signer!.kid]);
}

describe('HS256 (the default): the OpenID Provider keeps an RS256 key set of its own', () => {
  const t = useEmptyKeysApp(keysEnv('HS256'));
  let first: string;

  it('creates nothing while nobody asks for the provider\'s keys: no oauth key, an empty JWKS', async () => {
    assert.equal((await me(t, (await freshToken(t)).token)).statusCode, 200);
    await t.container.services.keys.check();
    assert.deepEqual(await fetchJwks(t), { keys: [] });
    assert.deepEqual(await oauthRows(t), []);
    assert.equal(await t.container.services.keys.hasOpenIdKeySet(), false);
    assert.equal(await t.container.services.keys.rotateOpenId(), null, 'a rotation does not create the set');
    assert.deepEqual(await oauthRows(t), []);
    assert.deepEqual((await t.container.services.keys.list()).map((k) => [k.algorithm, k.purpose, k.source]),
      [['HS256', 'access', 'secret']]);
  });

  it('providerKeys() creates one RS256 key, sealed with purpose oauth, and the JWKS publishes its public part', async () => {
    const provided = await providerKeys(t);
    const rows = await oauthRows(t);
    assert.equal(rows.length, 1);
    first = rows[0]!.kid;
    assert.deepEqual([rows[0]!.algorithm, rows[0]!.superseded_at], ['RS256', null]);
    assert.match(rows[0]!.private_key_sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);

    assert.equal(provided.keys.length, 1, 'the HMAC secret is never part of it');
    const [jwk] = provided.keys as [PrivateJwk];
    assert.deepEqual([jwk.kid, jwk.alg, jwk.use, jwk.kty], [first, 'RS256', 'sig', 'RSA']);
    for (const member of PRIVATE_MEMBERS) assert.equal(typeof (jwk as Record<string, unknown>)[member], 'string', member);
    assert.equal(jwk.kid, await calculateJwkThumbprint(jwk, 'sha256'));

    const jwks = await fetchJwks(t);
    assert.deepEqual(kidsOf(jwks), [first]);
    assert.deepEqual(Object.keys(jwks.keys[0]!).filter((k) => PRIVATE_MEMBERS.includes(k)), []);
    await assertSignsAndVerifies(t, provided.keys);

    const again = await providerKeys(t);
    assert.equal(again.version, provided.version, 'nothing changed, the same version');
    assert.equal((await oauthRows(t)).length, 1);
    assert.equal(await t.container.services.keys.hasOpenIdKeySet(), true);
    assert.deepEqual((await t.container.services.keys.list()).map((k) => [k.kid, k.algorithm, k.purpose, k.state]),
      [[(await freshToken(t)).kid, 'HS256', 'access', 'active'], [first, 'RS256', 'oauth', 'active']]);
  });

  it('never accepts a token signed with a key of the OpenID set as a Gatehouse access token', async () => {
    const { token } = await freshToken(t);
    const [signer] = (await providerKeys(t)).keys as [PrivateJwk];
    const forged = await new SignJWT(decodeJwt(token).payload).setProtectedHeader({ alg: 'RS256', kid: signer.kid, typ: 'JWT' })
      .sign(await importJWK(signer, 'RS256'));
    assertError(await me(t, forged), 401, 'TOKEN_INVALID');
  });

  it('a rotation puts a new key first and changes the version; the superseded key verifies until verifies_until', async () => {
    const { keys } = t.container.services;
    const before = await providerKeys(t);
    await assert.rejects(keys.rotate(), /not rotated/, 'the HMAC secret itself is not rotated');
    const rotation = (await keys.rotateOpenId())!;
    assert.deepEqual([rotation.algorithm, rotation.purpose, rotation.previous?.kid], ['RS256', 'oauth', first]);
    assert.notEqual(rotation.kid, first);

    const rotated = await providerKeys(t);
    assert.notEqual(rotated.version, before.version);
    assert.deepEqual(kidsOf(rotated), [rotation.kid, first], 'the new signing key first, the superseded one after it');
    assert.deepEqual(kidsOf(await fetchJwks(t)), [rotation.kid, first]);
    await assertSignsAndVerifies(t, rotated.keys);

    const retiresAt = rotation.previous!.verifies_until;
    t.clock.set(new Date(retiresAt.getTime() - 1000));
    assert.equal((await providerKeys(t)).version, rotated.version, 'verifying until the last second');
    t.clock.set(retiresAt);
    const retired = await providerKeys(t);
    assert.deepEqual(kidsOf(retired), [rotation.kid]);
    assert.notEqual(retired.version, rotated.version, 'a retirement changes the keys, and so the version');
    assert.deepEqual(kidsOf(await fetchJwks(t)), [rotation.kid]);
    assert.deepEqual((await keys.list()).filter((k) => k.purpose === 'oauth').map((k) => [k.kid, k.state]),
      [[first, 'retired'], [rotation.kid, 'active']]);
  });
});

describe('RS256 access keys are the OpenID Provider\'s keys', () => {
  const t = useEmptyKeysApp(keysEnv('RS256'));

  it('stored: providerKeys() gives the access keys themselves, and no oauth key is created', async () => {
    const { kid } = await freshToken(t);
    const provided = await providerKeys(t);
    assert.deepEqual(kidsOf(provided), [kid]);
    assert.equal(provided.keys[0]!.alg, 'RS256');
    assert.deepEqual(await oauthRows(t), []);
    assert.equal(await t.container.services.keys.hasOpenIdKeySet(), false);
    assert.equal(await t.container.services.keys.rotateOpenId(), null);
    assert.deepEqual(kidsOf(await fetchJwks(t)), [kid], 'one key set, published once');
    await assertSignsAndVerifies(t, provided.keys);
  });

  it('an access-key rotation is the provider\'s rotation: a new version, the superseded key second', async () => {
    const before = await providerKeys(t);
    const rotation = await t.container.services.keys.rotate();
    const after = await providerKeys(t);
    assert.notEqual(after.version, before.version);
    assert.deepEqual(kidsOf(after), [rotation.kid, rotation.previous!.kid]);
    assert.deepEqual(kidsOf(await fetchJwks(t)), [rotation.kid, rotation.previous!.kid]);
    assert.equal((await freshToken(t)).kid, rotation.kid);
    assert.deepEqual(await oauthRows(t), []);
  });

  it('from SVC_JWT_PRIVATE_KEY: the configured key, and nothing stored', async () => {
    const other = await createTestApp({ env: keysEnv('RS256', { SVC_JWT_PRIVATE_KEY: privateKeyPem('RS256') }) });
    try {
      await other.reset();
      const { kid } = await freshToken(other);
      const provided = await providerKeys(other);
      assert.deepEqual(kidsOf(provided), [kid]);
      assert.equal(typeof provided.keys[0]!.d, 'string');
      assert.deepEqual(await other.container.db.selectFrom('signing_keys').select('kid').execute(), []);
    } finally {
      await other.close();
    }
  });
});

describe('with the authorization server on, every instance publishes the OpenID key set', () => {
  const t = useEmptyKeysApp(keysEnv('HS256', { SVC_OAUTH_ENABLED: 'true' }));

  it('the key set of an instance that never served OAuth holds the RS256 key the provider signs with', async () => {
    const jwks = await fetchJwks(t);
    const [signer] = (await providerKeys(t)).keys;
    assert.equal(signer!.alg, 'RS256');
    assert.deepEqual(kidsOf(jwks), [signer!.kid]);
    assert.equal((await oauthRows(t)).length, 1);
  });
});

describe('EdDSA access keys: the OpenID Provider signs RS256 and includes them', () => {
  const t = useEmptyKeysApp(keysEnv('EdDSA'));
  let access: string;

  it('a Gatehouse that never asks for the provider\'s keys stores none', async () => {
    access = (await freshToken(t)).kid;
    await t.container.services.keys.check();
    assert.deepEqual(kidsOf(await fetchJwks(t)), [access]);
    assert.deepEqual(await oauthRows(t), []);
  });

  it('providerKeys(): the RS256 key first, then the EdDSA access key; the JWKS publishes both sets', async () => {
    const provided = await providerKeys(t);
    const [oauth] = await oauthRows(t);
    assert.deepEqual(provided.keys.map((k) => [k.kid, k.alg]), [[oauth!.kid, 'RS256'], [access, 'EdDSA']]);
    assert.deepEqual(kidsOf(await fetchJwks(t)), [access, oauth!.kid]);
    await assertSignsAndVerifies(t, provided.keys);
    assert.deepEqual((await t.container.services.keys.list()).map((k) => [k.algorithm, k.purpose]),
      [['EdDSA', 'access'], ['RS256', 'oauth']]);
  });

  it('rotating either set changes the version; each set keeps its signing key before its older keys', async () => {
    const { keys } = t.container.services;
    const start = await providerKeys(t);
    const [oauth] = await oauthRows(t);
    const accessRotation = await keys.rotate();
    const afterAccess = await providerKeys(t);
    assert.notEqual(afterAccess.version, start.version);
    assert.deepEqual(kidsOf(afterAccess), [oauth!.kid, accessRotation.kid, access]);

    const openIdRotation = (await keys.rotateOpenId())!;
    const afterBoth = await providerKeys(t);
    assert.notEqual(afterBoth.version, afterAccess.version);
    assert.deepEqual(kidsOf(afterBoth), [openIdRotation.kid, oauth!.kid, accessRotation.kid, access]);
    assert.deepEqual(kidsOf(await fetchJwks(t)), [accessRotation.kid, access, openIdRotation.kid, oauth!.kid]);
    // The old access key still verifies the tokens it signed.
    assert.equal((await freshToken(t)).kid, accessRotation.kid);
  });
});

/** Two instances on one database, as in instances.test.ts (one Redis key prefix when TEST_REDIS_URL is set). */
describe('several instances share the OpenID Provider\'s keys', () => {
  let a: TestApp;
  let b: TestApp;
  const env = keysEnv('HS256', { SVC_REDIS_KEY_PREFIX: `test:${process.pid}:${randomBytes(4).toString('hex')}:` });

  before(async () => {
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
    await a.reset();
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('two instances asking at once create one key and give the same keys', async () => {
    const [fromA, fromB] = await Promise.all([providerKeys(a), providerKeys(b)]);
    assert.equal((await oauthRows(a)).length, 1);
    assert.deepEqual(kidsOf(fromA), kidsOf(fromB));
    assert.equal(fromA.version, fromB.version);
    assert.deepEqual(await fetchJwks(a), await fetchJwks(b));
  });

  it('a rotation on one instance reaches the other: the same keys and version, the new key published', async () => {
    const rotation = (await a.container.services.keys.rotateOpenId())!;
    const expected = await providerKeys(a);
    assert.equal(expected.keys[0]!.kid, rotation.kid);
    if (process.env.TEST_DATABASE_URL) {
      // Heard over PostgreSQL's NOTIFY (or Redis): the watch started when b first loaded the set, under HS256 too.
      await eventually('instance b seeing the rotation', async () => (await providerKeys(b)).version === expected.version, 1000);
    } else {
      // The embedded database tells no other instance (see instances.test.ts): b's next check of the keys sees it.
      await b.container.services.keys.check();
    }
    assert.deepEqual(kidsOf(await providerKeys(b)), kidsOf(expected));
    assert.equal((await providerKeys(b)).version, expected.version);
    assert.deepEqual(kidsOf(await fetchJwks(b)), [rotation.kid, rotation.previous!.kid]);
  });
});
