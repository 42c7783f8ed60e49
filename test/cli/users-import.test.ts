import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { hash as argon2Hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { PRODUCTION_ARGON2 } from '../../src/security/password-hash.js';
import { lines, runCli, type CliResult } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';
import { FORMATS, foreignHash, secretPartsOf, writeImportFile } from './users-import-fixtures.js';

const PASSWORD = 'Imported-pass-2291';

/** What the tests read back of an imported account. */
const USER_COLUMNS = ['id', 'email', 'phone', 'username', 'first_name', 'last_name', 'is_email_verified', 'is_phone_verified',
  'password_hash', 'has_usable_password', 'password_hash_unnormalized', 'updated_at'] as const;

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse users import (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    let file: string;
    const hashes: string[] = [];
    const outputs: CliResult[] = [];

    const run = async (...args: string[]) => {
      const result = await runCli(['users', 'import', ...args], { env: database.env });
      outputs.push(result);
      return result;
    };
    const users = () => database.inspect((db) => db.selectFrom('users').select(USER_COLUMNS).orderBy('email').execute());
    const rolesOf = (email: string) => database.inspect(async (db) => (await db.selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id').innerJoin('users', 'users.id', 'user_roles.user_id')
      .select('roles.code').where('users.email', '=', email).orderBy('roles.code').execute()).map((r) => r.code));

    before(async () => {
      database = await createScratchDatabase(kind, { prepared: true });
      for (const format of FORMATS) hashes.push(await foreignHash(format, PASSWORD));
      const md5Like = `md5$${'0123456789abcdef'.repeat(2)}$${'fedcba9876543210'.repeat(2)}`;
      hashes.push(md5Like);
      const good = FORMATS.map((format, i) => ({ email: `${format}@example.com`, password_hash: hashes[i] }));
      file = await writeImportFile('users.jsonl', [
        { ...good[0], first_name: 'Ada', last_name: 'Lovelace', username: 'ada', phone: '+1 415 555 2671',
          is_email_verified: true, is_phone_verified: true, roles: ['admin'] },
        ...good.slice(1, 4),
        '{"email": "broken@example.com", "password_hash": "' + hashes[0],
        { email: 'not-an-email', password_hash: hashes[1] },
        { email: 'wizard@example.com', roles: ['wizard'], password_hash: hashes[2] },
        { email: 'md5@example.com', password_hash: md5Like },
        '',
        { email: 'costly@example.com', password_hash: `$scrypt$ln=24,r=8,p=1$${'A'.repeat(22)}$${'B'.repeat(43)}` },
        ...good.slice(4),
        { email: 'NoPassword@Example.com', first_name: 'No', last_name: 'Password', is_email_verified: true },
        { email: 'argon2id@example.com', first_name: 'Twice' },
        { email: 'phone-twice@example.com', phone: '+14155552671' },
        { email: 'extra@example.com', id: 42 },
        { email: 'long@example.com', first_name: 'a'.repeat(70_000) },
      ]);
    });
    after(async () => {
      await database?.drop();
    });

    it('--dry-run checks every line, reports the bad ones, and writes nothing', async () => {
      const result = await run(file, '--dry-run');
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /Dry run of users\.jsonl: 18 line\(s\)/);
      assert.match(result.stdout, /nothing was written/);
      assert.match(result.stdout, /created: +9\n/);
      assert.match(result.stdout, /skipped: +9 /);
      assert.deepEqual(await users(), []);
      const audit = await database.inspect((db) => db.selectFrom('audit_events').select('id')
        .where('event_type', '=', 'users_imported').execute());
      assert.deepEqual(audit, []);
    });

    it('imports the good lines and reports each bad one with its line number, writing nothing of it', async () => {
      const result = await run(file);
      assert.equal(result.code, 1, result.stderr);
      const reported = lines(result.stderr);
      assert.match(reported[0]!, /^line 5: not valid JSON( \(at character \d+\))?$/);
      assert.deepEqual(reported.slice(1, -1), [
        'line 6: email: not a valid email address',
        'line 7: roles: unknown role "wizard"',
        'line 8: password_hash: unknown password hash format (accepted: argon2id, argon2i, bcrypt, bcrypt_sha256, pbkdf2_sha256, scrypt)',
        'line 10: password_hash: scrypt memory 128·N·r (ln=24, r=8) exceeds the limit of 256 MiB',
        'line 16: email: same as line 1',
        'line 17: phone: same as line 1',
        'line 18: unknown field "id"',
        'line 19: longer than 65536 bytes',
      ]);
      assert.match(reported.at(-1)!, /^gatehouse: 9 line\(s\) skipped/);
      assert.match(result.stdout, /created: +9\n/);
      assert.match(result.stdout, new RegExp('skipped: +9 \\(invalid_json 1, invalid_email 1, unknown_role 1, unknown_hash_format 1, '
        + 'hash_too_costly 1, duplicate_email 1, phone_taken 1, unknown_field 1, line_too_long 1\\)'));

      const stored = await users();
      assert.deepEqual(stored.map((u) => u.email), [...FORMATS.map((f) => `${f}@example.com`), 'nopassword@example.com'].sort());
      for (const [i, format] of FORMATS.entries()) {
        const row = stored.find((u) => u.email === `${format}@example.com`)!;
        assert.equal(row.password_hash, hashes[i], format);
        assert.equal(row.has_usable_password, true);
        assert.equal(row.password_hash_unnormalized, true);
      }
      const ada = stored.find((u) => u.email === 'argon2id@example.com')!;
      assert.deepEqual({ ...ada, id: 0, updated_at: null, password_hash: null }, {
        id: 0, email: 'argon2id@example.com', phone: '+14155552671', username: 'ada', first_name: 'Ada', last_name: 'Lovelace',
        is_email_verified: true, is_phone_verified: true, password_hash: null, has_usable_password: true,
        password_hash_unnormalized: true, updated_at: null,
      });
      assert.deepEqual(await rolesOf('argon2id@example.com'), ['admin', 'user']);
      assert.deepEqual(await rolesOf('argon2i@example.com'), ['user']);
      const none = stored.find((u) => u.email === 'nopassword@example.com')!;
      assert.equal(none.password_hash, null);
      assert.equal(none.has_usable_password, false);
      assert.equal(none.is_email_verified, true);
      const audit = await database.inspect((db) => db.selectFrom('audit_events').select('details')
        .where('event_type', '=', 'users_imported').execute());
      assert.equal(audit.length, 1);
      assert.deepEqual(audit[0]!.details, { created: 9, updated: 0, unchanged: 0, skipped: 9 });
    });

    it('run again, the same file changes nothing', async () => {
      const before = await users();
      const result = await run(file);
      assert.match(result.stdout, /created: +0\n +updated: +0\n +unchanged: +9\n/);
      assert.deepEqual(await users(), before);
    });

    it('without --update a changed line is left alone and counted; with --update the changes are applied and listed', async () => {
      const newHash = await foreignHash('bcrypt-2b', 'Another-pass-5');
      hashes.push(newHash);
      const changed = await writeImportFile('changed.jsonl', [
        { email: 'argon2id@example.com', first_name: 'Augusta', is_email_verified: false, roles: ['admin'] },
        { email: 'argon2i@example.com', password_hash: newHash, roles: ['admin'], is_email_verified: true },
        { email: 'bcrypt-2a@example.com', phone: '+44 20 7946 0958' },
        { email: 'scrypt@example.com' },
        { email: 'new@example.com', last_name: 'Newcomer' },
      ]);
      const before = await users();
      const plain = await run(changed);
      assert.equal(plain.code, 0, plain.stderr);
      assert.match(plain.stdout, /created: +1\n +updated: +0\n +unchanged: +4 \(3 differ from the file; --update applies/);
      assert.deepEqual((await users()).filter((u) => u.email !== 'new@example.com'), before);

      const updated = await run(changed, '--update');
      assert.equal(updated.code, 0, updated.stderr);
      assert.deepEqual(lines(updated.stdout).slice(0, 3), [
        'line 1: argon2id@example.com: updated first_name',
        'line 2: argon2i@example.com: updated is_email_verified, password_hash, roles (+admin)',
        'line 3: bcrypt-2a@example.com: updated phone',
      ]);
      assert.match(updated.stdout, /created: +0\n +updated: +3\n +unchanged: +2\n/);
      const after = await users();
      const row = (email: string) => after.find((u) => u.email === email)!;
      assert.equal(row('argon2id@example.com').first_name, 'Augusta');
      // A verification is never taken back by an import.
      assert.equal(row('argon2id@example.com').is_email_verified, true);
      assert.equal(row('argon2i@example.com').password_hash, newHash);
      assert.equal(row('argon2i@example.com').is_email_verified, true);
      assert.deepEqual(await rolesOf('argon2i@example.com'), ['admin', 'user']);
      assert.equal(row('bcrypt-2a@example.com').phone, '+442079460958');
      assert.equal(row('bcrypt-2a@example.com').is_phone_verified, false);
      assert.deepEqual(row('scrypt@example.com'), before.find((u) => u.email === 'scrypt@example.com'));

      const again = await run(changed, '--update');
      assert.match(again.stdout, /created: +0\n +updated: +0\n +unchanged: +5\n/);
    });

    it('--update never replaces a password set in Gatehouse', async () => {
      // What `gatehouse user create` stores: argon2id at Gatehouse's parameters.
      const native = await argon2Hash('Violet-harbour-7713', { algorithm: 2, ...PRODUCTION_ARGON2 });
      const preferences = JSON.stringify({ email_notifications: true, sms_notifications: false, marketing_emails: false });
      await database.inspect((db) => db.insertInto('users').values({ email: 'native@example.com', password_hash: native,
        has_usable_password: true, preferences }).execute());
      const changed = await writeImportFile('native.jsonl', [{ email: 'native@example.com', password_hash: hashes[0], first_name: 'Nat' }]);
      const result = await run(changed, '--update');
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(lines(result.stdout)[0], 'line 1: native@example.com: updated first_name');
      const row = (await users()).find((u) => u.email === 'native@example.com')!;
      assert.equal(row.password_hash, native);
    });

    it('a line the database refuses is skipped alone: its batch is rolled back and settled line by line', async () => {
      // A trigger stands in for a concurrent registration taking the address between the check and the insert.
      await database.inspect(async (db) => {
        await sql`create function refuse_import_row() returns trigger language plpgsql as $$
          begin
            if new.email = 'raced@example.com' then
              raise exception 'duplicate key value violates unique constraint "users_phone_key"'
                using errcode = 'unique_violation', constraint = 'users_phone_key';
            end if;
            return new;
          end $$`.execute(db);
        await sql`create trigger refuse_import_row before insert on users for each row execute function refuse_import_row()`.execute(db);
      });
      try {
        const batch = await writeImportFile('raced.jsonl', [
          { email: 'before@example.com', roles: ['admin'] }, { email: 'raced@example.com', phone: '+14155550123' },
          { email: 'after@example.com' },
        ]);
        const result = await run(batch);
        assert.equal(result.code, 1);
        assert.equal(lines(result.stderr)[0], 'line 2: phone: already used by another account');
        assert.match(result.stdout, /created: +2\n/);
        const emails = (await users()).map((u) => u.email);
        assert.ok(emails.includes('before@example.com') && emails.includes('after@example.com'));
        assert.ok(!emails.includes('raced@example.com'));
        assert.deepEqual(await rolesOf('before@example.com'), ['admin', 'user']);
      } finally {
        await database.inspect(async (db) => {
          await sql`drop trigger refuse_import_row on users`.execute(db);
          await sql`drop function refuse_import_row()`.execute(db);
        });
      }
    });

    it('no password hash, salt or digest appears in any output, and piped output carries no progress bar', () => {
      assert.ok(outputs.length >= 8);
      const printed = outputs.map((o) => o.stdout + o.stderr).join('\n');
      for (const hash of hashes) {
        for (const part of secretPartsOf(hash)) assert.ok(!printed.includes(part), `printed part of ${hash.slice(0, 12)}…`);
      }
      assert.ok(!/[\r\x1b]/.test(printed), 'control characters in piped output');
    });

    it('a missing file or an unknown format exits 1 with one line', async () => {
      for (const args of [['/nonexistent/users.jsonl'], [file, '--format', 'csv'], []]) {
        const result = await runCli(['users', 'import', ...args], { env: database.env });
        assert.equal(result.code, 1);
        assert.equal(lines(result.stderr).length, 1, result.stderr);
        assert.match(result.stderr, /^gatehouse: users import: /);
      }
    });

    // `script` gives the command a terminal, as an operator's shell would.
    const withoutScript = existsSync('/usr/bin/script') ? false : 'util-linux `script` is not installed';
    it('on a terminal, draws a progress bar on stderr', { skip: withoutScript }, async () => {
      const big = await writeImportFile('tty.jsonl', Array.from({ length: 2500 }, (_, i) => ({ email: `tty-${i}@example.com` })));
      const command = ['node', '--import', import.meta.resolve('tsx'), new URL('../helpers/cli-entry.ts', import.meta.url).pathname,
        'users', 'import', big].map((a) => `'${a}'`).join(' ');
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, SVC_DEBUG: 'true', SVC_LOG_LEVEL: 'warn', ...database.env };
      const result = spawnSync('script', ['-qefc', command, '/dev/null'], { env, encoding: 'utf8', timeout: 180_000 });
      assert.equal(result.status, 0, result.stdout);
      assert.match(result.stdout, /\[#+-*\] +\d+%/);
      assert.match(result.stdout, /created: +2,500/);
    });
  });
}
