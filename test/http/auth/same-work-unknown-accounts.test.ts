import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createUser } from '../../factories/users.js';
import { statementRecorder } from '../../helpers/statements.js';
import { useTestApp } from '../../helpers/test-app.js';
import { clearInbox, lastEmailCode, lastSmsCode } from '../otp/helpers.js';
import { lastMagicToken, MAGIC_LINK_ON } from '../passwordless/helpers.js';

// docs/security.md "Same answer, same work": password/reset/request/ and magic-link/request/ run the same statements
// before answering whether or not the address belongs to an account; the lookup and the writes come after the answer,
// when the queued message is prepared. Counted, never timed.

const REDIRECT_URI = 'http://localhost:3000/callback'; // the test application's redirect_uris
const PHONE = '+33612345678';
/** The outbox pass claiming due messages: what runs after the answer starts with it. */
const CLAIM = /^update "outbox_messages" set "status" = /;

describe('password/reset/request/ and magic-link/request/ for known and unknown accounts', () => {
  const recorder = statementRecorder();
  const t = useTestApp({ env: MAGIC_LINK_ON, dbPlugin: recorder.plugin });
  beforeEach(async () => {
    clearInbox(t);
    // Verified: a first sign-in by link to an unverified address would also remove her password (and say so by email).
    await createUser(t, { email: 'ann@example.com', phone: PHONE, verified: true });
    await createUser(t, { email: 'banned@example.com', is_banned: true });
  });

  const resetRequest = (payload: object) => () => t.api({ method: 'POST', path: 'password/reset/request/', payload });
  const linkRequest = (email: string) => () => t.api({ method: 'POST', path: 'magic-link/request/', payload: { email, validation_url: REDIRECT_URI } });

  /**
   * A request's answer, the statements it ran before its message's outbox pass (`answering`) and those of the pass
   * (`afterwards`), every queued message delivered or dropped by then.
   */
  async function observe(send: () => Promise<LightMyRequestResponse>) {
    await t.container.services.outbox.flush();
    const { answer: res, statements: all } = await recorder.during(async () => {
      const answer = await send();
      await t.container.services.outbox.flush();
      return answer;
    });
    const pass = all.findIndex((s) => CLAIM.test(s));
    assert.ok(pass > 0, `the request ran statements, then the outbox pass: ${all.join('\n')}`);
    return { res, answering: all.slice(0, pass), afterwards: all.slice(pass) };
  }

  /** The same status, headers (but the request id) and bytes; `perRequest` fields are compared by shape. */
  function assertSameAnswer(known: LightMyRequestResponse, unknown: LightMyRequestResponse, perRequest: string[] = []) {
    assert.equal(unknown.statusCode, known.statusCode);
    const headers = (r: LightMyRequestResponse) => ({ ...r.headers, 'x-request-id': undefined, date: undefined });
    assert.deepEqual(headers(unknown), headers(known));
    const masked = (r: LightMyRequestResponse) => {
      const body = r.json() as Record<string, unknown>;
      for (const key of perRequest) {
        assert.match(String(body[key]), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, key);
        body[key] = `<${key}>`;
      }
      return JSON.stringify(body);
    };
    assert.equal(unknown.body.length, known.body.length);
    assert.equal(masked(unknown), masked(known));
  }

  for (const [label, known, others] of [
    ['by email', { email: 'ann@example.com' }, [{ email: 'nobody@example.com' }, { email: 'banned@example.com' }]],
    ['by phone', { phone_country_code: '+33', phone_number: '612345678' }, [{ phone_country_code: '+33', phone_number: '698765432' }]],
  ] as const) {
    it(`password/reset/request/ ${label}: the same statements and the same answer for an unknown or banned account`, async () => {
      await observe(resetRequest({ email: 'warm-up@example.com' })); // the application's credentials, now cached
      const forKnown = await observe(resetRequest(known));
      assert.deepEqual(forKnown.answering.map((s) => s.split(' ').slice(0, 3).join(' ')), ['insert into "outbox_messages"']);
      // The account's code arrived and works: the lookup and the write happened after the answer.
      const code = 'email' in known ? await lastEmailCode(t, known.email) : await lastSmsCode(t, PHONE);
      assert.ok(forKnown.afterwards.some((s) => s.startsWith('insert into "otp_codes"')), forKnown.afterwards.join('\n'));
      const confirmed = await t.api({ method: 'POST', path: 'password/reset/confirm/',
        payload: { ...known, otp_code: code, new_password: 'violet submarine orchestra' } });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const sent = t.container.inbox.emails.length + t.container.inbox.sms.length;

      for (const other of others) {
        const forOther = await observe(resetRequest(other));
        assert.deepEqual(forOther.answering, forKnown.answering, JSON.stringify(other));
        assertSameAnswer(forKnown.res, forOther.res, ['otp_id']);
        assert.ok(!forOther.afterwards.some((s) => s.startsWith('insert into "otp_codes"')), forOther.afterwards.join('\n'));
      }
      assert.equal(t.container.inbox.emails.length + t.container.inbox.sms.length, sent, 'nothing sent to an unknown or banned account');
      // A dropped message is deleted: the outbox keeps no trace of an address typed for no account.
      const left = await t.container.db.selectFrom('outbox_messages').select('recipient').execute();
      assert.deepEqual([...new Set(left.map((r) => r.recipient))], ['email' in known ? known.email : PHONE]);
    });
  }

  it('magic-link/request/: the same statements and the same answer for an unknown or banned account', async () => {
    await observe(linkRequest('warm-up@example.com'));
    const forKnown = await observe(linkRequest('ann@example.com'));
    assert.deepEqual(forKnown.answering.map((s) => s.split(' ').slice(0, 3).join(' ')), ['insert into "outbox_messages"']);
    assert.ok(forKnown.afterwards.some((s) => s.startsWith('insert into "magic_links"')), forKnown.afterwards.join('\n'));
    const token = await lastMagicToken(t, 'ann@example.com');
    const verified = await t.api({ method: 'GET', path: `magic-link/verify/?token=${token}` });
    assert.equal(verified.statusCode, 200, verified.body);

    for (const email of ['nobody@example.com', 'banned@example.com']) {
      const forOther = await observe(linkRequest(email));
      assert.deepEqual(forOther.answering, forKnown.answering, email);
      assertSameAnswer(forKnown.res, forOther.res);
      assert.equal(forOther.res.body, forKnown.res.body);
      assert.ok(!forOther.afterwards.some((s) => s.startsWith('insert into "magic_links"')), forOther.afterwards.join('\n'));
    }
    assert.deepEqual(t.container.inbox.emails.map((m) => m.to), ['ann@example.com']);
    assert.equal((await t.container.db.selectFrom('magic_links').select('id').execute()).length, 1);
  });
});
