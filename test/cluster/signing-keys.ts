import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { expectAnswer, INSTANCES, NAMES, signIn, type Cluster } from './helpers.js';
import { assertWithinBound, delaysOn, jwtHeader } from './propagation.js';

/**
 * docs/decisions.md "Signing keys and JWKS" and "Several instances": `gatehouse keys rotate`, run against the deployment's
 * database (and Redis), is picked up by every running instance within 1 s, which then publishes the new key first and
 * signs with it, while tokens of the previous key keep verifying.
 */
export function describeKeyRotation(c: Cluster): void {
  describe('signing-key rotation by the command', () => {
    it('within 1 s every instance publishes the new key first and signs new tokens with it; earlier tokens still verify', async () => {
      const ip = c.nextIp();
      const kids = async (via: number): Promise<string[]> =>
        (expectAnswer(await c.api({ path: '/.well-known/jwks.json', ip, via }), 200).keys as Array<{ kid: string }>).map((k) => k.kid);
      const sessions = [];
      for (const i of INSTANCES) sessions.push(await signIn(c, c.accounts.ann, ip, i));
      const previous = jwtHeader(sessions[0].access_token).kid!;
      assert.equal(jwtHeader(sessions[0].access_token).alg, 'EdDSA');
      for (const i of INSTANCES) {
        assert.equal(jwtHeader(sessions[i].access_token).kid, previous, `instance ${NAMES[i]} signs with the one key`);
        assert.equal((await kids(i))[0], previous);
      }

      const rotated = await runCli(['keys', 'rotate'], { env: c.env });
      assert.equal(rotated.code, 0, rotated.stderr);
      const since = Date.now();
      const kid = /New signing key (\S+)/.exec(rotated.stdout)?.[1];
      assert.ok(kid && kid !== previous, rotated.stdout);
      assert.match(rotated.stdout, /were told and switch at once/);

      // Each instance's probe refreshes its own session for a freshly signed token, from an address of its own so the
      // refresh limit (30 a minute per address) is never what stops it.
      const refreshTokens: string[] = sessions.map((s) => s.refresh_token);
      const refreshIps = INSTANCES.map(() => c.nextIp());
      const signedKid = async (i: number) => {
        const body = expectAnswer(await c.api({ method: 'POST', path: 'refresh/', ip: refreshIps[i]!, via: i,
          body: { refresh_token: refreshTokens[i] } }), 200);
        refreshTokens[i] = body.refresh_token;
        return jwtHeader(body.access_token).kid;
      };
      assertWithinBound(await delaysOn(INSTANCES, (i) => `instance ${NAMES[i]} publishing and signing with the new key`, since,
        async (i) => (await kids(i))[0] === kid && await signedKid(i) === kid));

      for (const i of INSTANCES) {
        assert.deepEqual((await kids(i)).slice(0, 2), [kid, previous], `instance ${NAMES[i]}'s JWKS`);
        expectAnswer(await c.api({ path: 'me/', ip, via: i, token: sessions[(i + 1) % 3].access_token }), 200);
      }
    });
  });
}
