import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

/** A login through the printed application's credentials; answers the status and `code`. */
async function login(apiUrl: string, app: { key: string; secret: string }, email: string, password: string) {
  const res = await fetch(`${apiUrl}login/email/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': app.key, 'x-access-secret': app.secret },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: await res.json() as { code?: string; must_change_password?: boolean } };
}

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`npm start and the console's first operator (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    before(async () => { database = await createScratchDatabase(kind); });
    after(async () => { await database?.drop(); });

    let printed: { email: string; password: string; app: { key: string; secret: string } } | undefined;

    it('on a fresh database prints where the console is and a temporary password that signs in, once', async () => {
      const server = await startServer({ env: database.env }, ['start']);
      try {
        await server.waitForOutput('Admin console:');
        const out = server.stdout();
        assert.match(out, new RegExp(`Admin console: ${server.origin}/console/`));
        const operator = /Sign in as (\S+) with the temporary password (\S+)/.exec(out);
        assert.ok(operator, out);
        const app = { key: /X-Access-Key: +(\S+)/.exec(out)![1]!, secret: /X-Access-Secret: +(\S+)/.exec(out)![1]! };
        printed = { email: operator[1]!, password: operator[2]!, app };
        assert.ok(printed.password.length >= 20);

        // The temporary password is accepted — to change it, and set up two-factor authentication (a staff account).
        const accepted = await login(server.apiUrl, app, printed.email, printed.password);
        assert.notEqual(accepted.status, 401, JSON.stringify(accepted.body));
        assert.ok(accepted.body.code === 'ADMIN_2FA_SETUP_REQUIRED' || accepted.body.must_change_password === true, JSON.stringify(accepted.body));
        assert.equal((await login(server.apiUrl, app, printed.email, 'not it at all')).body.code, 'LOGIN_FAILED');
      } finally {
        await server.stop();
      }
      const [row] = await database.inspect((db) => db.selectFrom('users')
        .select(['id', 'is_staff', 'must_change_password', 'password_hash']).where('email', '=', printed!.email).execute());
      assert.ok(row);
      assert.equal(row.is_staff, true);
      assert.equal(row.must_change_password, true);
      assert.ok(!row.password_hash?.includes(printed!.password), 'only the argon2id hash is stored');
      const roles = await database.inspect((db) => db.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select('roles.code').where('user_roles.user_id', '=', row.id).execute());
      assert.ok(roles.some((r) => r.code === 'admin'));
    });

    it('started again, creates no other operator and prints no password', async () => {
      assert.ok(printed, 'depends on the first start');
      const server = await startServer({ env: database.env }, ['start']);
      try {
        await server.waitForOutput('Admin console:');
        await server.waitForOutput('Sign in with a staff account');
        assert.doesNotMatch(server.stdout(), /temporary password/);
      } finally {
        await server.stop();
      }
      const staff = await database.inspect((db) => db.selectFrom('users').select('id').where('is_staff', '=', true).execute());
      assert.equal(staff.length, 1);
    });
  });
}
