import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, lines, runCli, startServer, type CliResult } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

/** Exit 1, nothing on stdout, one line on stderr, no stack trace. */
function assertOneLineFailure(result: CliResult, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stdout, '');
  assert.equal(lines(result.stderr).length, 1, result.stderr);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
  assert.match(result.stderr, pattern);
}

describe('settings that stop start-up', () => {
  it('a malformed value stops every command with one line naming the setting and what it accepts', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['serve'], { SVC_PORT: 'abc' }, /SVC_PORT.*integer/],
      [['migrate'], { SVC_PORT: 'abc' }, /SVC_PORT.*integer/],
      [['serve'], { SVC_DEBUG: 'yes' }, /SVC_DEBUG.*`true` or `false`/],
      [['app', 'create', '--name', 'X'], { SVC_DATABASE_URL: 'mysql://x' }, /SVC_DATABASE_URL.*postgres/],
      [['seed'], { SVC_SHORTCUT_SECURE_MODE: 'paranoid' }, /SVC_SHORTCUT_SECURE_MODE.*development, medium, robust/],
    ];
    for (const [command, env, pattern] of cases) {
      assertOneLineFailure(await runCli(command, { env }), pattern);
    }
  });

  it('a PostgreSQL server that cannot be reached gives one clear line and exit 1', async () => {
    // With a JWT secret, debug mode has nothing to warn about: the failure is the only line.
    const env = { SVC_DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/x', SVC_JWT_SECRET_KEY: 'k'.repeat(40) };
    for (const command of [['migrate'], ['serve']]) {
      const result = await runCli(command, { env });
      assertOneLineFailure(result, /Cannot connect to PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/x/);
      assert.doesNotMatch(result.stderr, /hunter2/);
    }
  });

  it('outside debug, serve without SVC_JWT_SECRET_KEY stops with one line naming it', async () => {
    const result = await runCli(['serve'], { env: { SVC_DEBUG: undefined, SVC_DATA_DIR: 'memory://' } });
    assertOneLineFailure(result, /SVC_JWT_SECRET_KEY/);
  });

  it('outside debug, application authentication cannot be switched off', async () => {
    const result = await runCli(['serve'], {
      env: { SVC_DEBUG: 'false', SVC_JWT_SECRET_KEY: 'k'.repeat(40), SVC_APPLICATION_AUTH_ENABLED: 'false', SVC_DATA_DIR: 'memory://' },
    });
    assertOneLineFailure(result, /SVC_APPLICATION_AUTH_ENABLED/);
  });
});

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`.env in the working directory (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    let cwd: string;
    const envFile = (entries: Record<string, string>) =>
      writeFile(join(cwd, '.env'), `# written by the test\n${Object.entries(entries).map(([k, v]) => `${k}=${v}`).join('\n')}\n`);
    // The test selects its database through .env only.
    const noDatabaseInEnv = { SVC_DATA_DIR: undefined, SVC_DATABASE_URL: undefined };

    before(async () => {
      database = await createScratchDatabase(kind, { prepared: true });
      cwd = await mkdtemp(join(tmpdir(), 'gatehouse-cli-dotenv-'));
    });
    after(async () => {
      await rm(cwd, { recursive: true, force: true });
      await database?.drop();
    });

    it('is read: a malformed value there stops start-up naming the setting', async () => {
      await envFile({ ...(database.env as Record<string, string>), SVC_PORT: 'abc' });
      assertOneLineFailure(await runCli(['migrate', '--status'], { cwd, env: noDatabaseInEnv }), /SVC_PORT/);
    });

    it('is read: its database setting selects the database the command uses', async () => {
      await envFile(database.env as Record<string, string>);
      const result = await runCli(['migrate', '--status'], { cwd, env: noDatabaseInEnv });
      assert.equal(result.code, 0, result.stderr);
      const where = kind === 'pglite' ? join(database.dataDir!, 'pglite') : 'postgres://';
      assert.ok(result.stdout.includes(`Database: ${kind} (${where}`), result.stdout);
      assert.match(result.stdout, /\[applied\] 0001_initial/);
    });

    it('a real environment variable wins over the file', async () => {
      await envFile({ ...(database.env as Record<string, string>), SVC_PORT: 'abc' });
      const port = await freePort();
      const server = await startServer({ cwd, port, env: { ...noDatabaseInEnv, SVC_PORT: String(port) } });
      try {
        const res = await fetch(`${server.origin}/health/ready`);
        assert.equal(res.status, 200);
      } finally {
        await server.stop();
      }
    });

    it('serve listens on the SVC_PORT of the file when the environment has none', async () => {
      const port = await freePort();
      await envFile({ ...(database.env as Record<string, string>), SVC_PORT: String(port) });
      const server = await startServer({ cwd, port, env: { ...noDatabaseInEnv, SVC_PORT: undefined } });
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health/live`);
        assert.equal(res.status, 200);
      } finally {
        await server.stop();
      }
    });
  });
}
