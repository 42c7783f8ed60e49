import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lines, runCli } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

const PASSWORD = 'Correct-horse-battery-9';

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse user create (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    let createdId: number;

    before(async () => {
      database = await createScratchDatabase(kind, { prepared: true });
    });
    after(async () => {
      await database?.drop();
    });

    /** Expects exit 1, nothing on stdout and exactly one line on stderr; returns that line. */
    async function expectOneLineFailure(args: string[], password = PASSWORD): Promise<string> {
      const result = await runCli(['user', 'create', ...args, '--password-stdin', '--json'], { env: database.env, input: password });
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, '');
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      return result.stderr.trim();
    }

    it('prints {"id","email"} with the email lower-cased and exits 0', async () => {
      const result = await runCli([
        'user', 'create', '--email', '  Ada.Lovelace@Example.COM ', '--password-stdin', '--phone', '+1 415 555 2671',
        '--first-name', 'Ada', '--last-name', 'Lovelace', '--role', 'admin', '--staff', '--superuser',
        '--must-change-password', '--verified', '--json',
      ], { env: database.env, input: `${PASSWORD}\n` });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(lines(result.stdout).length, 1);
      const printed = JSON.parse(result.stdout) as { id: number; email: string };
      assert.deepEqual(Object.keys(printed).sort(), ['email', 'id']);
      assert.equal(printed.email, 'ada.lovelace@example.com');
      assert.equal(typeof printed.id, 'number');
      createdId = printed.id;
    });

    it('stores the flags, the E.164 phone, the roles and an argon2id (m=19456, t=2, p=1) password hash', async () => {
      assert.ok(createdId, 'depends on the user created above');
      const { user, roles } = await database.inspect(async (db) => ({
        user: await db.selectFrom('users').select([
          'email', 'phone', 'first_name', 'last_name', 'password_hash', 'has_usable_password', 'is_staff', 'is_superuser',
          'must_change_password', 'is_email_verified', 'is_phone_verified', 'is_active', 'is_banned', 'deleted_at',
        ]).where('id', '=', createdId).executeTakeFirstOrThrow(),
        roles: await db.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id')
          .select('roles.code').where('user_roles.user_id', '=', createdId).orderBy('roles.code').execute(),
      }));
      assert.equal(user.email, 'ada.lovelace@example.com');
      assert.equal(user.phone, '+14155552671');
      assert.equal(user.first_name, 'Ada');
      assert.equal(user.last_name, 'Lovelace');
      const hash = user.password_hash ?? '';
      assert.ok(hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$'), hash);
      assert.ok(!hash.includes(PASSWORD));
      assert.equal(user.has_usable_password, true);
      assert.equal(user.is_staff, true);
      assert.equal(user.is_superuser, true);
      assert.equal(user.must_change_password, true);
      assert.equal(user.is_email_verified, true);
      assert.equal(user.is_phone_verified, true);
      assert.equal(user.is_active, true);
      assert.equal(user.is_banned, false);
      assert.equal(user.deleted_at, null);
      // The default role comes with every account; --role adds to it.
      assert.deepEqual(roles.map((r) => r.code), ['admin', 'user']);
    });

    it('without the optional flags creates an unprivileged, unverified account', async () => {
      const result = await runCli(['user', 'create', '--email', 'plain@example.com', '--password-stdin'],
        { env: database.env, input: PASSWORD });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /plain@example\.com/);
      const user = await database.inspect((db) => db.selectFrom('users')
        .select(['phone', 'is_staff', 'is_superuser', 'must_change_password', 'is_email_verified'])
        .where('email', '=', 'plain@example.com').executeTakeFirstOrThrow());
      assert.deepEqual(user, { phone: null, is_staff: false, is_superuser: false, must_change_password: false, is_email_verified: false });
    });

    it('a duplicate email (in any case) exits 1 with one line naming the email', async () => {
      const line = await expectOneLineFailure(['--email', 'ADA.LOVELACE@example.com']);
      assert.match(line, /email/i);
      assert.match(line, /already exists/);
    });

    it('a phone number that is not +<country code><number> exits 1 with one line naming the phone', async () => {
      const line = await expectOneLineFailure(['--email', 'phone@example.com', '--phone', '4155552671']);
      assert.match(line, /phone/i);
    });

    it('an unknown role exits 1 with one line naming the role', async () => {
      const line = await expectOneLineFailure(['--email', 'role@example.com', '--role', 'wizard']);
      assert.match(line, /role/i);
      assert.match(line, /wizard/);
    });

    it('a password shorter than the policy allows exits 1 with one line naming the password', async () => {
      const line = await expectOneLineFailure(['--email', 'short@example.com'], 'Ab1!');
      assert.match(line, /password/i);
      assert.match(line, /at least \d+ characters/);
    });

    it('a common password exits 1 with one line saying so', async () => {
      const line = await expectOneLineFailure(['--email', 'common@example.com'], 'password123');
      assert.match(line, /too common/);
    });

    it('--generate-password creates the account with a strong password printed once, the one its hash holds', async () => {
      const json = await runCli(['user', 'create', '--email', 'generated@example.com', '--generate-password', '--json'],
        { env: database.env });
      assert.equal(json.code, 0, json.stderr);
      const printed = JSON.parse(json.stdout) as { id: number; email: string; password: string };
      assert.deepEqual(Object.keys(printed).sort(), ['email', 'id', 'password']);
      assert.ok(printed.password.length >= 20, printed.password);
      const text = await runCli(['user', 'create', '--email', 'generated2@example.com', '--generate-password'], { env: database.env });
      assert.equal(text.code, 0, text.stderr);
      const shown = /Password \(shown this once\): (\S+)/.exec(text.stdout)?.[1];
      assert.ok(shown && shown !== printed.password, text.stdout);
      const { hash } = await database.inspect(async (db) => ({ hash: (await db.selectFrom('users').select('password_hash')
        .where('id', '=', printed.id).executeTakeFirstOrThrow()).password_hash! }));
      const { verify } = await import('@node-rs/argon2');
      assert.equal(await verify(hash, printed.password), true);
    });

    it('refuses a password on the command line, several lines on stdin, and no password source without a terminal', async () => {
      const cases: Array<[string[], string | undefined, RegExp]> = [
        [['--password', PASSWORD], undefined, /--password is not accepted .*--password-stdin/],
        [['--password-stdin'], `${PASSWORD}\nsecond line\n`, /--password-stdin expects one line/],
        [['--password-stdin'], '', /--password-stdin read nothing/],
        [[], undefined, /no terminal to ask for the password on; pipe it with --password-stdin/],
        [['--password-stdin', '--generate-password'], PASSWORD, /exclude each other/],
      ];
      for (const [args, input, pattern] of cases) {
        const result = await runCli(['user', 'create', '--email', 'refused@example.com', ...args], { env: database.env, input });
        assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
        assert.equal(result.stdout, '');
        assert.equal(lines(result.stderr).length, 1, result.stderr);
        assert.match(result.stderr, pattern);
        assert.ok(!result.stderr.includes(PASSWORD), 'the password is never repeated');
      }
    });

    it('none of the refused users was stored', async () => {
      const emails = await database.inspect((db) => db.selectFrom('users').select('email').orderBy('id').execute());
      assert.deepEqual(emails.map((r) => r.email),
        ['ada.lovelace@example.com', 'plain@example.com', 'generated@example.com', 'generated2@example.com']);
    });

    it('without --email exits 1 with the usage', async () => {
      const result = await runCli(['user', 'create', '--password-stdin', '--json'], { env: database.env, input: PASSWORD });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, /--email is required/);
      assert.match(result.stderr, /usage: gatehouse user create --email E \[--password-stdin \| --generate-password\]/);
    });
  });
}
