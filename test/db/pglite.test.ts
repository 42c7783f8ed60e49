import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { MEMORY_DATA_DIR, openPGlite, type Database } from '../../src/db/create-db.js';
import { databaseTarget } from '../helpers/scratch-db.js';

/** What the embedded database must read back the way `pg` does, so repos see the same values on both. */
describe('the embedded database (PGlite) as the repos see it', { skip: databaseTarget('pglite').skip }, () => {
  let database: Database;
  before(async () => { database = await openPGlite(MEMORY_DATA_DIR); });
  after(async () => { await database.close(); });

  it('reads int8 identities and counts as numbers, jsonb as objects, timestamps as dates, numeric as text', async () => {
    await sql`create table probe (id bigint generated always as identity primary key, v text)`.execute(database.db);
    const inserted = await sql<{ id: number }>`insert into probe (v) values (${'a'}), (${'b'}) returning id`.execute(database.db);
    assert.deepEqual(inserted.rows, [{ id: 1 }, { id: 2 }]);
    assert.equal(inserted.numAffectedRows, 2n);
    const { rows: [row] } = await sql<{ n: number; j: unknown; t: Date; d: string }>`
      select count(*) as n, '{"x":1}'::jsonb as j, now() as t, 1.10::numeric as d from probe`.execute(database.db);
    assert.deepEqual([row!.n, row!.j, row!.t instanceof Date, row!.d], [2, { x: 1 }, true, '1.10']);
  });

  it('dumps its data directory and loads it back into another instance (how every test process starts)', async () => {
    const dump = await database.dumpDataDir!();
    const copy = await openPGlite(MEMORY_DATA_DIR, dump);
    try {
      const { rows } = await sql<{ v: string }>`select v from probe order by id`.execute(copy.db);
      assert.deepEqual(rows.map((r) => r.v), ['a', 'b']);
    } finally {
      await copy.close();
    }
  });
});
