import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openPostgres } from '../../src/db/create-db.js';

const url = process.env.TEST_DATABASE_URL;

describe('named prepared statements on PostgreSQL (SVC_DATABASE_PREPARED_STATEMENTS)', { skip: url ? false : 'TEST_DATABASE_URL is not set' }, () => {
  /** Runs one query text five times on a one-connection pool and answers the statements that connection prepared. */
  async function preparedAfterRepeats(enabled: boolean) {
    const database = await openPostgres(url!, 1, enabled);
    try {
      for (let i = 0; i < 5; i++) await sql`select ${i}::int as n`.execute(database.db);
      const { rows } = await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements where name like 'gatehouse_%'`.execute(database.db);
      return rows;
    } finally {
      await database.close();
    }
  }

  it('prepares a text that keeps recurring, once per connection', async () => {
    const rows = await preparedAfterRepeats(true);
    assert.equal(rows.length, 1);
    assert.match(rows[0]!.statement, /select \$1::int as n/);
  });

  it('prepares nothing when switched off', async () => {
    assert.deepEqual(await preparedAfterRepeats(false), []);
  });
});
