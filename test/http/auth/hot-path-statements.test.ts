import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { decodeJwt, signIn } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { statementRecorder } from '../../helpers/statements.js';
import { useTestApp } from '../../helpers/test-app.js';
import { expectStatus } from '../../helpers/answers.js';

/**
 * What the hot requests cost the database, counted (docs/decisions.md "Database access on the hot paths"): carrying
 * `auth_time` through a sign-in, a refresh and the bearer check adds no statement to any of them.
 */
describe('statements of the hot paths', () => {
  const recorder = statementRecorder();
  const t = useTestApp({ dbPlugin: recorder.plugin, env: { SVC_REFRESH_TOKEN_ROTATION: 'true' } });
  let ann: TestUser;
  beforeEach(async () => {
    ann = await createUser(t, { email: 'ann@example.com' });
  });

  /**
   * The statements of one request, once the application's credentials are cached and this process holds the current
   * permission graph (as a running server does; docs/architecture.md "The permission graph"): a sign-in warms both.
   */
  async function counted<T>(send: () => Promise<T>): Promise<{ answer: T; statements: string[] }> {
    await signIn(t, ann);
    return recorder.during(send);
  }

  it('a password login: the account lookup and the one sign-in statement', async () => {
    const { answer, statements } = await counted(() => signIn(t, ann));
    assert.equal(statements.length, 2, statements.join('\n'));
    assert.equal(typeof decodeJwt(answer.access_token).payload.auth_time, 'number');
  });

  it('a refresh with rotation: the token read and the rotation statement', async () => {
    const pair = await signIn(t, ann);
    const { answer, statements } = await counted(async () =>
      expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: pair.refresh_token } }), 200));
    assert.equal(statements.length, 2, statements.join('\n'));
    assert.equal(decodeJwt(answer.access_token).payload.auth_time, decodeJwt(pair.access_token).payload.auth_time);
  });

  it('GET me/: the one bearer query', async () => {
    const { access_token } = await signIn(t, ann);
    const { statements } = await counted(async () => expectStatus(await t.api({ method: 'GET', path: 'me/', token: access_token }), 200));
    assert.equal(statements.length, 1, statements.join('\n'));
  });
});
