import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createRemoteJWKSet, errors, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { RETIREMENT_MARGIN_SECONDS } from '../../../src/modules/keys/keys.service.js';
import { signAccessToken } from '../../../src/security/jwt.js';
import { freePort } from '../../helpers/cli.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { freshToken, keysEnv, kidsOf, me } from './helpers.js';

const LIFETIME = 900;

/**
 * A resource server in the manner of docs/resource-servers.md: discovery over HTTP on a real socket, then jose's
 * createRemoteJWKSet on the advertised jwks_uri, checking issuer, algorithm, `typ` and `scope`. Its clock is
 * Gatehouse's test clock, so that moving that clock expires tokens for both.
 */
async function resourceServer(origin: string, clock: () => Date, opts: { cooldownDuration?: number } = {}) {
  const discovery = await (await fetch(`${origin}/.well-known/openid-configuration`)).json() as {
    issuer: string; jwks_uri: string; id_token_signing_alg_values_supported: string[];
  };
  const jwks: JWTVerifyGetKey = createRemoteJWKSet(new URL(discovery.jwks_uri), opts);
  return {
    discovery,
    async verify(token: string, at = clock()) {
      const { payload, protectedHeader } = await jwtVerify(token, jwks, {
        issuer: discovery.issuer, algorithms: discovery.id_token_signing_alg_values_supported, currentDate: at,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      });
      assert.equal(payload.typ, 'access');
      assert.equal(payload.scope, 'full');
      return { payload, kid: protectedHeader.kid };
    },
  };
}

const publishedKeys = async (origin: string) => (await fetch(`${origin}/.well-known/jwks.json`)).json() as Promise<{ keys: JWK[] }>;

describe('a resource server verifies access tokens with createRemoteJWKSet across a rotation', () => {
  let port: number;
  let origin: string;
  before(async () => {
    port = await freePort();
    origin = `http://127.0.0.1:${port}`;
  });
  const t = useTestApp(() => ({
    env: keysEnv('EdDSA', { SVC_PUBLIC_URL: origin, SVC_JWT_ACCESS_TOKEN_LIFETIME: String(LIFETIME) }), reset: false,
  }));
  before(async () => {
    await t.reset();
    await t.container.services.keys.check();
    await t.app.listen({ host: '127.0.0.1', port });
  });

  it('old tokens verify until their key retires, new ones carry the new kid, and a retired key is gone and refused', async () => {
    const now = () => t.clock.now();
    // jose refetches the set for an unknown kid, but not within `cooldownDuration` (30 s) of its last fetch: a resource
    // server that fetched just before a rotation meets the new kid up to 30 s later. The test compresses that wait.
    const rs = await resourceServer(origin, now, { cooldownDuration: 0 });
    assert.equal(rs.discovery.issuer, origin);
    assert.equal(rs.discovery.jwks_uri, `${origin}/.well-known/jwks.json`);

    const before = await freshToken(t);
    const checked = await rs.verify(before.token);
    assert.deepEqual([checked.kid, checked.payload.sub, checked.payload.app], [before.kid, String(before.user.id), t.credentials.id]);
    // A token of the old key that outlives it (only the key's holder can sign one): refused once the key retires.
    const longLived = await signAccessToken(await t.container.services.keys.signingKey(),
      { sub: String(before.user.id), app: t.credentials.id, sid: String(before.payload.sid), scope: 'full' }, now(), 10 * LIFETIME);
    assert.equal((await me(t, longLived.token)).statusCode, 200);

    const rotation = await t.container.services.keys.rotate();
    assert.notEqual(rotation.kid, before.kid);
    assert.equal(rotation.previous?.kid, before.kid);
    const retiresAt = rotation.previous!.verifies_until;
    assert.equal(retiresAt.getTime(), now().getTime() + (LIFETIME + RETIREMENT_MARGIN_SECONDS) * 1000);

    const after = await freshToken(t);
    assert.equal(after.kid, rotation.kid, 'tokens signed from now on carry the new kid');
    assert.equal((await rs.verify(after.token)).kid, rotation.kid);
    assert.equal((await rs.verify(before.token)).kid, before.kid, 'the old key still verifies');
    assert.deepEqual(kidsOf(await publishedKeys(origin)), [rotation.kid, before.kid]);
    assert.equal((await me(t, before.token)).statusCode, 200);
    assert.deepEqual((await t.container.services.keys.list()).map((k) => k.state), ['verifying', 'active']);

    t.clock.set(new Date(retiresAt.getTime() - 1000));
    assert.deepEqual(kidsOf(await publishedKeys(origin)), [rotation.kid, before.kid]);
    assert.equal((await me(t, longLived.token)).statusCode, 200, 'verifying until the last second');

    t.clock.set(retiresAt);
    assert.deepEqual(kidsOf(await publishedKeys(origin)), [rotation.kid], 'retired: not published');
    assertError(await me(t, longLived.token), 401, 'TOKEN_INVALID');
    assertError(await me(t, before.token), 401, 'TOKEN_EXPIRED');
    assert.deepEqual((await t.container.services.keys.list()).map((k) => k.state), ['retired', 'active']);
    // A resource server starting now finds no key for the old kid, even at a time the token was valid.
    const later = await resourceServer(origin, now);
    await assert.rejects(later.verify(before.token, new Date(Number(before.payload.iat) * 1000)), errors.JWKSNoMatchingKey);
    const current = await freshToken(t);
    assert.equal((await later.verify(current.token)).kid, rotation.kid);
  });
});
