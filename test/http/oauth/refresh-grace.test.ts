import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { createUser, type TestUser } from '../../factories/users.js';
import type { TestApp } from '../../helpers/test-app.js';
import { startOauthApp, type OauthApp } from './flow.js';

// docs/oauth.md "Tokens": refresh tokens rotate with a reuse grace (SVC_REFRESH_TOKEN_REUSE_GRACE, 10 s here): a retired
// token presented again within it answers the same successor; after it, the whole grant is revoked.
const GRACE = 10;

describe('OAuth refresh tokens: rotation with a reuse grace', () => {
  let oauth: OauthApp;
  let t: TestApp;
  let config: client.Configuration;
  let n = 0;
  const person = () => createUser(t, { email: `grace-${++n}@example.com` });
  const refused = (err: { error?: string }) => err.error === 'invalid_grant';

  before(async () => {
    oauth = await startOauthApp({ SVC_REFRESH_TOKEN_REUSE_GRACE: String(GRACE) });
    t = oauth.t;
    config = await oauth.relyingParty();
  });
  after(() => t.close());

  const start = async (who: TestUser) => oauth.tokensFor(config, who, 'openid offline_access');

  it('answers a retired token presented again within the grace with the same successor, which then rotates as usual', async () => {
    const first = await start(await person());
    const second = await client.refreshTokenGrant(config, first.refresh_token!);
    assert.notEqual(second.refresh_token, first.refresh_token);
    const again = await client.refreshTokenGrant(config, first.refresh_token!);
    assert.equal(again.refresh_token, second.refresh_token, 'the same successor');
    assert.notEqual(again.access_token, second.access_token, 'with an access token of its own');
    assert.equal((await client.tokenIntrospection(config, again.access_token)).active, true);
    const third = await client.refreshTokenGrant(config, second.refresh_token!);
    assert.notEqual(third.refresh_token, second.refresh_token, 'the successor rotates when it is used');
    // Its successor was used meanwhile: the retired one is refused, and nothing is revoked.
    await assert.rejects(client.refreshTokenGrant(config, first.refresh_token!), refused);
    assert.ok((await client.refreshTokenGrant(config, third.refresh_token!)).refresh_token);
  });

  it('settles two refreshes racing with one token without revoking: both get the successor, the loser at its retry', async () => {
    const first = await start(await person());
    const answers = await Promise.allSettled([client.refreshTokenGrant(config, first.refresh_token!),
      client.refreshTokenGrant(config, first.refresh_token!)]);
    const won = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    assert.ok(won.length >= 1, 'one of them rotates the token');
    const successor = won[0]!.refresh_token;
    for (const a of answers) {
      const got = a.status === 'fulfilled' ? a.value : await client.refreshTokenGrant(config, first.refresh_token!);
      assert.equal(got.refresh_token, successor);
    }
    assert.ok((await client.refreshTokenGrant(config, successor!)).refresh_token, 'nothing was revoked');
  });

  it('revokes the whole grant when a retired token comes back after the grace', async () => {
    const first = await start(await person());
    const second = await client.refreshTokenGrant(config, first.refresh_token!);
    t.clock.advance(GRACE + 1);
    await assert.rejects(client.refreshTokenGrant(config, first.refresh_token!), refused);
    await assert.rejects(client.refreshTokenGrant(config, second.refresh_token!), refused, 'the grant went with it');
    assert.equal((await client.tokenIntrospection(config, second.access_token)).active, false);
  });

  it('keeps no token: the successor is derived, only hashes are stored', async () => {
    const first = await start(await person());
    const second = await client.refreshTokenGrant(config, first.refresh_token!);
    const rows = await t.container.db.selectFrom('oauth_records').selectAll().execute();
    const text = JSON.stringify(rows);
    for (const token of [first.refresh_token!, second.refresh_token!, second.access_token]) assert.ok(!text.includes(token));
  });
});
