import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lines, runCli } from '../helpers/cli.js';
import { createScratchDatabase, DATABASE_TARGETS, type ScratchDatabase } from '../helpers/scratch-db.js';

// docs/oauth.md "Resources": gatehouse resource create | list | delete.
for (const { kind, skip } of DATABASE_TARGETS) {
  describe(`gatehouse resource (${kind})`, { skip }, () => {
    let database: ScratchDatabase;
    before(async () => {
      database = await createScratchDatabase(kind);
    });
    after(async () => {
      await database?.drop();
    });

    it('creates a resource and prints its credentials once, lists it without the secret, deletes it', async () => {
      const created = await runCli(['resource', 'create', '--uri', 'https://notes-api.example.com', '--name', 'Notes API',
        '--scope', 'users.view', '--scope', 'users.manage', '--json'], { env: database.env });
      assert.equal(created.code, 0, created.stderr);
      const resource = JSON.parse(created.stdout) as { id: number; uri: string; scopes: string[]; client_id: string; client_secret: string };
      assert.equal(resource.uri, 'https://notes-api.example.com');
      assert.deepEqual(resource.scopes, ['users.view', 'users.manage']);
      assert.match(resource.client_id, /^rs_[0-9a-f]{32}$/);
      assert.match(resource.client_secret, /^[A-Za-z0-9_-]{43}$/);

      const listed = await runCli(['resource', 'list'], { env: database.env });
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /https:\/\/notes-api\.example\.com +Notes API +users\.view users\.manage/);
      assert.ok(!listed.stdout.includes(resource.client_secret));

      const deleted = await runCli(['resource', 'delete', 'https://notes-api.example.com'], { env: database.env });
      assert.equal(deleted.code, 0, deleted.stderr);
      const empty = await runCli(['resource', 'list', '--json'], { env: database.env });
      assert.deepEqual(JSON.parse(empty.stdout), []);
    });

    it('refuses a URI that cannot be an audience, and an unknown resource to delete, in one line each', async () => {
      const plain = await runCli(['resource', 'create', '--uri', 'http://api.example.com', '--name', 'Plain'], { env: database.env });
      assert.notEqual(plain.code, 0);
      assert.match(plain.stderr, /https/);
      const missing = await runCli(['resource', 'delete', '999'], { env: database.env });
      assert.notEqual(missing.code, 0);
      assert.equal(lines(missing.stderr).length, 1, missing.stderr);
    });
  });
}
