import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { DEFAULT_ROLES, ORG_ROLES, SYSTEM_PERMISSIONS } from '../../src/db/seed/data.js';
import { lines, runCli } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

const MIGRATION_NAMES = Object.keys(MIGRATIONS);

/** `[applied] name` / `[pending] name` lines of `migrate --status`, by name. */
function statusByName(stdout: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of lines(stdout)) {
    const m = /^\[(applied|pending)\] (\S+)/.exec(line);
    if (m) found.set(m[2]!, m[1]!);
  }
  return found;
}

for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse migrate, seed and quickstart on a fresh ${kind} database`, { skip }, () => {
    let database: ScratchDatabase;
    const run = (...args: string[]) => runCli(args, { env: database.env });

    before(async () => {
      database = await createScratchDatabase(kind);
    });
    after(async () => {
      await database?.drop();
    });

    it('migrate --status lists every migration, 0001_initial first, as pending before migrate', async () => {
      const result = await run('migrate', '--status');
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, '');
      const status = statusByName(result.stdout);
      assert.deepEqual([...status.keys()], MIGRATION_NAMES);
      assert.equal(MIGRATION_NAMES[0], '0001_initial');
      assert.ok([...status.values()].every((s) => s === 'pending'), result.stdout);
      assert.match(result.stdout, new RegExp(`Database: ${kind}`));
    });

    it('migrate applies every pending migration and exits 0', async () => {
      const result = await run('migrate');
      assert.equal(result.code, 0, result.stderr);
      for (const name of MIGRATION_NAMES) assert.ok(result.stdout.includes(`applied ${name}`), result.stdout);
    });

    it('migrate --status then lists 0001_initial and the others as applied', async () => {
      const result = await run('migrate', '--status');
      assert.equal(result.code, 0, result.stderr);
      const status = statusByName(result.stdout);
      assert.equal(status.get('0001_initial'), 'applied');
      assert.deepEqual([...status.values()], MIGRATION_NAMES.map(() => 'applied'));
      assert.match(result.stdout, /Up to date/);
    });

    it('seed creates the system permissions, default roles and organization roles', async () => {
      const result = await run('seed');
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout,
        new RegExp(`${SYSTEM_PERMISSIONS.length} permission\\(s\\), ${DEFAULT_ROLES.length} role\\(s\\), ${ORG_ROLES.length} organization role\\(s\\) created`));
    });

    it('seed run again creates nothing and leaves the same rows', async () => {
      const result = await run('seed');
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /0 permission\(s\), 0 role\(s\), 0 organization role\(s\) created/);
      const counts = await database.inspect(async (db) => ({
        roles: (await db.selectFrom('roles').select('code').orderBy('code').execute()).map((r) => r.code),
        orgRoles: (await db.selectFrom('org_roles').select('code').orderBy('code').execute()).map((r) => r.code),
        permissions: (await db.selectFrom('permissions').select('code').execute()).length,
      }));
      assert.deepEqual(counts.roles, DEFAULT_ROLES.map((r) => r.code).sort());
      assert.deepEqual(counts.orgRoles, ORG_ROLES.map((r) => r.code).sort());
      assert.equal(counts.permissions, SYSTEM_PERMISSIONS.length);
    });

    let printedKey: string;
    it('quickstart creates "Default App" and prints its access key and secret', async () => {
      const result = await run('quickstart');
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Application "Default App" created/);
      const key = /X-Access-Key:\s+([0-9a-f]{64})/.exec(result.stdout)?.[1];
      const secret = /X-Access-Secret:\s+([A-Za-z0-9_-]{43})/.exec(result.stdout)?.[1];
      assert.ok(key && secret, result.stdout);
      printedKey = key;
      // The console's public application (seeded in debug, where these commands run) is not an operator's: left out here.
      const apps = await database.inspect((db) => db.selectFrom('applications').select(['name', 'access_key', 'secret_hash'])
        .where('builtin', 'is', null).execute());
      assert.deepEqual(apps, [{ name: 'Default App', access_key: key, secret_hash: createHash('sha256').update(secret).digest('hex') }]);
      const consoleApps = await database.inspect((db) => db.selectFrom('applications').select('name').where('builtin', '=', 'console').execute());
      assert.deepEqual(consoleApps, [{ name: 'Gatehouse Console' }], 'seeded before, and no reason not to create "Default App"');
    });

    it('quickstart run again creates no application and prints no secret', async () => {
      assert.ok(printedKey, 'depends on the first quickstart');
      const result = await run('quickstart');
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stdout, /X-Access-Secret/);
      assert.doesNotMatch(result.stdout, /X-Access-Key/);
      assert.match(result.stdout, /already exists/);
      const apps = await database.inspect((db) => db.selectFrom('applications').select('access_key').where('builtin', 'is', null).execute());
      assert.deepEqual(apps, [{ access_key: printedKey }]);
    });
  });
}
