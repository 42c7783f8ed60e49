import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { foreignHash, writeImportFile } from './users-import-fixtures.js';
import { lines, runCliProcess as runCli, startServer, type RunningServer } from '../helpers/cli.js';
import { createScratchDatabase, databaseTarget, type ScratchDatabase } from '../helpers/scratch-db.js';

type Credentials = { id: number; name: string; access_key: string; access_secret: string };

async function createApp(database: ScratchDatabase, name: string): Promise<Credentials> {
  const result = await runCli(['app', 'create', '--name', name, '--json'], { env: database.env });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Credentials;
}

async function schemaStatus(server: RunningServer, app: Credentials): Promise<number> {
  const res = await fetch(`${server.apiUrl}docs/schema/`, { headers: { 'x-access-key': app.access_key, 'x-access-secret': app.access_secret } });
  await res.arrayBuffer();
  return res.status;
}

// Every command here runs in a process of its own, as from another terminal: what is tested is how processes share a
// data directory (its lock file, a server's pid in it, the socket a second process reaches the server through).
describe('PGlite data directory lock', { skip: databaseTarget('pglite').skip }, () => {
  describe('while a server holds the directory', () => {
    let database: ScratchDatabase;
    let server: RunningServer | undefined;
    let earlier: Credentials;
    const lockPath = () => join(database.dataDir!, 'gatehouse.lock');

    before(async () => {
      database = await createScratchDatabase('pglite', { prepared: true });
      earlier = await createApp(database, 'Before the server');
      server = await startServer({ env: database.env });
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    it('the server holds <data dir>/gatehouse.lock with its pid', async () => {
      const lock = JSON.parse(await readFile(lockPath(), 'utf8')) as { pid: number };
      assert.equal(lock.pid, server!.pid);
    });

    it('a command in another terminal runs inside the server (docs/cli.md "Beside a running server")', async () => {
      const created = await createApp(database, 'Beside the server');
      assert.equal(await schemaStatus(server!, created), 200);
      const status = await runCli(['migrate', '--status'], { env: database.env });
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /\[applied\] 0001_initial/);
      // A file named from the caller's working directory, not the server's.
      const file = await writeImportFile('beside.jsonl', [{ email: 'beside@example.com', password_hash: await foreignHash('argon2id', 'Beside-the-server-1') }]);
      const imported = await runCli(['users', 'import', basename(file)], { env: database.env, cwd: dirname(file) });
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /created: +1/);
      // The socket it came through: in the data directory, for its owner only.
      const mode = (await stat(join(database.dataDir!, 'gatehouse.sock'))).mode & 0o777;
      assert.equal(mode, 0o600);
    });

    it('a failing command answers its message and exit status from the server, which keeps serving', async () => {
      const result = await runCli(['jobs', 'run', 'no-such-job'], { env: database.env });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^gatehouse: .*no-such-job/);
      assert.equal(await schemaStatus(server!, earlier), 200);
      assert.equal((await fetch(`${server!.origin}/health/ready`)).status, 200);
    });

    it('the server itself cannot be started twice: one line says the database is in use', async () => {
      const result = await runCli(['quickstart'], { env: database.env });
      assert.equal(result.code, 1, result.stdout);
      assert.equal(result.stdout, '');
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`in use by another Gatehouse process \\(pid ${server!.pid}, since \\S+Z\\)`));
      assert.match(result.stderr, /Stop that process \(Ctrl-C where `npm start` runs\) and run this again/);
    });

    it('a second terminal without the server\'s settings runs its commands there, on the server\'s settings', async () => {
      // `npm start` turns debug mode on for the server only: the command beside it lacks SVC_DEBUG (and the JWT secret).
      const env = { ...database.env, SVC_DEBUG: undefined };
      const created = await runCli(['user', 'create', '--email', 'second@example.com', '--generate-password', '--json'], { env });
      assert.equal(created.code, 0, created.stderr);
      assert.equal((JSON.parse(created.stdout) as { email: string }).email, 'second@example.com');
      const piped = await runCli(['user', 'create', '--email', 'third@example.com', '--password-stdin'], { env, input: 'Quiet-Lantern-Strong-3\n' });
      assert.equal(piped.code, 0, piped.stderr);
      const signIn = await fetch(`${server!.apiUrl}login/email/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-key': earlier.access_key, 'x-access-secret': earlier.access_secret },
        body: JSON.stringify({ email: 'third@example.com', password: 'Quiet-Lantern-Strong-3' }),
      });
      assert.equal(signIn.status, 200, await signIn.text());
      const apps = await runCli(['app', 'list', '--json'], { env });
      assert.equal(apps.code, 0, apps.stderr);
      assert.ok((JSON.parse(apps.stdout) as Array<{ name: string }>).some((a) => a.name === 'Before the server'));
    });

    it('once the server stopped, the lock is gone, the CLI works and the data is intact', async () => {
      const exit = await server!.stop();
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.equal(existsSync(lockPath()), false);
      assert.equal(existsSync(join(database.dataDir!, 'gatehouse.sock')), false);
      const afterwards = await createApp(database, 'After the server');
      // Left out: the console's public application, which the server seeded (debug).
      const names = await database.inspect((db) => db.selectFrom('applications').select('name').where('builtin', 'is', null)
        .orderBy('id').execute());
      assert.deepEqual(names.map((r) => r.name), ['Before the server', 'Beside the server', 'After the server']);
      assert.notEqual(afterwards.access_key, earlier.access_key);
      const status = await runCli(['migrate', '--status'], { env: database.env });
      assert.equal(status.code, 0, status.stderr);
      assert.doesNotMatch(status.stdout, /\[pending\]/);
    });
  });

  describe('a lock left behind', () => {
    let database: ScratchDatabase;
    const lockPath = () => join(database.dataDir!, 'gatehouse.lock');
    before(async () => {
      database = await createScratchDatabase('pglite', { prepared: true });
    });
    after(async () => {
      await database?.drop();
    });

    it('by a process that no longer runs is taken over, and released after the command', async () => {
      const dead = spawnSync(process.execPath, ['-e', '']);
      assert.equal(dead.status, 0);
      await writeFile(lockPath(), JSON.stringify({ pid: dead.pid, started_at: new Date().toISOString() }));
      const result = await runCli(['migrate', '--status'], { env: database.env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /\[applied\] 0001_initial/);
      assert.equal(existsSync(lockPath()), false);
    });

    it('that cannot be read (an interrupted write) is taken over', async () => {
      await writeFile(lockPath(), '');
      const result = await runCli(['migrate', '--status'], { env: database.env });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(lockPath()), false);
    });
  });
});

const postgres = databaseTarget('postgres');
describe('PostgreSQL takes no lock', { skip: postgres.skip }, () => {
  let database: ScratchDatabase;
  let server: RunningServer | undefined;
  before(async () => {
    database = await createScratchDatabase('postgres', { prepared: true });
    server = await startServer({ env: database.env });
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('a CLI command runs while a server serves the same database, and the server sees its result', async () => {
    const created = await createApp(database, 'Beside the server');
    assert.equal(await schemaStatus(server!, created), 200);
  });
});
