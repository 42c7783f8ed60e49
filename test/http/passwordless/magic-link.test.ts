import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createApplication } from '../../factories/applications.js';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { sha256Hex } from '../../../src/security/random.js';
import { assertError, TOKEN_RESPONSE_FIELDS, USER_FIELDS } from '../auth/assertions.js';
import {
  clearInbox, inParallel, lastMagicLink, lastMagicToken, MAGIC_LINK_ON, requestMagicLink, verifyMagicLink,
} from './helpers.js';

const REDIRECT_URI = 'http://localhost:3000/callback'; // the test application's redirect_uris
const EXTRA_URL = 'https://links.example.com/magic';
const EMAIL = 'ann@example.com';

describe('magic links', () => {
  const t = useTestApp({ env: { ...MAGIC_LINK_ON, SVC_MAGIC_LINK_ALLOWED_URLS: EXTRA_URL } });
  let user: TestUser;
  beforeEach(async () => {
    clearInbox(t);
    user = await createUser(t, { email: EMAIL });
  });

  const emailsTo = async (to: string) => {
    await t.container.services.outbox.flush();
    return t.container.inbox.emails.filter((m) => m.to === to);
  };
  const links = () => t.container.db.selectFrom('magic_links').select(['user_id', 'email', 'token_hash', 'consumed_at', 'expires_at'])
    .orderBy('id').execute();
  /** Requests a link for `email` to the test application's redirect URI and answers its token. */
  async function tokenFor(email = EMAIL): Promise<string> {
    const res = await requestMagicLink(t, { email, validation_url: REDIRECT_URI });
    assert.equal(res.statusCode, 200, res.body);
    return lastMagicToken(t, email);
  }

  describe('POST magic-link/request/', () => {
    it('answers {message} and emails a link to the validation_url of a registered redirect URI', async () => {
      const res = await requestMagicLink(t, { email: EMAIL, validation_url: REDIRECT_URI });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(Object.keys(res.json()), ['message']);
      const link = await lastMagicLink(t, EMAIL);
      assert.match(link, /^http:\/\/localhost:3000\/callback\?token=[A-Za-z0-9_-]{43}$/);
      const [row] = await links();
      assert.equal(row!.user_id, user.id);
      assert.equal(row!.expires_at.toISOString(), new Date(t.clock.now().getTime() + 600_000).toISOString());
    });

    it('stores only the SHA-256 of the token', async () => {
      const token = await tokenFor();
      const [row] = await links();
      assert.equal(row!.token_hash, sha256Hex(token));
      assert.ok(!row!.token_hash.includes(token));
    });

    it('accepts an address listed in SVC_MAGIC_LINK_ALLOWED_URLS and appends the token to its query', async () => {
      const res = await requestMagicLink(t, { email: EMAIL, validation_url: `${EXTRA_URL}?next=%2Fhome` });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(await lastMagicLink(t, EMAIL), /^https:\/\/links\.example\.com\/magic\?next=%2Fhome&token=[A-Za-z0-9_-]{43}$/);
    });

    it('answers 400 VALIDATION_URL_REQUIRED without validation_url', async () => {
      assertError(await requestMagicLink(t, { email: EMAIL }), 400, 'VALIDATION_URL_REQUIRED');
      assertError(await requestMagicLink(t, { email: EMAIL, validation_url: '' }), 400, 'VALIDATION_URL_REQUIRED');
      assert.equal((await emailsTo(EMAIL)).length, 0);
    });

    it('answers 400 INVALID_REDIRECT_URI for an address that is neither a redirect URI nor allowed', async () => {
      for (const url of ['https://evil.example.com/callback', 'http://localhost:3000/callback/other', 'https://localhost:3000/callback',
        'http://localhost:3001/callback', 'not a url', 'javascript:alert(1)']) {
        assertError(await requestMagicLink(t, { email: EMAIL, validation_url: url }), 400, 'INVALID_REDIRECT_URI');
      }
      assert.equal((await emailsTo(EMAIL)).length, 0);
    });

    it("checks the calling application's own redirect URIs", async () => {
      const other = await createApplication(t);
      assertError(await requestMagicLink(t, { email: EMAIL, validation_url: REDIRECT_URI }, other.headers), 400, 'INVALID_REDIRECT_URI');
      assert.equal((await requestMagicLink(t, { email: EMAIL, validation_url: EXTRA_URL }, other.headers)).statusCode, 200);
    });

    it('answers 400 validation for a missing or malformed email', async () => {
      const missing = await requestMagicLink(t, { validation_url: REDIRECT_URI });
      assert.equal(missing.statusCode, 400);
      assert.ok(missing.json().details.email);
      const malformed = await requestMagicLink(t, { email: 'not-an-email', validation_url: REDIRECT_URI });
      assert.equal(malformed.statusCode, 400);
      assert.ok(malformed.json().details.email);
    });

    it('answers the same for an unknown email, and sends nothing', async () => {
      const known = await requestMagicLink(t, { email: EMAIL, validation_url: REDIRECT_URI });
      const unknown = await requestMagicLink(t, { email: 'nobody@example.com', validation_url: REDIRECT_URI });
      assert.equal(unknown.statusCode, 200);
      assert.deepEqual(unknown.json(), known.json());
      assert.equal((await emailsTo('nobody@example.com')).length, 0);
      assert.equal((await links()).length, 1);
    });

    for (const [label, state] of [['banned', { is_banned: true }], ['inactive', { is_active: false }]] as const) {
      it(`answers the same for an account that is ${label}, and sends nothing`, async () => {
        const other = await createUser(t, { email: 'bob@example.com', ...state });
        const res = await requestMagicLink(t, { email: other.email, validation_url: REDIRECT_URI });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal((await emailsTo('bob@example.com')).length, 0);
      });
    }

    it('finds the account whatever the case of the email', async () => {
      assert.equal((await requestMagicLink(t, { email: ' Ann@Example.COM ', validation_url: REDIRECT_URI })).statusCode, 200);
      assert.equal((await emailsTo(EMAIL)).length, 1);
    });

    it('retires older links when a new one is requested', async () => {
      const first = await tokenFor();
      const second = await tokenFor();
      assertError(await verifyMagicLink(t, { token: first }), 401, 'INVALID_TOKEN');
      assert.equal((await verifyMagicLink(t, { token: second })).statusCode, 200);
    });
  });

  describe('GET magic-link/verify/', () => {
    it('answers the token response with message, session_id, device_id and device_summary null, and verifies the email', async () => {
      const res = await verifyMagicLink(t, { token: await tokenFor(), device_info: 'v=1|os=macOS 14|app=Acme 2.1' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), [...TOKEN_RESPONSE_FIELDS, 'message'].sort());
      assert.deepEqual(Object.keys(body.user).sort(), USER_FIELDS);
      assert.equal(typeof body.message, 'string');
      assert.equal(body.device_summary, null);
      assert.equal(typeof body.session_id, 'string');
      assert.equal(typeof body.device_id, 'string');
      assert.equal(body.requires_2fa, false);
      assert.equal(body.user.id, String(user.id));
      assert.equal(body.user.is_email_verified, true);
      assert.equal((await userRow(t, user.id)).is_email_verified, true);
      assert.equal((await t.api({ method: 'GET', path: 'me/', token: body.access_token })).statusCode, 200);
      const attempts = await t.container.db.selectFrom('login_attempts').select(['identifier', 'method', 'success']).execute();
      assert.deepEqual(attempts, [{ identifier: EMAIL, method: 'magic_link', success: true }]);
    });

    it('works once', async () => {
      const token = await tokenFor();
      assert.equal((await verifyMagicLink(t, { token })).statusCode, 200);
      assertError(await verifyMagicLink(t, { token }), 401, 'INVALID_TOKEN');
    });

    it('answers 400 TOKEN_REQUIRED without a token', async () => {
      assertError(await t.api({ method: 'GET', path: 'magic-link/verify/' }), 400, 'TOKEN_REQUIRED');
      assertError(await verifyMagicLink(t, { token: '' }), 400, 'TOKEN_REQUIRED');
    });

    it('answers 401 INVALID_TOKEN for an unknown token', async () => {
      assertError(await verifyMagicLink(t, { token: 'x'.repeat(43) }), 401, 'INVALID_TOKEN');
    });

    it('answers 401 INVALID_TOKEN for an expired link, and accepts it until then', async () => {
      const token = await tokenFor();
      t.clock.advance(601);
      assertError(await verifyMagicLink(t, { token }), 401, 'INVALID_TOKEN');
      const fresh = await tokenFor();
      t.clock.advance(599);
      assert.equal((await verifyMagicLink(t, { token: fresh })).statusCode, 200);
    });

    for (const [label, state] of [['banned', { is_banned: true }], ['inactive', { is_active: false }]] as const) {
      it(`answers 401 INVALID_TOKEN when the account is ${label} after the link was sent`, async () => {
        const token = await tokenFor();
        await t.container.db.updateTable('users').set(state).where('id', '=', user.id).execute();
        assertError(await verifyMagicLink(t, { token }), 401, 'INVALID_TOKEN');
      });
    }

    it('answers 401 INVALID_TOKEN when the account changed its email after the link was sent', async () => {
      const token = await tokenFor();
      await t.container.db.updateTable('users').set({ email: 'ann.new@example.com' }).where('id', '=', user.id).execute();
      assertError(await verifyMagicLink(t, { token }), 401, 'INVALID_TOKEN');
    });

    it('answers 401 INVALID_TOKEN through another application than the one that asked', async () => {
      const token = await tokenFor();
      const other = await createApplication(t);
      assertError(await verifyMagicLink(t, { token }, other.headers), 401, 'INVALID_TOKEN');
      assert.equal((await verifyMagicLink(t, { token })).statusCode, 200);
    });

    it('lets exactly one of 10 parallel verifications of one link succeed', async () => {
      for (let round = 0; round < 3; round++) {
        const token = await tokenFor();
        const statuses = await inParallel(10, () => verifyMagicLink(t, { token }));
        assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${statuses.join(',')}`);
        assert.deepEqual(statuses.filter((s) => s !== 200), Array(9).fill(401), `round ${round}: ${statuses.join(',')}`);
      }
    });

    it('answers 401 2FA_REQUIRED for a 2FA account without totp_code, without using up the link', async () => {
      const totp = await enableTotp(t, user);
      const token = await tokenFor();
      assertError(await verifyMagicLink(t, { token }), 401, '2FA_REQUIRED', { requires_2fa: true });
      assert.equal((await links())[0]!.consumed_at, null);
      assert.equal(await t.container.db.selectFrom('sessions').select('id').executeTakeFirst(), undefined);
      const res = await verifyMagicLink(t, { token, totp_code: totp.code() });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().user.is_2fa_enabled, true);
      assertError(await verifyMagicLink(t, { token, totp_code: totp.code(1) }), 401, 'INVALID_TOKEN');
    });

    it('answers 401 with requires_2fa for a wrong totp_code, and keeps the link', async () => {
      await enableTotp(t, user);
      const token = await tokenFor();
      const res = await verifyMagicLink(t, { token, totp_code: '000000' });
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(res.json().requires_2fa, true);
      assert.equal((await links())[0]!.consumed_at, null);
    });
  });
});
