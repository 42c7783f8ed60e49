import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useTestApp } from '../../helpers/test-app.js';
import { agentApi, delegate } from '../agents/helpers.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

/** docs/social-login.md: GET me/social-accounts/ and DELETE me/social-accounts/<id>/. */
describe('me/social-accounts/', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let ann: Account;
  let bob: Account;
  beforeEach(async () => {
    [ann, bob] = [await account(t), await account(t)];
  });

  const link = async (who: Account, provider: string, subject: string, linkedAt: string) =>
    (await t.container.db.insertInto('social_accounts').values({ user_id: who.id, provider, subject, email: who.email,
      linked_at: new Date(linkedAt) }).returning('id').executeTakeFirstOrThrow()).id;
  const list = (who: Account, query = '') => t.api({ method: 'GET', path: `me/social-accounts/${query}`, token: who.token });
  const unlink = (who: Account, id: number | string) => t.api({ method: 'DELETE', path: `me/social-accounts/${id}/`, token: who.token });
  const remaining = async (who: Account) =>
    (await t.container.db.selectFrom('social_accounts').select('provider').where('user_id', '=', who.id).orderBy('id').execute())
      .map((r) => r.provider);
  const dropPassword = (who: Account) =>
    t.container.db.updateTable('users').set({ password_hash: null, has_usable_password: false }).where('id', '=', who.id).execute();

  it("lists the caller's identities, oldest link first, as a paged list — never another account's", async () => {
    const github = await link(ann, 'github', 'gh-1', '2026-01-02T00:00:00Z');
    const google = await link(ann, 'google', 'g-1', '2026-01-01T00:00:00Z');
    await link(bob, 'github', 'gh-2', '2026-01-01T00:00:00Z');
    const body = expectStatus(await list(ann), 200);
    assert.equal(body.count, 2);
    assert.deepEqual(body.results, [
      { id: google, provider: 'google', email: ann.email, linked_at: '2026-01-01T00:00:00.000Z', last_login_at: null },
      { id: github, provider: 'github', email: ann.email, linked_at: '2026-01-02T00:00:00.000Z', last_login_at: null },
    ]);
    assert.deepEqual(expectStatus(await list(ann, '?page_size=1&page=2'), 200).results.map((r: { id: number }) => r.id), [github]);
  });

  it('unlinks an identity while a password remains, and audits it', async () => {
    const github = await link(ann, 'github', 'gh-1', '2026-01-01T00:00:00Z');
    expectStatus(await unlink(ann, github), 200);
    assert.deepEqual(await remaining(ann), []);
    const events = await auditEvents(t, 'social_account_unlinked');
    assert.deepEqual(events.map((e) => [e.user_id, e.details]), [[ann.id, { social_account_id: github }]]);
  });

  it('without a password, unlinks all identities but the last: 400 LAST_LOGIN_METHOD', async () => {
    await dropPassword(ann);
    const github = await link(ann, 'github', 'gh-1', '2026-01-01T00:00:00Z');
    const google = await link(ann, 'google', 'g-1', '2026-01-02T00:00:00Z');
    expectStatus(await unlink(ann, github), 200);
    assert.equal(expectStatus(await unlink(ann, google), 400).code, 'LAST_LOGIN_METHOD');
    assert.deepEqual(await remaining(ann), ['google']);
  });

  it('keeps one identity when the last two are unlinked at once', async () => {
    await dropPassword(ann);
    const ids = [await link(ann, 'github', 'gh-1', '2026-01-01T00:00:00Z'), await link(ann, 'google', 'g-1', '2026-01-02T00:00:00Z')];
    const answers = await Promise.all(ids.map((id) => unlink(ann, id)));
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 400]);
    assert.equal((await remaining(ann)).length, 1);
  });

  it("answers 404 for another account's identity or an unknown one, and changes nothing", async () => {
    const bobs = await link(bob, 'github', 'gh-2', '2026-01-01T00:00:00Z');
    assert.equal(expectStatus(await unlink(ann, bobs), 404).code, 'NOT_FOUND');
    assert.equal(expectStatus(await unlink(ann, 999999), 404).code, 'NOT_FOUND');
    assert.deepEqual(await remaining(bob), ['github']);
  });

  it('needs a user bearer: 401 without one, 403 AGENT_NOT_ALLOWED for an agent', async () => {
    assert.equal((await t.api({ method: 'GET', path: 'me/social-accounts/' })).statusCode, 401);
    const agent = await delegate(t, ann);
    const res = await agentApi(t)('GET', 'me/social-accounts/', agent.token);
    assert.equal(expectStatus(res, 403).code, 'AGENT_NOT_ALLOWED');
  });
});
