import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { lines, runCli } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

describe('gatehouse usage', () => {
  it('--help prints the commands and exits 0', async () => {
    for (const args of [['--help'], []]) {
      const result = await runCli(args);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, '');
      for (const command of ['serve', 'migrate', 'seed', 'quickstart', 'app create', 'app list', 'app regenerate', 'user create',
        'users import', 'jobs run', 'keys rotate', 'keys list']) {
        assert.ok(result.stdout.includes(command), `${args.join(' ')} lists ${command}`);
      }
    }
  });

  it('--help after a command prints that command\'s usage and options, and exits 0 without touching a database', async () => {
    // A database URL nobody listens on: opening it would fail.
    const env = { SVC_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    const commands = ['serve', 'start', 'migrate', 'seed', 'quickstart', 'app create', 'app list', 'app regenerate', 'user create',
      'users import', 'jobs run', 'keys rotate', 'keys list'];
    for (const command of commands) {
      const args = [...command.split(' '), '--help'];
      const result = await runCli(args, { env });
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, '');
      assert.ok(result.stdout.startsWith(`Usage: gatehouse ${command}`), `${args.join(' ')}: ${result.stdout}`);
      assert.doesNotMatch(result.stdout, /^Commands:/m, `${args.join(' ')} prints its own usage, not the list`);
    }
    const options = await runCli(['user', 'create', '--email', 'x@example.com', '-h'], { env });
    assert.match(options.stdout, /--password-stdin +read the password from standard input/);
    assert.match(options.stdout, /--generate-password +generate a strong password and print it once/);
    // A group prints each of its commands; `help <command>` is the same as `<command> --help`.
    const group = await runCli(['app', '--help'], { env });
    assert.deepEqual(lines(group.stdout).filter((l) => l.startsWith('Usage:')),
      ['Usage: gatehouse app create --name N [--public] [--redirect-uri URI]... [--post-logout-redirect-uri URI]... [--origin URL]... [--json]',
        'Usage: gatehouse app list [--json]', 'Usage: gatehouse app regenerate <access key or name> [--json]']);
    assert.equal((await runCli(['help', 'keys', 'list'])).stdout, (await runCli(['keys', 'list', '--help'])).stdout);
  });

  it('--version and -v print the version of the package', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const result = await runCli([flag]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `${version}\n`);
    }
  });

  it('an unknown command exits 1 with one line on stderr', async () => {
    const result = await runCli(['frobnicate']);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(lines(result.stderr).length, 1, result.stderr);
    assert.match(result.stderr, /unknown command "frobnicate"/);
  });

  it('an unknown option exits 1 with one line naming it', async () => {
    const result = await runCli(['migrate', '--frobnicate']);
    assert.equal(result.code, 1);
    assert.equal(lines(result.stderr).length, 1, result.stderr);
    assert.match(result.stderr, /--frobnicate/);
  });
});

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse jobs run (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    before(async () => {
      database = await createScratchDatabase(kind);
    });
    after(async () => {
      await database?.drop();
    });

    it('without a job name exits 1 with one line', async () => {
      const result = await runCli(['jobs', 'run'], { env: database.env });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, /jobs run: name a job/);
    });

    it('with an unknown job name exits 1 with one line naming it', async () => {
      const result = await runCli(['jobs', 'run', 'no-such-job'], { env: database.env });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, /unknown job "no-such-job"/);
    });
  });
}
