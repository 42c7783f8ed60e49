import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { hmacKey, signAccessToken, verifyAccessToken } from './jwt.js';

const SECRET = 'a-signing-secret-of-at-least-thirty-two-bytes';

describe('access tokens', () => {
  const key = hmacKey(SECRET, 'gatehouse');
  const now = new Date('2026-01-02T03:04:05Z');

  it('are standard HS256 JWTs any library verifies, with the claim set of docs/resource-servers.md', async () => {
    const { token, jti, expiresAt } = await signAccessToken(key, { sub: '12', app: 3, sid: '45', scope: 'full' }, now, 900);
    assert.deepEqual(decodeProtectedHeader(token), { alg: 'HS256', kid: key.kid, typ: 'JWT' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET), { algorithms: ['HS256'], issuer: 'gatehouse', currentDate: now });
    const iat = now.getTime() / 1000;
    assert.deepEqual(payload, { app: 3, sid: '45', scope: 'full', typ: 'access', iss: 'gatehouse', sub: '12', jti, iat, nbf: iat, exp: iat + 900 });
    assert.equal(expiresAt.getTime(), (iat + 900) * 1000);
  });

  it('verify with the same key and fail with another secret, once expired, or altered', async () => {
    const { token } = await signAccessToken(key, { sub: '12', app: null, sid: '45', scope: 'password_change_only' }, now, 60);
    const ok = await verifyAccessToken(key, token, now);
    assert.ok(ok.ok && ok.claims.scope === 'password_change_only' && ok.claims.app === null);
    assert.deepEqual(await verifyAccessToken(hmacKey(`${SECRET}!`, 'gatehouse'), token, now), { ok: false, reason: 'invalid' });
    assert.deepEqual(await verifyAccessToken(key, token, new Date(now.getTime() + 61_000)), { ok: false, reason: 'expired' });
    const [h, p, s] = token.split('.');
    const altered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: '13' })).toString('base64url')}.${s}`;
    assert.deepEqual(await verifyAccessToken(key, altered, now), { ok: false, reason: 'invalid' });
  });

  it('carry auth_time in whole seconds when given; verify answers it, and null for a token without one or a malformed one', async () => {
    const signedIn = new Date(now.getTime() - 1234_567);
    const { token } = await signAccessToken(key, { sub: '12', app: null, sid: '45', scope: 'full', authTime: signedIn }, now, 60);
    const verified = await verifyAccessToken(key, token, now);
    assert.ok(verified.ok && verified.claims.auth_time === Math.floor(signedIn.getTime() / 1000));
    const bare = await verifyAccessToken(key, (await signAccessToken(key, { sub: '12', app: null, sid: '45', scope: 'full' }, now, 60)).token, now);
    assert.ok(bare.ok && bare.claims.auth_time === null);
    const odd = await new SignJWT({ app: null, sid: '45', scope: 'full', typ: 'access', auth_time: '1700000000' })
      .setProtectedHeader({ alg: 'HS256', kid: key.kid }).setIssuer('gatehouse').setSubject('12').setJti('j').setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 60_000)).sign(key.secret);
    const malformed = await verifyAccessToken(key, odd, now);
    assert.ok(malformed.ok && malformed.claims.auth_time === null);
  });

  it('get a fresh jti each time', async () => {
    const a = await signAccessToken(key, { sub: '1', app: null, sid: '1', scope: 'full' }, now, 60);
    const b = await signAccessToken(key, { sub: '1', app: null, sid: '1', scope: 'full' }, now, 60);
    assert.notEqual(a.jti, b.jti);
    assert.notEqual(a.token, b.token);
  });
});
