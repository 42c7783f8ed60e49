import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lines, runCli } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

describe('gatehouse usage', () => {
  it('--help prints the commands and exits 0', async () => {
    for (const args of [['--help'], []]) {
      const result = await runCli(args);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, '');
      for (const command of ['serve', 'migrate', 'seed', 'quickstart', 'app create', 'user create', 'jobs run']) {
        assert.ok(result.stdout.includes(command), `${args.join(' ')} lists ${command}`);
      }
    }
  });

  it('--help after a command prints the help and exits 0 without touching a database', async () => {
    // A database URL nobody listens on: opening it would fail.
    const env = { SVC_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    for (const args of [['migrate', '--help'], ['user', 'create', '--help'], ['app', '--help']]) {
      const result = await runCli(args, { env });
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stdout, /Usage: gatehouse/);
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
