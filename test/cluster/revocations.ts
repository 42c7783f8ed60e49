import { describe, it } from 'node:test';
import { expectAnswer, INSTANCES, NAMES, refused, signIn, type Cluster, type Credentials } from './helpers.js';
import { assertWithinBound, delaysOn } from './propagation.js';

const NEW_PASSWORD = 'Violet-submarine-orchestra-7730';

/**
 * docs/decisions.md "Several instances": logout, password change, ban and application regeneration made through one instance
 * take effect on the others within 1 s. Each test first has every instance accept what is about to be revoked, so the
 * probes watch a change (and any cache an instance keeps is warm).
 */
export function describeRevocations(c: Cluster): void {
  describe('revocations made on A reach B and C within 1 s', () => {
    const me = (token: string, via: number, ip: string) => c.api({ path: 'me/', token, via, ip });
    const acceptedEverywhere = async (token: string, ip: string) => {
      for (const i of INSTANCES) expectAnswer(await me(token, i, ip), 200);
    };
    /** How long after `since` B and C each refused `token` as revoked. */
    const refusedOnOthers = (what: string, token: string, ip: string, since: number) =>
      delaysOn([1, 2], (i) => `instance ${NAMES[i]} refusing ${what}`, since,
        async (i) => refused(await me(token, i, ip), 401, 'TOKEN_BLACKLISTED'));

    it('logout on A: B and C refuse its access token within 1 s', async () => {
      const ip = c.nextIp();
      const session = await signIn(c, c.accounts.ann, ip, 0);
      await acceptedEverywhere(session.access_token, ip);
      expectAnswer(await c.api({ method: 'POST', path: 'logout/', ip, via: 0, token: session.access_token,
        body: { refresh_token: session.refresh_token } }), 200);
      const since = Date.now();
      assertWithinBound(await refusedOnOthers('the logged-out token', session.access_token, ip, since));
      expectAnswer(await me(session.access_token, 0, ip), 401, 'TOKEN_BLACKLISTED');
    });

    it('password change on A: B and C refuse the tokens of the account\'s other sessions within 1 s', async () => {
      const ip = c.nextIp();
      const bob = c.accounts.bob;
      const changing = await signIn(c, bob, ip, 0);
      const others = [await signIn(c, bob, ip, 1), await signIn(c, bob, ip, 2)];
      for (const s of [changing, ...others]) await acceptedEverywhere(s.access_token, ip);
      expectAnswer(await c.api({ method: 'POST', path: 'password/change/', ip, via: 0, token: changing.access_token,
        body: { current_password: bob.password, new_password: NEW_PASSWORD } }), 200);
      const since = Date.now();
      const delays = await Promise.all(others.map((s, n) => refusedOnOthers(`the token of session ${n + 1}`, s.access_token, ip, since)));
      assertWithinBound(Object.assign({}, ...delays));
      expectAnswer(await c.api({ method: 'POST', path: 'refresh/', ip, via: 1, body: { refresh_token: others[0].refresh_token } }),
        401, 'REFRESH_FAILED');
      // docs/decisions.md: a full-scope caller keeps its own session.
      await acceptedEverywhere(changing.access_token, ip);
      const later = c.nextIp();
      expectAnswer(await c.api({ method: 'POST', path: 'login/email/', ip: later, via: 1,
        body: { email: bob.email, password: bob.password } }), 401, 'LOGIN_FAILED');
      await signIn(c, { ...bob, password: NEW_PASSWORD }, later, 2);
    });

    it('logout-all and a password change on A: B and C refuse the agent tokens minted before them at once', async () => {
      const ip = c.nextIp();
      const ann = c.accounts.ann;
      const agentMe = (token: string, via: number) => c.api({ path: 'me/', ip, via, agentToken: token });
      const mint = async (session: { access_token: string }, name: string) => expectAnswer(await c.api({ method: 'POST',
        path: 'ai/tokens/', ip, via: 0, token: session.access_token, body: { agent_id: name } }), 201).token as string;
      for (const [event, end] of [
        ['logout-all', (s: { access_token: string }) => c.api({ method: 'POST', path: 'logout/all/', ip, via: 0, token: s.access_token })],
        ['password change', async (s: { access_token: string }) => {
          const changed = await c.api({ method: 'POST', path: 'password/change/', ip, via: 0, token: s.access_token,
            body: { current_password: ann.password, new_password: `${ann.password}-2` } });
          // Later tests sign ann in with what her password is now.
          if (changed.status === 200) ann.password = `${ann.password}-2`;
          return changed;
        }],
      ] as const) {
        const session = await signIn(c, ann, ip, 0);
        const token = await mint(session, `cluster-${event.replace(' ', '-')}`);
        for (const i of INSTANCES) expectAnswer(await agentMe(token, i), 200);
        expectAnswer(await end(session), 200);
        // Revoked in the event's own transaction: no propagation delay to wait for.
        for (const i of [1, 2, 0]) expectAnswer(await agentMe(token, i), 401, 'AGENT_TOKEN_REVOKED');
      }
    });

    it('ban on A: B and C refuse the account\'s tokens within 1 s, and its refresh token stops', async () => {
      const ip = c.nextIp();
      const target = await signIn(c, c.accounts.cid, ip, 1);
      const admin = await signIn(c, c.accounts.root, ip, 0);
      await acceptedEverywhere(target.access_token, ip);
      expectAnswer(await c.api({ method: 'POST', path: `admin/users/${c.accounts.cid.id}/ban/`, ip, via: 0, token: admin.access_token,
        body: { reason: 'fraud' } }), 200);
      const since = Date.now();
      assertWithinBound(await refusedOnOthers('the banned account\'s token', target.access_token, ip, since));
      expectAnswer(await c.api({ method: 'POST', path: 'refresh/', ip, via: 2, body: { refresh_token: target.refresh_token } }),
        401, 'REFRESH_FAILED');
    });

    it('application credentials regenerated on A: B and C refuse the old pair within 1 s and accept the new one', async () => {
      const ip = c.nextIp();
      const old = c.partner;
      const withPair = (via: number, app: Pick<Credentials, 'access_key' | 'access_secret'>) =>
        c.api({ path: 'password/requirements/', ip, via, app });
      for (const i of INSTANCES) expectAnswer(await withPair(i, old), 200);
      const admin = await signIn(c, c.accounts.root, ip, 0);
      const answer = expectAnswer(await c.api({ method: 'POST', path: `applications/${old.id}/regenerate/`, ip, via: 0,
        token: admin.access_token, body: { confirmation: 'REGENERATE' } }), 200);
      const since = Date.now();
      const fresh = answer.credentials as Pick<Credentials, 'access_key' | 'access_secret'>;
      assertWithinBound(await delaysOn([1, 2], (i) => `instance ${NAMES[i]} refusing the old pair`, since,
        async (i) => refused(await withPair(i, old), 401, 'APP_AUTH_INVALID')));
      expectAnswer(await withPair(0, old), 401, 'APP_AUTH_INVALID');
      for (const i of INSTANCES) expectAnswer(await withPair(i, fresh), 200);
    });
  });
}
