import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApplication } from '../../factories/applications.js';
import { decodeJwt, deviceInfo, signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { createTestApp, useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError, REFRESH_RESPONSE_FIELDS } from './assertions.js';

const refresh = (t: TestApp, refreshToken: string | undefined, headers?: Record<string, string>) =>
  t.api({ method: 'POST', path: 'refresh/', payload: refreshToken === undefined ? {} : { refresh_token: refreshToken },
    ...(headers ? { appAuth: false, headers } : {}) });

const MISSING = { error: 'refresh_token is required', code: 'MISSING_REFRESH_TOKEN' };
const FAILED = { error: 'Refresh token is invalid, expired or revoked', code: 'REFRESH_FAILED' };

describe('POST refresh/ without rotation (development preset)', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });

  it('answers 400 MISSING_REFRESH_TOKEN for an absent, empty or body-less request', async () => {
    for (const res of [
      await refresh(t, undefined),
      await refresh(t, ''),
      await t.api({ method: 'POST', path: 'refresh/' }),
      await t.api({ method: 'POST', path: 'refresh/', headers: { 'content-type': 'application/json' }, payload: '' }),
    ]) {
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), MISSING);
    }
  });

  it('answers 401 REFRESH_FAILED for an unknown token', async () => {
    for (const token of ['unknown', 'x'.repeat(43), 'not-base64url!*']) {
      const res = await refresh(t, token);
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), FAILED);
    }
  });

  it('answers {access_token, refresh_token, token_type, expires_in, refresh_expires_in, must_change_password}, the same refresh token', async () => {
    const tokens = await signIn(t, await createUser(t));
    t.clock.advance(100);
    const res = await refresh(t, tokens.refresh_token);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), REFRESH_RESPONSE_FIELDS);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.refresh_token, tokens.refresh_token);
    assert.equal(body.refresh_expires_in, tokens.refresh_expires_in - 100);
    assert.equal(body.must_change_password, false);
    assert.notEqual(body.access_token, tokens.access_token);
    const claims = decodeJwt(body.access_token).payload;
    assert.equal(claims.sid, tokens.session_id);
    assert.equal(claims.scope, 'full');
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: body.access_token })).statusCode, 200);
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200, 'the token keeps working');
  });

  it('records a token_refresh audit event', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    await refresh(t, tokens.refresh_token);
    const event = await t.container.db.selectFrom('audit_events').select(['user_id', 'application_id', 'details'])
      .where('event_type', '=', 'token_refresh').executeTakeFirstOrThrow();
    assert.equal(event.user_id, user.id);
    assert.equal(event.application_id, t.credentials.id);
  });

  it('answers 401 REFRESH_FAILED once the refresh token has expired', async () => {
    const tokens = await signIn(t, await createUser(t));
    t.clock.advance(tokens.refresh_expires_in - 1);
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200);
    t.clock.advance(2);
    assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
  });

  for (const [state, values] of [
    ['inactive', { is_active: false }],
    ['banned', { is_banned: true }],
    ['locked', { locked_until: new Date('2999-01-01T00:00:00Z') }],
    ['deleted', { deleted_at: new Date('2020-01-01T00:00:00Z') }],
  ] as const) {
    it(`answers 401 REFRESH_FAILED for a ${state} account`, async () => {
      const user = await createUser(t);
      const tokens = await signIn(t, user);
      await t.container.db.updateTable('users').set(values).where('id', '=', user.id).execute();
      const res = await refresh(t, tokens.refresh_token);
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), FAILED);
    });
  }

  it('answers 401 REFRESH_FAILED once the account row is gone', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    await t.container.db.deleteFrom('users').where('id', '=', user.id).execute();
    assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
  });

  it('refreshes again once a lock has run out', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    await t.container.db.updateTable('users').set({ locked_until: new Date(t.clock.now().getTime() + 60_000) })
      .where('id', '=', user.id).execute();
    assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
    t.clock.advance(61);
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200);
  });

  it('answers 401 REFRESH_FAILED for a refresh token of another application', async () => {
    const tokens = await signIn(t, await createUser(t));
    const other = await createApplication(t);
    assert.deepEqual((await refresh(t, tokens.refresh_token, other.headers)).json(), FAILED);
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200, 'its own application still refreshes it');
  });

  it('keeps the password_change_only scope while the account must change its password, and gives full scope once cleared', async () => {
    const user = await createUser(t, { must_change_password: true });
    const tokens = await signIn(t, user);
    assert.equal(tokens.token_scope, 'password_change_only');
    const restricted = await refresh(t, tokens.refresh_token);
    assert.equal(restricted.statusCode, 200, restricted.body);
    assert.deepEqual(Object.keys(restricted.json()).sort(), [...REFRESH_RESPONSE_FIELDS, 'token_scope'].sort());
    assert.equal(restricted.json().token_scope, 'password_change_only');
    assert.equal(restricted.json().must_change_password, true);
    assert.equal(decodeJwt(restricted.json().access_token).payload.scope, 'password_change_only');
    assertError(await t.api({ method: 'GET', path: 'me/', token: restricted.json().access_token }), 403, 'INSUFFICIENT_SCOPE');

    await t.container.db.updateTable('users').set({ must_change_password: false }).where('id', '=', user.id).execute();
    const full = await refresh(t, tokens.refresh_token);
    assert.deepEqual(Object.keys(full.json()).sort(), REFRESH_RESPONSE_FIELDS);
    assert.equal(full.json().must_change_password, false);
    assert.equal(decodeJwt(full.json().access_token).payload.scope, 'full');
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: full.json().access_token })).statusCode, 200);
  });

  it('answers 400 on refresh_token when it is not a string', async () => {
    const res = await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: 42 } });
    assert.equal(res.statusCode, 400);
    assert.ok(res.json().details.refresh_token);
  });
});

