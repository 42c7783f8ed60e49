import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectAnswer, INSTANCES, NAMES, refused, REUSE_GRACE_S, signIn, type Cluster } from './helpers.js';
import { assertWithinBound, delaysOn, sleep } from './propagation.js';

/** The refresh limit of one client address (docs/authentication.md "Lockout and audit": refresh 30/min). */
const CONCURRENT_REFRESHES = 30;

/**
 * docs/authentication.md "Tokens": rotation retires the presented refresh token; presenting it again within the
 * grace window returns the same successor, later it ends the whole session. The instances share only the database, so
 * these rules must hold whichever instance each request reaches.
 */
export function describeRefresh(c: Cluster): void {
  describe('refresh-token rotation across instances', () => {
    const refresh = (token: string, ip: string, via?: number) =>
      c.api({ method: 'POST', path: 'refresh/', ip, via, body: { refresh_token: token } });
    const me = (token: string, ip: string, via?: number) => c.api({ path: 'me/', token, ip, via });
    const tokensOfSession = (sessionId: string) => c.database.inspect((db) => db.selectFrom('refresh_tokens')
      .select(['id', 'rotated_at', 'revoked_at']).where('session_id', '=', Number(sessionId)).orderBy('id').execute());

    it(`a token refreshed on A and replayed on B after the ${REUSE_GRACE_S} s grace window ends the session on every instance`, async () => {
      const ip = c.nextIp();
      const first = await signIn(c, c.accounts.ann, ip, 0);
      const second = expectAnswer(await refresh(first.refresh_token, ip, 0), 200);
      assert.notEqual(second.refresh_token, first.refresh_token);
      for (const i of INSTANCES) expectAnswer(await me(second.access_token, ip, i), 200);

      // The grace window counts from the rotation, which happened before A answered.
      await sleep(REUSE_GRACE_S * 1000 + 1000);
      expectAnswer(await refresh(first.refresh_token, ip, 1), 401, 'REFRESH_FAILED');
      const since = Date.now();
      assertWithinBound(await delaysOn(INSTANCES, (i) => `instance ${NAMES[i]} refusing the session's access token`, since,
        async (i) => refused(await me(second.access_token, ip, i), 401, 'TOKEN_BLACKLISTED')));
      expectAnswer(await refresh(second.refresh_token, ip, 2), 401, 'REFRESH_FAILED');

      const session = await c.database.inspect((db) => db.selectFrom('sessions').select(['revoked_at', 'revoke_reason'])
        .where('id', '=', Number(first.session_id)).executeTakeFirstOrThrow());
      assert.equal(session.revoke_reason, 'refresh_token_reuse');
      assert.ok((await tokensOfSession(first.session_id)).every((t) => t.revoked_at !== null), 'every token of the family revoked');
      const events = await c.database.inspect((db) => db.selectFrom('audit_events').select('details')
        .where('event_type', '=', 'refresh_token_reuse').where('user_id', '=', c.accounts.ann.id).execute());
      assert.deepEqual(events.map((e) => Number(e.details.session_id)), [Number(first.session_id)]);
    });

    it(`${CONCURRENT_REFRESHES} concurrent refreshes of one token over the three instances: one successor, and every answer's tokens work`,
      async () => {
        const ip = c.nextIp();
        const session = await signIn(c, c.accounts.ann, ip, 0);
        // Round robin: each instance gets a third of the burst.
        const burstIp = c.nextIp();
        const answers = await Promise.all(Array.from({ length: CONCURRENT_REFRESHES }, () => refresh(session.refresh_token, burstIp)));
        assert.deepEqual([...new Set(answers.map((a) => a.servedBy))].sort(), [0, 1, 2]);

        // Within the grace window every refresh of the retired token answers with the one successor, whichever instance
        // rotated it: all succeed, and they agree.
        const bodies = answers.map((a) => expectAnswer(a, 200));
        const successors = new Set(bodies.map((b) => b.refresh_token as string));
        assert.equal(successors.size, 1, `${successors.size} different refresh tokens`);
        const [successor] = successors;
        assert.notEqual(successor, session.refresh_token);

        const rows = await tokensOfSession(session.session_id);
        assert.equal(rows.length, 2, `the session holds the first token and one successor: ${JSON.stringify(rows)}`);
        assert.ok(rows[0]!.rotated_at !== null && rows[1]!.rotated_at === null, JSON.stringify(rows));
        assert.ok(rows.every((r) => r.revoked_at === null), 'no reuse was detected');

        const checks = await Promise.all(bodies.map((b, n) => me(b.access_token, ip, n % 3)));
        checks.forEach((res) => expectAnswer(res, 200));
        expectAnswer(await refresh(successor!, c.nextIp(), 2), 200);
        assert.equal((await tokensOfSession(session.session_id)).length, 3);
      });
  });
}
