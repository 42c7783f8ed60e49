import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

const TEMPORARY = 'Temporary-pass-4417';
const CHOSEN = 'violet submarine orchestra';

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`forced password change of an account made by \`gatehouse user create --must-change-password\` (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    let server: RunningServer | undefined;
    let headers: Record<string, string>;

    before(async () => {
      database = await createScratchDatabase(kind, { prepared: true });
      const app = await runCli(['app', 'create', '--name', 'Forced change', '--json'], { env: database.env });
      assert.equal(app.code, 0, app.stderr);
      const { access_key, access_secret } = JSON.parse(app.stdout) as { access_key: string; access_secret: string };
      headers = { 'x-access-key': access_key, 'x-access-secret': access_secret, 'content-type': 'application/json' };
      const user = await runCli(['user', 'create', '--email', 'newhire@example.com', '--password-stdin',
        '--must-change-password', '--json'], { env: database.env, input: TEMPORARY });
      assert.equal(user.code, 0, user.stderr);
      server = await startServer({ env: database.env });
    });
    after(async () => {
      await server?.kill();
      await database?.drop();
    });

    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${server!.apiUrl}${path}`, {
        method, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() as Record<string, unknown> };
    };

    it('logs in with a password_change_only token, changes the password and continues with full scope', async () => {
      const first = await call('POST', 'login/email/', { email: 'newhire@example.com', password: TEMPORARY });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.must_change_password, true);
      assert.equal(first.body.token_scope, 'password_change_only');
      const restricted = first.body.access_token as string;
      const refused = await call('GET', 'me/', undefined, restricted);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'INSUFFICIENT_SCOPE');

      const changed = await call('POST', 'password/change/', { current_password: TEMPORARY, new_password: CHOSEN }, restricted);
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(typeof changed.body.access_token, 'string');
      assert.equal(typeof changed.body.refresh_token, 'string');
      const me = await call('GET', 'me/', undefined, changed.body.access_token as string);
      assert.equal(me.status, 200, JSON.stringify(me.body));

      const again = await call('POST', 'login/email/', { email: 'newhire@example.com', password: CHOSEN });
      assert.equal(again.status, 200);
      assert.equal(again.body.must_change_password, false);
      assert.equal(again.body.token_scope, undefined);
      assert.equal((await call('POST', 'login/email/', { email: 'newhire@example.com', password: TEMPORARY })).status, 401);
    });
  });
}