describe('POST refresh/ with rotation', () => {
  const t = useTestApp({ env: { SVC_REFRESH_TOKEN_ROTATION: 'true' } });

  it('answers a new refresh token that refreshes in turn', async () => {
    const tokens = await signIn(t, await createUser(t));
    const first = await refresh(t, tokens.refresh_token);
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(Object.keys(first.json()).sort(), REFRESH_RESPONSE_FIELDS);
    assert.notEqual(first.json().refresh_token, tokens.refresh_token);
    assert.equal(first.json().refresh_expires_in, t.container.config.JWT_REFRESH_TOKEN_LIFETIME);
    const second = await refresh(t, first.json().refresh_token);
    assert.equal(second.statusCode, 200, second.body);
    assert.notEqual(second.json().refresh_token, first.json().refresh_token);
  });

  it('keeps the session alive for the lifetime each new refresh token announces', async () => {
    const tokens = await signIn(t, await createUser(t));
    const lifetime = tokens.refresh_expires_in;
    t.clock.advance(lifetime - 10);
    const rotated = (await refresh(t, tokens.refresh_token)).json();
    assert.equal(rotated.refresh_expires_in, lifetime);
    t.clock.advance(lifetime - 10);
    const again = await refresh(t, rotated.refresh_token);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: again.json().access_token })).statusCode, 200);
    t.clock.advance(lifetime + 1);
    assert.deepEqual((await refresh(t, again.json().refresh_token)).json(), FAILED, 'an unused refresh token still expires');
  });

  it('answers the same successor for the retired token within the grace window', async () => {
    const tokens = await signIn(t, await createUser(t));
    const successor = (await refresh(t, tokens.refresh_token)).json().refresh_token;
    t.clock.advance(5);
    const again = await refresh(t, tokens.refresh_token);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().refresh_token, successor);
    t.clock.advance(5);
    assert.equal((await refresh(t, tokens.refresh_token)).json().refresh_token, successor, 'still at exactly 10 s');
    assert.equal((await refresh(t, successor)).statusCode, 200);
  });

  it('gives ten concurrent refreshes of one token one and the same successor, round after round', async () => {
    const user = await createUser(t);
    let current = (await signIn(t, user)).refresh_token;
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(Array.from({ length: 10 }, () => refresh(t, current)));
      for (const res of results) assert.equal(res.statusCode, 200, res.body);
      const successors = new Set(results.map((r) => r.json().refresh_token));
      assert.equal(successors.size, 1, `round ${round}: one successor`);
      const [successor] = successors;
      assert.notEqual(successor, current);
      current = successor!;
    }
    const rows = await t.container.db.selectFrom('refresh_tokens').select(['id', 'rotated_at', 'revoked_at']).orderBy('id').execute();
    assert.equal(rows.length, 4, 'the first token and one successor per round');
    assert.deepEqual(rows.map((r) => r.revoked_at), [null, null, null, null]);
    assert.equal(rows.filter((r) => r.rotated_at === null).length, 1);
    assert.equal((await refresh(t, current)).statusCode, 200);
  });

  it('revokes the whole session when a retired token is presented after the grace window', async () => {
    const user = await createUser(t);
    const tokens = await signIn(t, user);
    const other = await signIn(t, user, { device_info: deviceInfo(2) });
    const rotated = (await refresh(t, tokens.refresh_token)).json();
    t.clock.advance(11);

    const replay = await refresh(t, tokens.refresh_token);
    assert.equal(replay.statusCode, 401);
    assert.deepEqual(replay.json(), FAILED);
    assert.deepEqual((await refresh(t, rotated.refresh_token)).json(), FAILED, 'the successor is revoked too');
    for (const token of [tokens.access_token, rotated.access_token]) {
      assertError(await t.api({ method: 'GET', path: 'me/', token }), 401, 'TOKEN_BLACKLISTED');
    }
    const session = await t.container.db.selectFrom('sessions').select(['revoked_at', 'revoke_reason'])
      .where('id', '=', Number(tokens.session_id)).executeTakeFirstOrThrow();
    assert.equal(session.revoke_reason, 'refresh_token_reuse');

    const event = await t.container.db.selectFrom('audit_events').select(['severity', 'user_id', 'details'])
      .where('event_type', '=', 'refresh_token_reuse').executeTakeFirstOrThrow();
    assert.equal(event.severity, 'critical');
    assert.equal(event.user_id, user.id);

    assert.equal((await t.api({ method: 'GET', path: 'me/', token: other.access_token })).statusCode, 200, 'other sessions live on');
    assert.equal((await refresh(t, other.refresh_token)).statusCode, 200);
  });

  it('treats a replay of a token two generations back the same way', async () => {
    const tokens = await signIn(t, await createUser(t));
    const first = (await refresh(t, tokens.refresh_token)).json().refresh_token;
    t.clock.advance(20);
    const second = (await refresh(t, first)).json().refresh_token;
    t.clock.advance(20);
    assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
    assert.deepEqual((await refresh(t, second)).json(), FAILED);
  });
});

