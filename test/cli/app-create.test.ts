import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { lines, runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse app create (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    let created: { id: number; name: string; kind: string; access_key: string; access_secret: string };

    before(async () => {
      // A fresh database: `app create` migrates it on its own.
      database = await createScratchDatabase(kind);
    });
    after(async () => {
      await database?.drop();
    });

    it('prints exactly one JSON line with id, name, a 64-hex access key and a 43-character base64url secret', async () => {
      const result = await runCli([
        'app', 'create', '--name', 'Billing portal', '--json',
        '--redirect-uri', 'https://billing.example.com/callback', '--redirect-uri', 'http://localhost:3000/callback',
        '--origin', 'https://billing.example.com', '--origin', 'http://localhost:3000',
      ], { env: database.env });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, '');
      assert.equal(lines(result.stdout).length, 1);
      assert.ok(result.stdout.endsWith('\n'));
      created = JSON.parse(result.stdout);
      assert.deepEqual(Object.keys(created).sort(), ['access_key', 'access_secret', 'id', 'kind', 'name']);
      assert.equal(created.kind, 'confidential');
      assert.equal(typeof created.id, 'number');
      assert.equal(created.name, 'Billing portal');
      assert.match(created.access_key, /^[0-9a-f]{64}$/);
      assert.match(created.access_secret, /^[A-Za-z0-9_-]{43}$/);
    });

    it('stores every --redirect-uri and --origin given, and only a hash of the secret', async () => {
      assert.ok(created, 'depends on the application created above');
      const row = await database.inspect((db) => db.selectFrom('applications')
        .select(['name', 'access_key', 'secret_hash', 'redirect_uris', 'allowed_origins', 'is_active'])
        .where('id', '=', created.id).executeTakeFirstOrThrow());
      assert.equal(row.name, 'Billing portal');
      assert.equal(row.access_key, created.access_key);
      assert.equal(row.is_active, true);
      assert.deepEqual(row.redirect_uris, ['https://billing.example.com/callback', 'http://localhost:3000/callback']);
      assert.deepEqual(row.allowed_origins, ['https://billing.example.com', 'http://localhost:3000']);
      assert.notEqual(row.secret_hash, created.access_secret);
      assert.match(row.secret_hash ?? '', /^[0-9a-f]{64}$/);
    });

    describe('against a running server on the same database', () => {
      let server: RunningServer | undefined;
      before(async () => {
        assert.ok(created, 'depends on the application created above');
        server = await startServer({ env: database.env });
      });
      after(async () => {
        await server?.stop();
      });

      it('the printed credentials authenticate: GET <prefix>password/requirements/ answers 200 with the policy', async () => {
        const res = await fetch(`${server!.apiUrl}password/requirements/`, {
          headers: { 'x-access-key': created.access_key, 'x-access-secret': created.access_secret },
        });
        assert.equal(res.status, 200);
        const body = await res.json() as { min_length?: number };
        assert.equal(typeof body.min_length, 'number');
      });

      it('answers 401 APP_AUTH_REQUIRED without the headers and 401 APP_AUTH_INVALID with a wrong secret', async () => {
        const missing = await fetch(`${server!.apiUrl}password/requirements/`);
        assert.equal(missing.status, 401);
        assert.equal((await missing.json() as { code: string }).code, 'APP_AUTH_REQUIRED');
        const wrong = await fetch(`${server!.apiUrl}password/requirements/`, {
          headers: { 'x-access-key': created.access_key, 'x-access-secret': `${created.access_secret.slice(0, -1)}x` },
        });
        assert.equal(wrong.status, 401);
        assert.equal((await wrong.json() as { code: string }).code, 'APP_AUTH_INVALID');
      });
    });

    it('without --name exits 1 with one line on stderr and nothing on stdout', async () => {
      const result = await runCli(['app', 'create', '--json'], { env: database.env });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, /--name is required/);
    });

    it('with a malformed --origin exits 1 with one line naming it, and creates nothing', async () => {
      for (const origin of ['not a url', 'https://app.example.com/path', 'ftp://files.example.com']) {
        const result = await runCli(['app', 'create', '--name', 'Broken', '--origin', origin, '--json'], { env: database.env });
        assert.equal(result.code, 1, `--origin ${origin}`);
        assert.equal(result.stdout, '');
        assert.equal(lines(result.stderr).length, 1, result.stderr);
        assert.ok(result.stderr.includes(`--origin ${origin}`), result.stderr);
      }
      // The server started above seeded the console's public application (debug): only operators' applications count here.
      const names = await database.inspect((db) => db.selectFrom('applications').select('name').where('builtin', 'is', null).execute());
      assert.deepEqual(names.map((r) => r.name), ['Billing portal']);
    });

    it('app list shows every application with its key, kind, state and creation, never a secret', async () => {
      const browser = await runCli(['app', 'create', '--public', '--name', 'Browser', '--origin', 'https://app.example.com', '--json'],
        { env: database.env });
      assert.equal(browser.code, 0, browser.stderr);
      const json = await runCli(['app', 'list', '--json'], { env: database.env });
      assert.equal(json.code, 0, json.stderr);
      const listed = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
      const mine = listed.filter((a) => a.name !== 'Gatehouse Console'); // seeded by the server started above (debug)
      assert.deepEqual(mine.map((a) => [a.name, a.access_key === created.access_key, a.kind, a.is_active]),
        [['Billing portal', true, 'confidential', true], ['Browser', false, 'public', true]]);
      assert.deepEqual(Object.keys(mine[0]!).sort(), ['access_key', 'created_at', 'id', 'is_active', 'kind', 'name']);
      const text = await runCli(['app', 'list'], { env: database.env });
      assert.equal(text.code, 0, text.stderr);
      const rows = lines(text.stdout);
      assert.match(rows[0]!, /^NAME\s+ACCESS KEY\s+KIND\s+ACTIVE\s+CREATED$/);
      assert.ok(rows.some((r) => new RegExp(`^Billing portal\\s+${created.access_key}\\s+confidential\\s+yes\\s+\\S+Z$`).test(r)),
        text.stdout);
      assert.ok(!json.stdout.includes(created.access_secret) && !text.stdout.includes(created.access_secret));
    });

    it('app regenerate replaces key and secret, named by name or key; refuses a public, unknown or ambiguous one', async () => {
      const byName = await runCli(['app', 'regenerate', 'Billing portal', '--json'], { env: database.env });
      assert.equal(byName.code, 0, byName.stderr);
      const renewed = JSON.parse(byName.stdout) as typeof created;
      assert.deepEqual([renewed.id, renewed.name, renewed.kind], [created.id, 'Billing portal', 'confidential']);
      assert.match(renewed.access_secret, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(renewed.access_key, created.access_key);
      assert.notEqual(renewed.access_secret, created.access_secret);

      const byKey = await runCli(['app', 'regenerate', renewed.access_key], { env: database.env });
      assert.equal(byKey.code, 0, byKey.stderr);
      assert.match(byKey.stdout, /New credentials for "Billing portal" .*the previous ones no longer work/);
      const key = /X-Access-Key: +(\S+)/.exec(byKey.stdout)![1]!;
      const secret = /X-Access-Secret: +(\S+)/.exec(byKey.stdout)![1]!;
      const { row, events } = await database.inspect(async (db) => ({
        row: await db.selectFrom('applications').select(['access_key', 'secret_hash']).where('id', '=', created.id).executeTakeFirstOrThrow(),
        events: await db.selectFrom('audit_events').select(['actor_id', 'severity'])
          .where('event_type', '=', 'application_credentials_regenerated').execute(),
      }));
      assert.deepEqual(row, { access_key: key, secret_hash: createHash('sha256').update(secret).digest('hex') });
      assert.deepEqual(events, [{ actor_id: null, severity: 'warning' }, { actor_id: null, severity: 'warning' }]);

      const twin = await runCli(['app', 'create', '--name', 'Billing portal', '--json'], { env: database.env });
      assert.equal(twin.code, 0, twin.stderr);
      const refusals: Array<[string, RegExp]> = [
        ['Browser', /app regenerate: "Browser" is a public application: it has no secret to regenerate/],
        ['nope', /No application has the access key or the name "nope"/],
        ['Billing portal', /Several applications are named "Billing portal": name the one meant by its access key/],
      ];
      for (const [ref, pattern] of refusals) {
        const result = await runCli(['app', 'regenerate', ref], { env: database.env });
        assert.equal(result.code, 1, `${ref}: ${result.stdout}`);
        assert.equal(result.stdout, '');
        assert.equal(lines(result.stderr).length, 1, result.stderr);
        assert.match(result.stderr, pattern);
      }
    });
  });
}
