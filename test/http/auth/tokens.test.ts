import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJwt, signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';

describe('access token claims', () => {
  const t = useTestApp({ now: new Date('2030-05-06T07:08:09.500Z') });

  it('is an HS256 JWT carrying exactly the documented claims (docs/authentication.md "Tokens") and no personal data', async () => {
    const user = await createUser(t, { email: 'ann@example.com', first_name: 'Ann', phone: '+14155552671' });
    const tokens = await signIn(t, user);
    const { header, payload } = decodeJwt(tokens.access_token);
    // see: issue 19 — every token names its key; with HS256 the kid is a stable hash of the secret.
    assert.deepEqual(header, { alg: 'HS256', kid: t.container.services.sessions.jwtKey.kid, typ: 'JWT' });
    assert.deepEqual(Object.keys(payload).sort(),
      ['app', 'auth_time', 'exp', 'iat', 'iss', 'jti', 'nbf', 'permissions', 'roles', 'scope', 'sid', 'sub', 'typ']);
    const iat = Math.floor(t.clock.now().getTime() / 1000);
    assert.equal(payload.iss, 'gatehouse');
    assert.equal(payload.sub, String(user.id));
    assert.equal(payload.app, t.credentials.id);
    assert.equal(payload.sid, tokens.session_id);
    assert.match(String(payload.jti), /^[0-9a-f-]{36}$/);
    assert.equal(payload.iat, iat);
    assert.equal(payload.nbf, iat);
    assert.equal(payload.auth_time, iat, 'signed in just now');
    assert.equal(payload.exp, iat + 3600);
    assert.equal(payload.typ, 'access');
    assert.equal(payload.scope, 'full');
    const text = Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString();
    for (const personal of ['ann@example.com', 'Ann', '4155552671']) assert.ok(!text.includes(personal), personal);
  });

  it('gives every token its own jti', async () => {
    const user = await createUser(t);
    const first = decodeJwt((await signIn(t, user)).access_token).payload;
    const second = decodeJwt((await signIn(t, user)).access_token).payload;
    assert.notEqual(first.jti, second.jti);
    assert.notEqual(first.sid, second.sid);
  });

  it('names the configured issuer', async () => {
    const other = await createTestApp({ env: { SVC_JWT_ISSUER: 'https://id.example.com' } });
    try {
      await other.reset();
      const tokens = await signIn(other, await createUser(other));
      assert.equal(decodeJwt(tokens.access_token).payload.iss, 'https://id.example.com');
    } finally {
      await other.close();
    }
  });
});

describe('access token lifetime per preset', () => {
  for (const [preset, lifetime] of [['development', 3600], ['medium', 900], ['robust', 300]] as const) {
    it(`is ${lifetime} s in the ${preset} preset, at login and at refresh`, async () => {
      const t = await createTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: preset } });
      try {
        await t.reset();
        const tokens = await signIn(t, await createUser(t));
        assert.equal(tokens.expires_in, lifetime);
        const { payload } = decodeJwt(tokens.access_token);
        assert.equal(Number(payload.exp) - Number(payload.iat), lifetime);
        const refreshed = await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: tokens.refresh_token } });
        assert.equal(refreshed.statusCode, 200, refreshed.body);
        assert.equal(refreshed.json().expires_in, lifetime);
        const again = decodeJwt(refreshed.json().access_token).payload;
        assert.equal(Number(again.exp) - Number(again.iat), lifetime);
      } finally {
        await t.close();
      }
    });
  }

  it('follows SVC_JWT_ACCESS_TOKEN_LIFETIME over the preset', async () => {
    const t = await createTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'robust', SVC_JWT_ACCESS_TOKEN_LIFETIME: '120' } });
    try {
      await t.reset();
      const tokens = await signIn(t, await createUser(t));
      assert.equal(tokens.expires_in, 120);
      const { payload } = decodeJwt(tokens.access_token);
      assert.equal(Number(payload.exp) - Number(payload.iat), 120);
    } finally {
      await t.close();
    }
  });
});
