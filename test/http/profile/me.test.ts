import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation } from '../auth/assertions.js';

/** The profile endpoints (docs/authentication.md "Profile"). */
const PROFILE_FIELDS = ['avatar', 'bio', 'custom_fields', 'date_joined', 'email', 'first_name', 'id', 'is_active', 'is_verified',
  'language', 'last_login', 'last_name', 'organization_context', 'phone', 'preferences', 'timezone', 'username'];

describe('profile', () => {
  const t = useTestApp();
  let user: TestUser;
  let token: string;
  beforeEach(async () => {
    user = await createUser(t, { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' });
    token = (await signIn(t, user)).access_token;
  });

  const getMe = () => t.api({ method: 'GET', path: 'me/', token });
  const patchMe = (payload: Record<string, unknown>) => t.api({ method: 'PATCH', path: 'me/', token, payload });

  describe('GET me/', () => {
    it('answers the documented profile with an integer id', async () => {
      const res = await getMe();
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), PROFILE_FIELDS);
      const row = await userRow(t, user.id);
      assert.deepEqual(body, {
        id: user.id, email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee', username: null, phone: null, avatar: null,
        bio: null, timezone: null, language: null, is_active: true, is_verified: false,
        date_joined: row.created_at.toISOString(), last_login: t.clock.now().toISOString(), custom_fields: null,
        preferences: { email_notifications: true, sms_notifications: false, marketing_emails: false, two_factor_enabled: false },
        organization_context: { current_org: null, roles: [], permissions: [] },
      });
    });

    it('reports two_factor_enabled and is_verified from the account', async () => {
      await t.container.db.updateTable('users').set({ is_2fa_enabled: true, is_email_verified: true }).where('id', '=', user.id).execute();
      const body = (await getMe()).json();
      assert.equal(body.preferences.two_factor_enabled, true);
      assert.equal(body.is_verified, true);
    });

    it('answers 401 UNAUTHORIZED without a bearer token', async () => {
      assertError(await t.api({ method: 'GET', path: 'me/' }), 401, 'UNAUTHORIZED');
    });
  });

  describe('PATCH me/', () => {
    it('updates the listed fields and answers {message, updated_fields, user, verification_required}', async () => {
      const res = await patchMe({ first_name: 'Anna', last_name: 'Berg', bio: 'Hello', timezone: 'Europe/Paris', language: 'fr-FR',
        username: 'anna_b' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['message', 'updated_fields', 'user', 'verification_required']);
      assert.equal(typeof body.message, 'string');
      assert.deepEqual(body.updated_fields.sort(), ['bio', 'first_name', 'language', 'last_name', 'timezone', 'username']);
      assert.deepEqual(body.verification_required, { email_changed: false, phone_changed: false });
      assert.deepEqual(Object.keys(body.user).sort(), PROFILE_FIELDS);
      assert.equal(body.user.id, user.id);
      const me = (await getMe()).json();
      assert.deepEqual(me, body.user);
      assert.deepEqual([me.first_name, me.last_name, me.bio, me.timezone, me.language, me.username],
        ['Anna', 'Berg', 'Hello', 'Europe/Paris', 'fr-FR', 'anna_b']);
    });

    it('ignores and never stores any other field', async () => {
      const stored = await userRow(t, user.id);
      const res = await patchMe({ first_name: 'Anna', is_staff: true, is_superuser: true, email: 'evil@example.com', is_active: false,
        is_email_verified: true, password_hash: 'x', must_change_password: true, id: 999, preferences: { marketing_emails: true } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().updated_fields, ['first_name']);
      const updated = await userRow(t, user.id);
      assert.deepEqual({ ...updated, first_name: stored.first_name, updated_at: stored.updated_at }, stored);
      assert.equal(updated.first_name, 'Anna');
      assert.equal(res.json().user.email, 'ann@example.com');
    });

    it('answers no updated field for a body with nothing editable', async () => {
      const res = await patchMe({ is_staff: true });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().updated_fields, []);
      assert.equal((await userRow(t, user.id)).is_staff, false);
    });

    it('answers 400 on username when another account holds it in any case', async () => {
      await createUser(t, { username: 'Alice' });
      const body = assertValidation(await patchMe({ username: 'alice', first_name: 'Anna' }), 'username');
      assert.deepEqual(Object.keys(body.details), ['username']);
      const row = await userRow(t, user.id);
      assert.equal(row.username, null);
      assert.equal(row.first_name, 'Ann', 'nothing is stored when a field is refused');
    });

    it('gives a username claimed by two accounts at once to one of them and answers 400 on username to the other', async () => {
      const other = await createUser(t);
      const otherToken = (await signIn(t, other)).access_token;
      const results = await Promise.all([
        t.api({ method: 'PATCH', path: 'me/', token, payload: { username: 'taken', phone: '+14155552671' } }),
        t.api({ method: 'PATCH', path: 'me/', token: otherToken, payload: { username: 'Taken', phone: '+33612345678' } }),
      ]);
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400], results.map((r) => r.body).join('\n'));
      const refused = results.find((r) => r.statusCode === 400)!;
      assert.deepEqual(Object.keys(assertValidation(refused, 'username').details), ['username']);
    });

    it('keeps the username of the account itself in another case', async () => {
      assert.equal((await patchMe({ username: 'Ann' })).statusCode, 200);
      const res = await patchMe({ username: 'ANN' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().user.username, 'ANN');
    });

    it('answers 400 on username for a malformed one', async () => {
      for (const username of ['ab', 'has space', 'x'.repeat(151)]) assertValidation(await patchMe({ username }), 'username');
    });

    it('normalizes a new phone, clears its verification and says so', async () => {
      await t.container.db.updateTable('users').set({ phone: '+33612345678', is_phone_verified: true }).where('id', '=', user.id).execute();
      const res = await patchMe({ phone: '+1 (415) 555-2671' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().user.phone, '+14155552671');
      assert.deepEqual(res.json().verification_required, { email_changed: false, phone_changed: true });
      assert.deepEqual(res.json().updated_fields, ['phone']);
      const row = await userRow(t, user.id);
      assert.equal(row.phone, '+14155552671');
      assert.equal(row.is_phone_verified, false);
    });

    it('leaves a verified phone alone when the same number is sent', async () => {
      await t.container.db.updateTable('users').set({ phone: '+14155552671', is_phone_verified: true }).where('id', '=', user.id).execute();
      const res = await patchMe({ phone: '+1 415 555 2671' });
      assert.deepEqual(res.json().verification_required, { email_changed: false, phone_changed: false });
      assert.equal((await userRow(t, user.id)).is_phone_verified, true);
    });

    it('answers 400 on phone for an invalid number', async () => {
      for (const phone of ['4155552671', '+1 000 000 0000', '+999 4155552671', 'call me', '+1']) {
        const body = assertValidation(await patchMe({ phone }), 'phone');
        assert.deepEqual(Object.keys(body.details), ['phone'], phone);
      }
    });

    it('answers 400 on phone for a number another account holds', async () => {
      await createUser(t, { phone: '+14155552671' });
      assertValidation(await patchMe({ phone: '+14155552671' }), 'phone');
    });

    it('removes the phone with null', async () => {
      await t.container.db.updateTable('users').set({ phone: '+14155552671' }).where('id', '=', user.id).execute();
      const res = await patchMe({ phone: null });
      assert.equal(res.json().user.phone, null);
      assert.equal(res.json().verification_required.phone_changed, true);
    });

    it('answers 400 on timezone for a name that is not an IANA zone', async () => {
      for (const timezone of ['Mars/Olympus_Mons', 'GMT+25', 'europe paris', 'europe/paris', '+05:00', 'Local', '']) {
        assertValidation(await patchMe({ timezone }), 'timezone');
      }
      for (const timezone of ['America/New_York', 'UTC', 'Asia/Kolkata', 'Europe/Kyiv', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires']) {
        assert.equal((await patchMe({ timezone })).json().user.timezone, timezone);
      }
    });

    it('stores custom_fields as an object and answers 400 on anything else', async () => {
      const fields = { team: 'core', level: 3, tags: ['a', 'b'], nested: { on: true } };
      const res = await patchMe({ custom_fields: fields });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().user.custom_fields, fields);
      assert.deepEqual((await userRow(t, user.id)).custom_fields, fields);
      for (const custom_fields of [['a', 'b'], 'text', 42, true]) assertValidation(await patchMe({ custom_fields }), 'custom_fields');
      assert.deepEqual((await getMe()).json().custom_fields, fields);
      assert.equal((await patchMe({ custom_fields: null })).json().user.custom_fields, null);
    });

    it('answers 400, never a 500, for text PostgreSQL cannot store and for custom_fields nested too deep', async () => {
      for (const [field, value] of [['first_name', 'A\u0000'], ['last_name', '\u0000'], ['bio', 'x\u0000y'],
        ['custom_fields', { note: 'a\u0000' }], ['custom_fields', { 'k\u0000': 1 }], ['custom_fields', { list: [['\u0000']] }]] as const) {
        assertValidation(await patchMe({ [field]: value }), 'non_field_errors');
      }
      for (const depth of [9, 5000]) {
        const body = `{"custom_fields": {"a": ${'['.repeat(depth)}${']'.repeat(depth)}}}`;
        assertValidation(await t.api({ method: 'PATCH', path: 'me/', token, headers: { 'content-type': 'application/json' }, payload: body }),
          'custom_fields');
      }
      const nested = { a: [[[[[[{ b: 'deep enough' }]]]]]] };
      assert.deepEqual((await patchMe({ custom_fields: nested })).json().user.custom_fields, nested);
    });

    it('answers 400 on a field of the wrong type', async () => {
      assertValidation(await patchMe({ first_name: 42 }), 'first_name');
      assertValidation(await patchMe({ language: 'not a language tag' }), 'language');
      assertValidation(await patchMe({ bio: 'x'.repeat(1001) }), 'bio');
    });

    it('answers 401 UNAUTHORIZED without a bearer token', async () => {
      assertError(await t.api({ method: 'PATCH', path: 'me/', payload: { first_name: 'X' } }), 401, 'UNAUTHORIZED');
    });
  });
});
