import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { lines, runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

/** GET with exactly these headers (fetch would not let a test set Sec-Fetch-Site); answers the status and `code`. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; code?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: body ? (JSON.parse(body) as { code?: string }).code : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse app create --public and the console's application (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    let spa: { id: number; name: string; kind: string; access_key: string; access_secret: null };
    const consoleApps = () => database.inspect((db) => db.selectFrom('applications')
      .select(['name', 'kind', 'access_key', 'secret_hash', 'allowed_origins']).where('builtin', '=', 'console').execute());

    before(async () => {
      database = await createScratchDatabase(kind);
    });
    after(async () => {
      await database?.drop();
    });

    it('--public without --origin exits 1 with one line naming --origin, and creates nothing', async () => {
      const result = await runCli(['app', 'create', '--name', 'Storefront', '--public', '--json'], { env: database.env });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, /--public needs at least one --origin/);
    });

    it('--public --json prints kind public, the access key and a null secret; only the key is stored', async () => {
      const result = await runCli(['app', 'create', '--name', 'Storefront', '--public', '--origin', 'https://spa.example.com', '--json'],
        { env: database.env });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(lines(result.stdout).length, 1);
      spa = JSON.parse(result.stdout);
      assert.deepEqual(Object.keys(spa).sort(), ['access_key', 'access_secret', 'id', 'kind', 'name']);
      assert.deepEqual([spa.name, spa.kind, spa.access_secret], ['Storefront', 'public', null]);
      assert.match(spa.access_key, /^[0-9a-f]{64}$/);
      const row = await database.inspect((db) => db.selectFrom('applications').select(['kind', 'secret_hash', 'allowed_origins'])
        .where('id', '=', spa.id).executeTakeFirstOrThrow());
      assert.deepEqual(row, { kind: 'public', secret_hash: null, allowed_origins: ['https://spa.example.com'] });
    });

    it('--public without --json says there is no secret and prints the key', async () => {
      const result = await runCli(['app', 'create', '--name', 'Second shop', '--public', '--origin', 'https://two.example.com'],
        { env: database.env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Public application "Second shop" created/);
      assert.match(result.stdout, /X-Access-Key:\s+[0-9a-f]{64}/);
      assert.doesNotMatch(result.stdout, /X-Access-Secret/);
    });

    it('seed with SVC_CONSOLE_ENABLED=false creates no console application', async () => {
      const result = await runCli(['seed'], { env: { ...database.env, SVC_CONSOLE_ENABLED: 'false' } });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stdout, /Console/);
      assert.deepEqual(await consoleApps(), []);
    });

    it('seed in debug (console on by default) creates "Gatehouse Console" once, pinned to SVC_PUBLIC_URL, with no secret', async () => {
      const env = { ...database.env, SVC_PUBLIC_URL: 'http://console.test:8000/' };
      const first = await runCli(['seed'], { env });
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /Console application "Gatehouse Console" created/);
      const second = await runCli(['seed'], { env });
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /Console application: already there/);
      const apps = await consoleApps();
      assert.equal(apps.length, 1);
      assert.deepEqual({ ...apps[0], access_key: undefined }, { name: 'Gatehouse Console', kind: 'public', access_key: undefined,
        secret_hash: null, allowed_origins: ['http://console.test:8000'] });
    });

    describe('against a running server (serve seeds it too)', () => {
      let server: RunningServer | undefined;
      let consoleKey: string | undefined;
      before(async () => {
        // Read before the server holds the database (PGlite admits one process); serve keeps the key, moves the origin.
        consoleKey = (await consoleApps())[0]?.access_key;
        server = await startServer({ env: database.env });
      });
      after(async () => {
        await server?.stop();
      });

      it('serve pins the console application to the server\'s own origin, from which its key is accepted', async () => {
        assert.ok(consoleKey, 'depends on the seed above');
        const url = `${server!.apiUrl}password/requirements/`;
        assert.deepEqual(await get(url, { 'x-access-key': consoleKey, origin: server!.origin }), { status: 200, code: undefined });
        assert.deepEqual(await get(url, { 'x-access-key': consoleKey, 'sec-fetch-site': 'same-origin' }), { status: 200, code: undefined });
        assert.deepEqual(await get(url, { 'x-access-key': consoleKey, origin: 'http://console.test:8000' }),
          { status: 401, code: 'APP_AUTH_INVALID' });
        assert.deepEqual(await get(url, { 'x-access-key': consoleKey }), { status: 401, code: 'APP_AUTH_INVALID' });
      });

      it('accepts the --public application\'s key from its origin only', async () => {
        assert.ok(spa, 'depends on the application created above');
        const url = `${server!.apiUrl}password/requirements/`;
        assert.deepEqual(await get(url, { 'x-access-key': spa.access_key, origin: 'https://spa.example.com' }), { status: 200, code: undefined });
        assert.deepEqual(await get(url, { 'x-access-key': spa.access_key, origin: 'https://two.example.com' }),
          { status: 401, code: 'APP_AUTH_INVALID' });
        assert.deepEqual(await get(url, { 'x-access-key': spa.access_key, 'x-access-secret': 'none', origin: 'https://spa.example.com' }),
          { status: 401, code: 'APP_AUTH_INVALID' });
      });
    });

    // quickstart creating "Default App" beside the console's application: test/cli/database-commands.test.ts (seed, then quickstart).
    it('after the server: one console application, pinned to the origin serve had (SVC_PUBLIC_URL\'s default)', async () => {
      const apps = await consoleApps();
      assert.equal(apps.length, 1);
      assert.equal(apps[0]!.allowed_origins.length, 1);
      assert.match(apps[0]!.allowed_origins[0]!, /^http:\/\/127\.0\.0\.1:\d+$/, 'serve pinned it to its own default origin');
    });
  });
}
