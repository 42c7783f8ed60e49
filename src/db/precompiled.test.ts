import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { MEMORY_DATA_DIR, openPGlite, type Database } from './create-db.js';
import type { Executor } from './database.js';
import { precompile, precompileRows } from './precompiled.js';

describe('precompile', () => {
  let database: Database;
  before(async () => { database = await openPGlite(MEMORY_DATA_DIR); });
  after(async () => { await database.close(); });

  it('builds once and sends each call its own arguments, a marker used twice included', async () => {
    let builds = 0;
    const query = precompile((db: Executor, a: { n: number; s: string | null }) => {
      builds++;
      return db.selectNoFrom([sql<number>`${a.n}::int`.as('n'), sql<string | null>`${a.s}::text`.as('s'),
        sql<number>`${a.n}::int * 2`.as('twice')]);
    }, { n: -1, s: '\u0000s' });
    assert.deepEqual(await query(database.db, { n: 3, s: 'a' }), { n: 3, s: 'a', twice: 6 });
    assert.deepEqual(await query(database.db, { n: 5, s: null }), { n: 5, s: null, twice: 10 });
    assert.equal(builds, 1);
  });

  it('keeps the literals the builder sets as they were compiled', async () => {
    const query = precompile((db: Executor, a: { n: number }) =>
      db.selectNoFrom([sql<number>`${a.n}::int`.as('n'), sql<number>`${0}::int`.as('zero'), sql<string | null>`${null}::text`.as('none')]),
    { n: -1 });
    assert.deepEqual(await query(database.db, { n: 7 }), { n: 7, zero: 0, none: null });
  });

  it('answers every row with precompileRows and undefined for no row with precompile', async () => {
    const rows = precompileRows((db: Executor, a: { upTo: number }) =>
      db.selectFrom(sql<{ n: number }>`generate_series(1, ${a.upTo}::int)`.as('g')).select(sql<number>`g::int`.as('n')),
    { upTo: -1 });
    assert.deepEqual(await rows(database.db, { upTo: 3 }), [{ n: 1 }, { n: 2 }, { n: 3 }]);
    const first = precompile((db: Executor, a: { upTo: number }) =>
      db.selectFrom(sql<{ n: number }>`generate_series(1, ${a.upTo}::int)`.as('g')).select(sql<number>`g::int`.as('n')),
    { upTo: -1 });
    assert.equal(await first(database.db, { upTo: 0 }), undefined);
  });
});
