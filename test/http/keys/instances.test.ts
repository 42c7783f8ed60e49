import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { eventually, fetchJwks, freshToken, keysEnv, kidsOf } from './helpers.js';

/**
 * Two instances on one database (and one Redis when TEST_REDIS_URL is set: the same key prefix, so they hear each
 * other's announcements), as several stateless instances run in production.
 */
describe('several instances share the signing keys', () => {
  let a: TestApp;
  let b: TestApp;
  const env = keysEnv('ES256', { SVC_REDIS_KEY_PREFIX: `test:${process.pid}:${randomBytes(4).toString('hex')}:` });

  before(async () => {
    // Each test file has a database of its own, with no key yet: both instances start at once on it.
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('two instances starting at once create one key and both sign with it', async () => {
    const stored = await a.container.db.selectFrom('signing_keys').select(['kid', 'superseded_at']).execute();
    assert.equal(stored.length, 1, JSON.stringify(stored));
    const [fromA, fromB] = [await freshToken(a), await freshToken(b)];
    assert.deepEqual([fromA.kid, fromB.kid], [stored[0]!.kid, stored[0]!.kid]);
  });

  // Instances hear of a rotation over Redis or PostgreSQL's NOTIFY; the embedded database admits one process, so one
  // instance, and its two here would hear only at the 5 s poll.
  it('a rotation on one instance is picked up by the other within a second: it publishes and signs with the new key', {
    skip: process.env.TEST_DATABASE_URL ? false : 'the embedded database has no other instance to tell',
  }, async () => {
    const rotation = await a.container.services.keys.rotate();
    await eventually('instance b publishing the new key', async () => kidsOf(await fetchJwks(b))[0] === rotation.kid, 1000);
    assert.equal((await freshToken(b)).kid, rotation.kid);
    assert.deepEqual(kidsOf(await fetchJwks(b)), kidsOf(await fetchJwks(a)));
  });

  it('a token of a key rotated in a moment ago on another instance is accepted at once', async () => {
    const rotation = await a.container.services.keys.rotate();
    const token = await freshToken(a);
    assert.equal(token.kid, rotation.kid);
    // Presented to b right away, whether or not b has heard of the rotation yet, with a's application credentials.
    const res = await b.api({ method: 'GET', path: 'me/', token: token.token, appAuth: false, headers: a.headers });
    assert.equal(res.statusCode, 200, res.body);
  });
});
