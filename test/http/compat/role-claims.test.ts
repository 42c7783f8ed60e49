import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { signAccessToken } from '../../../src/security/jwt.js';
import { assignRole, createRole, grantDirect } from '../../factories/rbac.js';
import { decodeJwt, signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { expectStatus } from '../../helpers/answers.js';

const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

const claimsOf = (token: string) => decodeJwt(token).payload;
const refresh = (t: TestApp, refreshToken: string) =>
  t.api({ method: 'POST', path: 'refresh/', headers: SDK_HEADERS, payload: { refresh_token: refreshToken } });

/** `count` codes `<prefix>.000`, `<prefix>.001`…, stored in reverse order so that only sorting puts them in order. */
const codes = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}.${String(i).padStart(3, '0')}`).reverse();

/** SDK compatibility (docs/migrating-from-tenxyte.md): `hasRole`/`hasPermission` decode `roles[]` and `permissions[]` from the access token. */
for (const rotation of ['true', 'false']) {
  describe(`SDK compatibility: role and permission claims (refresh-token rotation ${rotation === 'true' ? 'on' : 'off'})`, () => {
    const t = useTestApp({ env: { SVC_REFRESH_TOKEN_ROTATION: rotation } });

    it('puts the global role codes and effective permission codes in login and refresh tokens', async () => {
      const user = await createUser(t);
      await createRole(t.container.db, 'editor', ['roles.view']);
      await assignRole(t.container.db, user.id, 'editor');
      await grantDirect(t, user.id, ['users.view']);
      const tokens = await signIn(t, user);
      const login = claimsOf(tokens.access_token);
      assert.deepEqual([login.roles, login.permissions], [['editor', 'user'], ['roles.view', 'users.view']]);
      assert.equal(login.permissions_truncated, undefined);

      await assignRole(t.container.db, user.id, 'admin');
      const refreshed = claimsOf(expectStatus(await refresh(t, tokens.refresh_token), 200).access);
      assert.deepEqual(refreshed.roles, ['admin', 'editor', 'user'], 'read again at refresh');
      assert.ok(Array.isArray(refreshed.permissions) && refreshed.permissions.includes('roles.manage'));
      if (rotation === 'true') {
        // A retired token presented again within the grace window: the same successor, and the claims again.
        const again = claimsOf(expectStatus(await refresh(t, tokens.refresh_token), 200).access);
        assert.deepEqual(again.roles, refreshed.roles);
      }
    });

    it('keeps the first 100 codes in sorted order and flags the cut with permissions_truncated and roles_truncated', async () => {
      const user = await createUser(t);
      const db = t.container.db;
      const permissions = await db.insertInto('permissions').values(codes('perm', 105).map((code) => ({ code, name: code })))
        .returning('id').execute();
      await db.insertInto('user_permissions').values(permissions.map((p) => ({ user_id: user.id, permission_id: p.id }))).execute();
      const roles = await db.insertInto('roles').values(codes('role', 101).map((code) => ({ code, name: code }))).returning('id').execute();
      await db.insertInto('user_roles').values(roles.map((r) => ({ user_id: user.id, role_id: r.id }))).execute();
      const tokens = await signIn(t, user);
      for (const token of [tokens.access_token, expectStatus(await refresh(t, tokens.refresh_token), 200).access]) {
        const claims = claimsOf(token);
        assert.deepEqual(claims.permissions, codes('perm', 100).reverse());
        assert.deepEqual(claims.roles, codes('role', 100).reverse(), 'role.000…role.099: `user` sorts after them');
        assert.equal(claims.permissions_truncated, true);
        assert.equal(claims.roles_truncated, true);
      }
    });
  });
}

/** SDK compatibility (docs/migrating-from-tenxyte.md): every access token carries the claims, for the client to read; the server never authorizes from them. */
describe('SDK compatibility: the other token issuers, and the claims authorize nothing', () => {
  const t = useTestApp();

  it('refuses a permission the token claims but the user does not hold, and allows one granted since the login', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    const forged = await signAccessToken(t.container.services.sessions.jwtKey, { sub: String(user.id), app: t.credentials.id,
      sid: tokens.session_id, scope: 'full', grants: { roles: ['admin'], permissions: ['roles.view'] } }, t.clock.now(), 900);
    assertError(await t.api({ method: 'GET', path: 'roles/', token: forged.token }), 403, 'PERMISSION_DENIED',
      { details: { missing_permissions: ['roles.view'], requires: 'all' } });
    await grantDirect(t, user.id, ['roles.view']);
    assert.deepEqual(claimsOf(tokens.access_token).permissions, []);
    expectStatus(await t.api({ method: 'GET', path: 'roles/', token: tokens.access_token }), 200);
  });

  it('gives the token of a registration with login the claims too', async () => {
    const res = await t.api({ method: 'POST', path: 'register/', headers: SDK_HEADERS,
      payload: { email: 'ann@example.com', password: 'correct horse battery staple', login: true } });
    const claims = claimsOf(expectStatus(res, 201).access_token);
    assert.deepEqual([claims.roles, claims.permissions], [['user'], []]);
  });

  it('gives the admin gate\'s 2fa_setup_only token the claims too', async () => {
    const admin = await createUser(t, { is_staff: true });
    await assignRole(t.container.db, admin.id, 'admin');
    const res = await t.api({ method: 'POST', path: 'login/email/', headers: SDK_HEADERS,
      payload: { email: admin.email, password: admin.password } });
    const body = expectStatus(res, 403);
    const claims = claimsOf(body.access_token);
    assert.equal(claims.scope, '2fa_setup_only');
    assert.deepEqual(claims.roles, ['admin', 'user']);
    assert.ok(Array.isArray(claims.permissions) && claims.permissions.includes('users.manage'));
  });
});
