import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { signAccessToken } from '../../../src/security/jwt.js';
import { decodeJwt, deviceInfo, signIn } from '../../factories/sessions.js';
import { signInAdmin } from '../../factories/twofactor.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { authenticator, PASSKEY_ENV, register, signInWithPasskey } from '../passkeys/helpers.js';
import { lastMagicToken, loginCodeFor, MAGIC_LINK_ON, OTP_LOGIN_ON, requestMagicLink, verifyLoginCode,
  verifyMagicLink } from '../passwordless/helpers.js';
import { expectStatus } from '../../helpers/answers.js';
import { assertError } from './assertions.js';

/** The `auth_time` claim of an access token. */
const authTimeOf = (token: string) => decodeJwt(token).payload.auth_time;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * docs/authentication.md "Tokens" and docs/security.md "Recent authentication": every sign-in method puts the time of
 * its proof in `auth_time`, the session keeps it, and a refresh never moves it.
 */
describe('the auth_time claim', () => {
  const t = useTestApp({ env: { ...OTP_LOGIN_ON, ...MAGIC_LINK_ON, ...PASSKEY_ENV, SVC_REFRESH_TOKEN_ROTATION: 'true' } });
  let ann: TestUser;
  beforeEach(async () => {
    ann = await createUser(t, { email: 'ann@example.com', phone: '+33612345678' });
  });

  const refresh = async (refreshToken: string) =>
    expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: refreshToken } }), 200) as
      { access_token: string; refresh_token: string };
  const sessionAuthTime = async (sessionId: string | number) => (await t.container.db.selectFrom('sessions').select('auth_time')
    .where('id', '=', Number(sessionId)).executeTakeFirstOrThrow()).auth_time;

  it('a password login puts the time of the login in the token and on its session', async () => {
    const at = t.clock.now();
    const body = await signIn(t, ann);
    assert.equal(authTimeOf(body.access_token), seconds(at));
    assert.equal((await sessionAuthTime(body.session_id))?.getTime(), at.getTime());
  });

  it('so does a login that takes the transaction path (a device limit ends the oldest device)', async () => {
    const limited = await createUser(t, { email: 'lim@example.com', max_devices: 1 });
    await signIn(t, limited, { device_info: deviceInfo(1) });
    t.clock.advance(60);
    const at = t.clock.now();
    const second = await signIn(t, limited, { device_info: deviceInfo(2) });
    assert.equal(authTimeOf(second.access_token), seconds(at));
    assert.equal((await sessionAuthTime(second.session_id))?.getTime(), at.getTime());
  });

  it('registration with login, a phone login code, a magic link and a passkey each carry their own time', async () => {
    const registered = expectStatus(await t.api({ method: 'POST', path: 'register/',
      payload: { email: 'new@example.com', password: 'correct horse battery staple', login: true } }), 201);
    assert.equal(authTimeOf(registered.access_token), seconds(t.clock.now()));

    t.clock.advance(30);
    const code = await loginCodeFor(t, ann.phone!);
    const byCode = expectStatus(await verifyLoginCode(t, ann.phone!, code), 200);
    assert.equal(authTimeOf(byCode.access_token), seconds(t.clock.now()));

    t.clock.advance(30);
    expectStatus(await requestMagicLink(t, { email: ann.email, validation_url: 'http://localhost:3000/callback' }), 200);
    const byLink = expectStatus(await verifyMagicLink(t, { token: await lastMagicToken(t, ann.email!) }), 200);
    assert.equal(authTimeOf(byLink.access_token), seconds(t.clock.now()));

    const authn = authenticator();
    expectStatus((await register(t, byLink.access_token, authn)).res, 201);
    t.clock.advance(30);
    const byPasskey = expectStatus((await signInWithPasskey(t, authn, { email: ann.email! })).res, 200);
    assert.equal(authTimeOf(byPasskey.access_token), seconds(t.clock.now()));
  });

  it('the administrator\'s 2fa_setup_only token and the pair after a forced password change carry it too', async () => {
    const admin = await createUser(t, { email: 'admin@example.com', is_staff: true });
    const gate = await t.api({ method: 'POST', path: 'login/email/', payload: { email: admin.email, password: admin.password } });
    assertError(gate, 403, 'ADMIN_2FA_SETUP_REQUIRED', { access_token: undefined, token_type: 'Bearer', expires_in: 900,
      token_scope: '2fa_setup_only' });
    assert.equal(authTimeOf(gate.json().access_token), seconds(t.clock.now()));

    const flagged = await createUser(t, { email: 'flagged@example.com', password: 'temporary pass phrase', must_change_password: true });
    const restricted = await signIn(t, flagged);
    t.clock.advance(120);
    const changed = expectStatus(await t.api({ method: 'POST', path: 'password/change/', token: restricted.access_token,
      payload: { current_password: flagged.password, new_password: 'a brand new pass phrase' } }), 200);
    assert.equal(authTimeOf(changed.access_token), seconds(t.clock.now()), 'the password change proved the password again');
  });

  it('a refresh keeps the session\'s auth_time: rotation, the reuse grace window, and an admin\'s refresh alike', async () => {
    const signedIn = t.clock.now();
    const first = await signIn(t, ann);
    t.clock.advance(2000);
    const second = await refresh(first.refresh_token);
    assert.ok(Number(decodeJwt(second.access_token).payload.iat) > seconds(signedIn), 'a new access token');
    assert.equal(authTimeOf(second.access_token), seconds(signedIn));
    // Within the grace window the retired token answers the same successor, with the same auth_time.
    const again = await refresh(first.refresh_token);
    assert.equal(authTimeOf(again.access_token), seconds(signedIn));
    t.clock.advance(2000);
    assert.equal(authTimeOf((await refresh(second.refresh_token)).access_token), seconds(signedIn));

    const admin = await createUser(t, { email: 'root@example.com', is_superuser: true });
    const adminAt = t.clock.now();
    const adminPair = await signInAdmin(t, admin);
    t.clock.advance(5000);
    assert.equal(authTimeOf((await refresh(adminPair.refresh_token)).access_token), seconds(adminAt));
  });

  it('a session opened before sessions kept auth_time refreshes into a token without the claim, which is never recent', async () => {
    const pair = await signIn(t, ann);
    await t.container.db.updateTable('sessions').set({ auth_time: null }).where('id', '=', Number(pair.session_id)).execute();
    const refreshed = await refresh(pair.refresh_token);
    assert.equal(authTimeOf(refreshed.access_token), undefined);
    assertError(await t.api({ method: 'POST', path: 'ai/tokens/', token: refreshed.access_token, payload: { agent_id: 'bot' } }),
      403, 'REAUTHENTICATION_REQUIRED');
  });

  it('an access token signed without auth_time (issued before the claim) is accepted, but not as a recent sign-in', async () => {
    const pair = await signIn(t, ann);
    const legacy = await signAccessToken(t.container.services.sessions.jwtKey, { sub: String(ann.id), app: t.credentials.id,
      sid: pair.session_id, scope: 'full' }, t.clock.now(), 900);
    assert.equal(authTimeOf(legacy.token), undefined);
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: legacy.token })).statusCode, 200);
    assertError(await t.api({ method: 'POST', path: 'ai/tokens/', token: legacy.token, payload: { agent_id: 'bot' } }),
      403, 'REAUTHENTICATION_REQUIRED');
    // The same request with the password goes through.
    expectStatus(await t.api({ method: 'POST', path: 'ai/tokens/', token: legacy.token,
      payload: { agent_id: 'bot', password: ann.password } }), 201);
  });
});
