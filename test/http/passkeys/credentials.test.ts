import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { expectStatus } from '../../helpers/answers.js';
import { authenticator, PASSKEY_ENV, register, signInWithPasskey } from './helpers.js';

/** `webauthn/credentials/` (docs/passkeys.md): the caller's passkeys, listed and deleted; never another account's. */
describe('webauthn/credentials/', () => {
  const t = useTestApp({ env: { ...PASSKEY_ENV, SVC_AUDIT_LOGGING_ENABLED: 'true' } });

  const list = (token: string) => t.api({ method: 'GET', path: 'webauthn/credentials/', token });
  const remove = (token: string, id: number) => t.api({ method: 'DELETE', path: `webauthn/credentials/${id}/`, token });

  /** An account with `n` passkeys, and a token of it. */
  async function account(email: string, n: number, opts: { password?: string | null } = {}) {
    const user = await createUser(t, { email });
    const token = (await signIn(t, user)).access_token;
    for (let i = 0; i < n; i++) {
      const attachment = i === 0 ? 'platform' : 'cross-platform';
      expectStatus((await register(t, token, authenticator({ attachment }), { device_name: `Key ${i + 1}` })).res, 201);
    }
    if (opts.password === null) {
      await t.container.db.updateTable('users').set({ has_usable_password: false, password_hash: null }).where('id', '=', user.id).execute();
    }
    const ids = (await t.container.db.selectFrom('webauthn_credentials').select('id').where('user_id', '=', user.id).orderBy('id').execute())
      .map((r) => r.id);
    return { user, token, ids };
  }

  it('lists the caller\'s passkeys with the documented listing fields and a count', async () => {
    const { token } = await account('ann@example.com', 2);
    await account('bob@example.com', 1);
    const body = expectStatus(await list(token), 200);
    assert.equal(body.count, 2);
    assert.deepEqual(Object.keys(body.credentials[0]).sort(),
      ['authenticator_type', 'created_at', 'device_name', 'id', 'is_active', 'is_resident_key', 'last_used_at']);
    assert.deepEqual(body.credentials.map((c: Record<string, unknown>) => [c.device_name, c.authenticator_type, c.is_resident_key, c.is_active]),
      [['Key 1', 'platform', true, true], ['Key 2', 'cross-platform', true, true]]);
  });

  it('deletes one (204, audited); another account\'s or an unknown id is 404 NOT_FOUND and changes nothing', async () => {
    const ann = await account('ann@example.com', 1);
    const bob = await account('bob@example.com', 1);
    assert.equal(expectStatus(await remove(ann.token, bob.ids[0]!), 404).code, 'NOT_FOUND');
    assert.equal(expectStatus(await remove(ann.token, 999999), 404).code, 'NOT_FOUND');
    const res = await remove(ann.token, ann.ids[0]!);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.deepEqual(expectStatus(await list(ann.token), 200), { credentials: [], count: 0 });
    assert.equal(expectStatus(await list(bob.token), 200).count, 1);
    const events = await t.container.db.selectFrom('audit_events').select('user_id').where('event_type', '=', 'passkey_deleted').execute();
    assert.deepEqual(events, [{ user_id: ann.user.id }]);
  });

  it('refuses to delete the last way into a passwordless account: 400 LAST_LOGIN_METHOD; a deleted passkey no longer signs in', async () => {
    const ann = await account('ann@example.com', 2, { password: null });
    const key = authenticator();
    expectStatus((await register(t, ann.token, key)).res, 201);
    const [first, second, third] = (await t.container.db.selectFrom('webauthn_credentials').select('id').orderBy('id').execute()).map((r) => r.id);
    assert.equal((await remove(ann.token, third!)).statusCode, 204);
    assert.equal(expectStatus((await signInWithPasskey(t, key)).res, 401).code, 'AUTH_FAILED');
    assert.equal((await remove(ann.token, first!)).statusCode, 204);
    assert.equal(expectStatus(await remove(ann.token, second!), 400).code, 'LAST_LOGIN_METHOD');
    assert.equal(expectStatus(await list(ann.token), 200).count, 1);
  });

  it('keeps one passkey when the last two of a passwordless account are deleted at once', async () => {
    const ann = await account('ann@example.com', 2, { password: null });
    const results = await Promise.all(ann.ids.map((id) => remove(ann.token, id)));
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [204, 400]);
    assert.equal(expectStatus(await list(ann.token), 200).count, 1);
  });

  it('counts a passkey as a way to sign in when a social identity is unlinked', async () => {
    const ann = await account('ann@example.com', 1, { password: null });
    const [link] = await t.container.db.insertInto('social_accounts')
      .values({ user_id: ann.user.id, provider: 'google', subject: 'ann', email: 'ann@example.com' }).returning('id').execute();
    expectStatus(await t.api({ method: 'DELETE', path: `me/social-accounts/${link!.id}/`, token: ann.token }), 200);
  });

  it('needs a user bearer', async () => {
    assert.equal((await t.api({ method: 'GET', path: 'webauthn/credentials/' })).statusCode, 401);
    assert.equal((await t.api({ method: 'DELETE', path: 'webauthn/credentials/1/' })).statusCode, 401);
  });
});
