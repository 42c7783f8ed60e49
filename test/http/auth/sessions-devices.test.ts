import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deviceInfo, signIn } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { createTestApp, useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError } from './assertions.js';

const CHROME_ON_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';

const loginFrom = (t: TestApp, user: TestUser, device: string) =>
  t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password, device_info: device } });
const refresh = (t: TestApp, refreshToken: string) => t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: refreshToken } });

describe('devices', () => {
  const t = useTestApp();

  const summaries: Array<[string, string | null]> = [
    ['v=1|os=macOS 14.5|device=MacBook Pro|arch=arm64|app=Acme 2.1|runtime=Electron 30|tz=Europe/Paris', 'Acme 2.1 on MacBook Pro (macOS 14.5)'],
    ['v=1|os=Windows 11|app=Acme 2.1', 'Acme 2.1 on Windows 11'],
    ['v=1|device=Pixel 8|os=Android 14', 'Pixel 8 (Android 14)'],
    ['v=1|os=Linux', 'Linux'],
    ['v=1|runtime=Node.js 20', 'Node.js 20'],
    [' v=1 | OS = Linux |device= ThinkPad X1 |future_key=whatever', 'ThinkPad X1 (Linux)'],
    ['My work laptop', 'My work laptop'],
  ];
  for (const [info, summary] of summaries) {
    it(`summarizes device_info ${JSON.stringify(info)} as ${JSON.stringify(summary)}`, async () => {
      const res = await loginFrom(t, await createUser(t), info);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().device_summary, summary);
    });
  }

  it('summarizes the User-Agent when device_info is absent', async () => {
    const user = await createUser(t);
    for (const [ua, summary] of [[CHROME_ON_MAC, 'Chrome on macOS'], [FIREFOX_ON_WINDOWS, 'Firefox on Windows']]) {
      const res = await t.api({ method: 'POST', path: 'login/email/', headers: { 'user-agent': ua! },
        payload: { email: user.email, password: user.password } });
      assert.equal(res.json().device_summary, summary);
    }
  });

  it('stores the summary and the fingerprint on the session', async () => {
    const user = await createUser(t);
    const body = (await loginFrom(t, user, deviceInfo(1))).json();
    const session = await t.container.db.selectFrom('sessions').select(['id', 'device_id', 'device_info', 'device_summary', 'user_id'])
      .executeTakeFirstOrThrow();
    assert.deepEqual(session, { id: Number(body.session_id), device_id: body.device_id, device_info: deviceInfo(1),
      device_summary: body.device_summary, user_id: user.id });
  });

  it('gives the same fingerprint the same device_id and each login its own session_id', async () => {
    const user = await createUser(t);
    const first = (await loginFrom(t, user, 'v=1|os=macOS 14.5|device=MacBook Pro|app=Acme 2.1')).json();
    const again = (await loginFrom(t, user, 'v=1|device=MacBook Pro|app=Acme 2.1|os=macOS 14.5')).json();
    assert.match(first.device_id, /^[0-9a-f]{32}$/);
    assert.equal(again.device_id, first.device_id, 'field order does not matter');
    assert.notEqual(again.session_id, first.session_id);
    const other = (await loginFrom(t, user, 'v=1|os=macOS 14.5|device=Mac mini|app=Acme 2.1')).json();
    assert.notEqual(other.device_id, first.device_id);
  });

  it('gives the same User-Agent the same device_id', async () => {
    const user = await createUser(t);
    const login = () => t.api({ method: 'POST', path: 'login/email/', headers: { 'user-agent': CHROME_ON_MAC },
      payload: { email: user.email, password: user.password } });
    assert.equal((await login()).json().device_id, (await login()).json().device_id);
  });

  it('gives the same fingerprint on two accounts two device ids', async () => {
    const one = (await loginFrom(t, await createUser(t), deviceInfo(1))).json();
    const two = (await loginFrom(t, await createUser(t), deviceInfo(1))).json();
    assert.notEqual(one.device_id, two.device_id);
  });
});

describe('device limit in the robust preset', () => {
  const t = useTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'robust' } });

  it('answers 409 DEVICE_LIMIT_EXCEEDED for a third device and still lets a known device in', async () => {
    const user = await createUser(t);
    const first = await signIn(t, user, { device_info: deviceInfo(1) });
    await signIn(t, user, { device_info: deviceInfo(2) });
    assertError(await loginFrom(t, user, deviceInfo(3)), 409, 'DEVICE_LIMIT_EXCEEDED');
    assert.equal((await t.container.db.selectFrom('sessions').select('id').execute()).length, 2, 'no session was opened');
    assert.equal((await loginFrom(t, user, deviceInfo(1))).statusCode, 200);
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: first.access_token })).statusCode, 200, 'no session was ended');
  });

  it('lets a new device in once a known one has logged out', async () => {
    const user = await createUser(t);
    const first = await signIn(t, user, { device_info: deviceInfo(1) });
    await signIn(t, user, { device_info: deviceInfo(2) });
    await t.api({ method: 'POST', path: 'logout/', token: first.access_token, payload: { refresh_token: first.refresh_token } });
    assert.equal((await loginFrom(t, user, deviceInfo(3))).statusCode, 200);
  });

  it('lets concurrent logins from new devices take no more than the free device slots', async () => {
    const user = await createUser(t);
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => loginFrom(t, user, deviceInfo(n))));
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 200, 409, 409, 409]);
  });

  it('follows a per-account max_devices', async () => {
    const user = await createUser(t, { max_devices: 1 });
    await signIn(t, user, { device_info: deviceInfo(1) });
    assertError(await loginFrom(t, user, deviceInfo(2)), 409, 'DEVICE_LIMIT_EXCEEDED');
  });
});

