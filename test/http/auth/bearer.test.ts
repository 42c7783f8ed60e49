import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { createApplication } from '../../factories/applications.js';
import { decodeJwt, signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from './assertions.js';

const me = (t: TestApp, headers: Record<string, string>) => t.api({ method: 'GET', path: 'me/', headers });

/** A token with `claims` (defaults: those of `base`), signed by hand. */
async function craft(base: string, secret: string, { alg = 'HS256', claims = {} }: { alg?: string; claims?: Record<string, unknown> } = {}) {
  const payload = { ...decodeJwt(base).payload, ...claims };
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('bearer authentication', () => {
  const t = useTestApp();
  let secret: string;
  before(() => { secret = t.container.config.JWT_SECRET_KEY!; });

  async function session() {
    const user = await createUser(t);
    return { user, tokens: await signIn(t, user) };
  }

  it('accepts a valid access token', async () => {
    const { user, tokens } = await session();
    const res = await t.api({ method: 'GET', path: 'me/', token: tokens.access_token });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().id, user.id);
  });

  it('accepts the Bearer scheme in any case', async () => {
    const { tokens } = await session();
    assert.equal((await me(t, { authorization: `bearer ${tokens.access_token}` })).statusCode, 200);
    assert.equal((await me(t, { authorization: `BEARER ${tokens.access_token}` })).statusCode, 200);
  });

  it('answers 401 UNAUTHORIZED without an Authorization header', async () => {
    assertError(await me(t, {}), 401, 'UNAUTHORIZED');
  });

  it('answers 401 TOKEN_INVALID for a token whose payload was changed', async () => {
    const { tokens } = await session();
    const other = await createUser(t);
    const [header, , signature] = tokens.access_token.split('.');
    const forged = `${header}.${b64({ ...decodeJwt(tokens.access_token).payload, sub: String(other.id) })}.${signature}`;
    assertError(await me(t, { authorization: `Bearer ${forged}` }), 401, 'TOKEN_INVALID');
  });

  it('answers 401 TOKEN_INVALID for a token whose signature was changed', async () => {
    const { tokens } = await session();
    const [header, payload, signature] = tokens.access_token.split('.');
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    assertError(await me(t, { authorization: `Bearer ${header}.${payload}.${flipped}` }), 401, 'TOKEN_INVALID');
  });

  it('answers 401 TOKEN_INVALID for an unsigned alg none token', async () => {
    const { tokens } = await session();
    const payload = decodeJwt(tokens.access_token).payload;
    for (const alg of ['none', 'None', 'NONE']) {
      const unsigned = `${b64({ alg, typ: 'JWT' })}.${b64(payload)}.`;
      assertError(await me(t, { authorization: `Bearer ${unsigned}` }), 401, 'TOKEN_INVALID');
    }
  });

  it('answers 401 TOKEN_INVALID for a token signed with another secret', async () => {
    const { tokens } = await session();
    const foreign = await craft(tokens.access_token, 'another-secret-that-is-also-at-least-32-bytes');
    assertError(await me(t, { authorization: `Bearer ${foreign}` }), 401, 'TOKEN_INVALID');
  });

  it('answers 401 TOKEN_INVALID for a token signed with the right secret under another algorithm', async () => {
    const { tokens } = await session();
    for (const alg of ['HS384', 'HS512']) {
      const other = await craft(tokens.access_token, secret, { alg });
      assertError(await me(t, { authorization: `Bearer ${other}` }), 401, 'TOKEN_INVALID');
    }
  });

  it('answers 401 TOKEN_INVALID for a correctly signed token that is not an access token of this issuer', async () => {
    const { tokens } = await session();
    const control = await craft(tokens.access_token, secret);
    assert.equal((await me(t, { authorization: `Bearer ${control}` })).statusCode, 200, 'a hand-signed copy is accepted');
    const wrong = [{ typ: 'refresh' }, { typ: undefined }, { iss: 'someone-else' }, { scope: 'admin' }, { sub: 'ann@example.com' },
      { sid: 1 }, { sid: 'abc' }, { sid: '99999999999999999999' }, { sub: '99999999999999999999' }, { app: '1' }, { jti: undefined }, { jti: 42 }];
    for (const claims of wrong) {
      const token = await craft(tokens.access_token, secret, { claims });
      assertError(await me(t, { authorization: `Bearer ${token}` }), 401, 'TOKEN_INVALID');
    }
  });

  it('answers 401 TOKEN_INVALID for garbage', async () => {
    const values = ['Bearer garbage', 'Bearer a.b.c', 'Bearer ', 'Bearer', 'Bearer two tokens', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(5000)}`];
    for (const value of values) {
      assertError(await me(t, { authorization: value }), 401, 'TOKEN_INVALID');
    }
  });

  it('answers 401 TOKEN_INVALID for a refresh token used as a bearer token', async () => {
    const { tokens } = await session();
    assertError(await me(t, { authorization: `Bearer ${tokens.refresh_token}` }), 401, 'TOKEN_INVALID');
  });

  it('answers 401 TOKEN_EXPIRED once the clock passes exp', async () => {
    const { tokens } = await session();
    t.clock.advance(tokens.expires_in - 1);
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: tokens.access_token })).statusCode, 200);
    t.clock.advance(2);
    assertError(await t.api({ method: 'GET', path: 'me/', token: tokens.access_token }), 401, 'TOKEN_EXPIRED');
  });

  it('answers 401 TOKEN_INVALID for a token not yet valid', async () => {
    const { tokens } = await session();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const future = await craft(tokens.access_token, secret, { claims: { nbf: now + 600, iat: now + 600, exp: now + 1200 } });
    assertError(await me(t, { authorization: `Bearer ${future}` }), 401, 'TOKEN_INVALID');
  });

  it('answers 401 TOKEN_APP_MISMATCH for a token presented with another application\'s credentials', async () => {
    const { tokens } = await session();
    const other = await createApplication(t);
    assertError(await t.api({ method: 'GET', path: 'me/', appAuth: false, token: tokens.access_token, headers: other.headers }),
      401, 'TOKEN_APP_MISMATCH');
  });

  it('answers 401 TOKEN_BLACKLISTED once the account is deactivated or banned', async () => {
    for (const state of [{ is_active: false }, { is_banned: true }]) {
      const { user, tokens } = await session();
      await t.container.db.updateTable('users').set(state).where('id', '=', user.id).execute();
      assertError(await t.api({ method: 'GET', path: 'me/', token: tokens.access_token }), 401, 'TOKEN_BLACKLISTED');
    }
  });

  it('answers 401 TOKEN_INVALID, not a 500, when the account no longer exists', async () => {
    const { user, tokens } = await session();
    await t.container.db.deleteFrom('users').where('id', '=', user.id).execute();
    assertError(await t.api({ method: 'GET', path: 'me/', token: tokens.access_token }), 401, 'TOKEN_INVALID');
  });
});
