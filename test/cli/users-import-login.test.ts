import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';
import { FORMATS, foreignHash, writeImportFile } from './users-import-fixtures.js';

const PASSWORD = 'Imported-pass-2291';
/** "ﬁ" (U+FB01) becomes "fi" under NFKC: the other system hashed the text as typed, and that must still sign in. */
const LIGATURE_PASSWORD = 'Of-ﬁve-ﬁelds-7';
const GATEHOUSE_ARGON2 = '$argon2id$v=19$m=19456,t=2,p=1$';

const emailOf = (format: string) => `${format}@import.example.com`;

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`imported password hashes at login over HTTP (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    let server: RunningServer | undefined;
    let headers: Record<string, string>;
    const imported = new Map<string, string>();

    const env = () => ({ ...database.env, SVC_RATE_LIMITING_ENABLED: 'false' });
    const login = async (email: string, password: string) => {
      const started = performance.now();
      const res = await fetch(`${server!.apiUrl}login/email/`, { method: 'POST', headers, body: JSON.stringify({ email, password }) });
      return { status: res.status, body: await res.json() as Record<string, unknown>, ms: performance.now() - started };
    };
    const storedHashes = () => database.inspect((db) => db.selectFrom('users')
      .select(['email', 'password_hash', 'password_hash_unnormalized']).where('email', 'like', '%@import.example.com').execute());

    before(async () => {
      database = await createScratchDatabase(kind, { prepared: true });
      const app = await runCli(['app', 'create', '--name', 'Import login', '--json'], { env: database.env });
      assert.equal(app.code, 0, `app create: ${app.stdout}${app.stderr}`);
      const { access_key, access_secret } = JSON.parse(app.stdout) as { access_key: string; access_secret: string };
      headers = { 'x-access-key': access_key, 'x-access-secret': access_secret, 'content-type': 'application/json' };
      for (const format of FORMATS) imported.set(emailOf(format), await foreignHash(format, PASSWORD));
      imported.set(emailOf('ligature'), await foreignHash('bcrypt-2b', LIGATURE_PASSWORD));
      const file = await writeImportFile('login.jsonl', [...imported].map(([email, password_hash]) => ({ email, password_hash })));
      const result = await runCli(['users', 'import', file], { env: database.env });
      assert.equal(result.code, 0, `users import: ${result.stdout}${result.stderr}`);
      assert.match(result.stdout, new RegExp(`created: +${imported.size}\\b`));
      // A hash that reached the database without the import's checks: scrypt at N = 2^30 would stall every attempt.
      await database.inspect((db) => db.insertInto('users').values({
        email: emailOf('hostile'), password_hash: '$scrypt$ln=30,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$' + 'A'.repeat(43),
        has_usable_password: true, password_hash_unnormalized: true,
        preferences: JSON.stringify({ email_notifications: true, sms_notifications: false, marketing_emails: false }),
      }).execute());
    });
    after(async () => {
      await server?.kill();
      await database?.drop();
    });

    it('stores each imported hash as given, marked as hashed from the text as typed', async () => {
      const rows = await storedHashes();
      for (const [email, hash] of imported) {
        const row = rows.find((r) => r.email === email);
        assert.equal(row?.password_hash, hash, email);
        assert.equal(row?.password_hash_unnormalized, true, email);
      }
    });

    describe('first sign-in', () => {
      before(async () => { server = await startServer({ env: env() }); });
      after(async () => { await server?.stop(); server = undefined; });

      for (const format of FORMATS) {
        it(`${format}: a wrong password answers 401 LOGIN_FAILED, the right one 200 with tokens`, async () => {
          const wrong = await login(emailOf(format), `${PASSWORD}x`);
          assert.equal(wrong.status, 401, JSON.stringify(wrong.body));
          assert.equal(wrong.body.code, 'LOGIN_FAILED');
          const right = await login(emailOf(format), PASSWORD);
          assert.equal(right.status, 200, JSON.stringify(right.body));
          assert.equal(typeof right.body.access_token, 'string');
        });
      }

      it('a bcrypt hash of a password that NFKC changes signs in with the password as typed, and only with it', async () => {
        assert.equal((await login(emailOf('ligature'), 'Of-five-fields-7')).status, 401);
        assert.equal((await login(emailOf('ligature'), LIGATURE_PASSWORD)).status, 200);
      });

      it('a hash beyond the verification bounds is refused at once, never computed', async () => {
        const res = await login(emailOf('hostile'), PASSWORD);
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'LOGIN_FAILED');
        assert.ok(res.ms < 5_000, `took ${res.ms} ms`);
      });
    });

    it('after the first success every imported hash is replaced by argon2id at Gatehouse parameters', async () => {
      const rows = await storedHashes();
      for (const email of imported.keys()) {
        const row = rows.find((r) => r.email === email)!;
        assert.ok(row.password_hash?.startsWith(GATEHOUSE_ARGON2), `${email}: ${row.password_hash?.slice(0, 32)}`);
        assert.equal(row.password_hash_unnormalized, false, email);
      }
      const hostile = rows.find((r) => r.email === emailOf('hostile'))!;
      assert.ok(hostile.password_hash?.startsWith('$scrypt$ln=30'), 'a refused hash is left as it was');
    });

    describe('second sign-in', () => {
      before(async () => { server = await startServer({ env: env() }); });
      after(async () => { await server?.stop(); server = undefined; });

      it('signs in with the new argon2id hash, and still refuses a wrong password', async () => {
        for (const format of FORMATS) {
          assert.equal((await login(emailOf(format), PASSWORD)).status, 200, format);
          assert.equal((await login(emailOf(format), 'Imported-pass-2292')).status, 401, format);
        }
        assert.equal((await login(emailOf('ligature'), LIGATURE_PASSWORD)).status, 200);
        // The new hash holds NFKC(password): the normalized form now signs in too, as for any Gatehouse password.
        assert.equal((await login(emailOf('ligature'), 'Of-five-fields-7')).status, 200);
      });
    });
  });
}