describe('POST refresh/ under the medium preset', () => {
  it('rotates the refresh token', async () => {
    const t = await createTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'medium' } });
    try {
      await t.reset();
      const tokens = await signIn(t, await createUser(t));
      const res = await refresh(t, tokens.refresh_token);
      assert.equal(res.statusCode, 200, res.body);
      assert.notEqual(res.json().refresh_token, tokens.refresh_token);
    } finally {
      await t.close();
    }
  });

  it('records one token_refresh event per rotation, and none when routine audit logging is off', async () => {
    for (const audit of ['true', 'false']) {
      const t = await createTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'medium', SVC_AUDIT_LOGGING_ENABLED: audit } });
      try {
        await t.reset();
        const user = await createUser(t);
        const tokens = await signIn(t, user);
        const first = await refresh(t, tokens.refresh_token);
        assert.equal(first.statusCode, 200, first.body);
        assert.equal((await refresh(t, first.json().refresh_token)).statusCode, 200);
        const events = await t.container.db.selectFrom('audit_events')
          .select(['user_id', 'application_id', 'ip_address', 'severity', 'details', 'created_at'])
          .where('event_type', '=', 'token_refresh').execute();
        if (audit === 'false') { assert.equal(events.length, 0); continue; }
        assert.equal(events.length, 2);
        for (const event of events) {
          assert.equal(event.user_id, user.id);
          assert.equal(event.application_id, t.credentials.id);
          assert.equal(event.severity, 'info');
          assert.equal(event.ip_address, '127.0.0.1');
          assert.deepEqual(event.details, { session_id: Number(tokens.session_id) });
          assert.equal(event.created_at.getTime(), t.clock.now().getTime());
        }
      } finally {
        await t.close();
      }
    }
  });

  it('returns the same successor within a grace window set by SVC_REFRESH_TOKEN_REUSE_GRACE', async () => {
    const t = await createTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'medium', SVC_REFRESH_TOKEN_REUSE_GRACE: '60' } });
    try {
      await t.reset();
      const tokens = await signIn(t, await createUser(t));
      const successor = (await refresh(t, tokens.refresh_token)).json().refresh_token;
      t.clock.advance(59);
      assert.equal((await refresh(t, tokens.refresh_token)).json().refresh_token, successor);
      t.clock.advance(2);
      assert.deepEqual((await refresh(t, tokens.refresh_token)).json(), FAILED);
    } finally {
      await t.close();
    }
  });
});