describe('device limit in the medium preset', () => {
  const t = useTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'medium' } });

  it('lets a sixth device in and ends every session of the oldest device', async () => {
    const user = await createUser(t);
    const oldest = [await signIn(t, user, { device_info: deviceInfo(1) })];
    const others = [];
    for (let n = 2; n <= 5; n++) others.push(await signIn(t, user, { device_info: deviceInfo(n) }));
    oldest.push(await signIn(t, user, { device_info: deviceInfo(1) }));
    const sixth = await loginFrom(t, user, deviceInfo(6));
    assert.equal(sixth.statusCode, 200, sixth.body);
    for (const s of oldest) {
      assertError(await refresh(t, s.refresh_token), 401, 'REFRESH_FAILED');
      assertError(await t.api({ method: 'GET', path: 'me/', token: s.access_token }), 401, 'TOKEN_BLACKLISTED');
    }
    for (const s of others) assert.equal((await t.api({ method: 'GET', path: 'me/', token: s.access_token })).statusCode, 200);
    const devices = await t.container.db.selectFrom('sessions').select('device_id').distinct()
      .where('revoked_at', 'is', null).execute();
    assert.equal(devices.length, 5);
  });
});

describe('session limit', () => {
  it('answers 409 SESSION_LIMIT_EXCEEDED beyond SVC_MAX_SESSIONS with the deny action', async () => {
    const t = await createTestApp({ env: { SVC_MAX_SESSIONS: '2', SVC_SESSION_LIMIT_ACTION: 'deny' } });
    try {
      await t.reset();
      const user = await createUser(t);
      const first = await signIn(t, user);
      await signIn(t, user);
      assertError(await loginFrom(t, user, deviceInfo(3)), 409, 'SESSION_LIMIT_EXCEEDED');
      assert.equal((await refresh(t, first.refresh_token)).statusCode, 200, 'no session was ended');
      await t.api({ method: 'POST', path: 'logout/', payload: { refresh_token: first.refresh_token } });
      assert.equal((await loginFrom(t, user, deviceInfo(3))).statusCode, 200, 'a freed slot can be used');
    } finally {
      await t.close();
    }
  });

  it('ends the oldest session beyond SVC_MAX_SESSIONS with the revoke_oldest action', async () => {
    const t = await createTestApp({ env: { SVC_MAX_SESSIONS: '2', SVC_SESSION_LIMIT_ACTION: 'revoke_oldest' } });
    try {
      await t.reset();
      const user = await createUser(t);
      const first = await signIn(t, user);
      const second = await signIn(t, user);
      const third = await signIn(t, user);
      assertError(await refresh(t, first.refresh_token), 401, 'REFRESH_FAILED');
      assertError(await t.api({ method: 'GET', path: 'me/', token: first.access_token }), 401, 'TOKEN_BLACKLISTED');
      for (const s of [second, third]) assert.equal((await refresh(t, s.refresh_token)).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('lets exactly one of several concurrent logins take the last session', async () => {
    const t = await createTestApp({ env: { SVC_MAX_SESSIONS: '1', SVC_SESSION_LIMIT_ACTION: 'deny' } });
    try {
      await t.reset();
      const user = await createUser(t);
      const results = await Promise.all([1, 2, 3, 4, 5].map((n) => loginFrom(t, user, deviceInfo(n))));
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409, 409, 409, 409]);
      assert.equal((await t.container.db.selectFrom('sessions').select('id').execute()).length, 1);
    } finally {
      await t.close();
    }
  });

  it('does not count expired sessions', async () => {
    const t = await createTestApp({ env: { SVC_MAX_SESSIONS: '1' } });
    try {
      await t.reset();
      const user = await createUser(t);
      const first = await signIn(t, user);
      assertError(await loginFrom(t, user, deviceInfo(2)), 409, 'SESSION_LIMIT_EXCEEDED');
      t.clock.advance(first.refresh_expires_in + 1);
      assert.equal((await loginFrom(t, user, deviceInfo(2))).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('counts the sessions a device eviction just ended as gone when both limits apply', async () => {
    const t = await createTestApp({ env: { SVC_MAX_DEVICES: '2', SVC_DEVICE_LIMIT_ACTION: 'revoke_oldest',
      SVC_MAX_SESSIONS: '2', SVC_SESSION_LIMIT_ACTION: 'deny' } });
    try {
      await t.reset();
      const user = await createUser(t);
      const first = await loginFrom(t, user, deviceInfo(1));
      assert.equal((await loginFrom(t, user, deviceInfo(2))).statusCode, 200);
      // A third device ends the first device's session; the session limit then sees one session, not two.
      const third = await loginFrom(t, user, deviceInfo(3));
      assert.equal(third.statusCode, 200, third.body);
      assertError(await refresh(t, first.json().refresh_token), 401, 'REFRESH_FAILED');
      assertError(await loginFrom(t, user, deviceInfo(3)), 409, 'SESSION_LIMIT_EXCEEDED');
    } finally {
      await t.close();
    }
  });

  it('follows a per-account max_sessions when no limit is configured', async () => {
    const t = await createTestApp();
    try {
      await t.reset();
      const user = await createUser(t, { max_sessions: 1 });
      await signIn(t, user);
      assertError(await loginFrom(t, user, deviceInfo(2)), 409, 'SESSION_LIMIT_EXCEEDED');
    } finally {
      await t.close();
    }
  });
});
