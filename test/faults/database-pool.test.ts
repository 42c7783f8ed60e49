import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openPostgres, type Database } from '../../src/db/create-db.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-db.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { SKIP_WITHOUT_POSTGRES as skip, sleep, targetOf, throughProxy } from './helpers.js';

// The serving pool under a stalled PostgreSQL, in this process: a query that gets no answer fails within the read
// timeout and its connection is closed, never handed to the next query.

describe('a bounded PostgreSQL pool when the connection stalls', { skip }, () => {
  const STATEMENT_TIMEOUT_MS = 1000;
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let database: Database;
  const reported: Error[] = [];

  before(async () => {
    scratch = await createScratchDatabase('postgres');
    proxy = await startTcpProxy(targetOf(scratch.env.SVC_DATABASE_URL!));
    // One connection: a client that was not released, or came back holding a stuck query, would block the next use.
    database = await openPostgres(throughProxy(scratch.env.SVC_DATABASE_URL!, proxy), 1, true, {
      connectTimeoutMs: 1000, statementTimeoutMs: STATEMENT_TIMEOUT_MS, onConnectionError: (err) => reported.push(err),
    });
  });
  after(async () => {
    await database?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  it('a transaction fails within the read timeout, closes its connection and gives it back to the pool', async () => {
    const started = Date.now();
    const failure = await database.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      proxy.stall();
      await sql`select 2`.execute(trx);
    }).then(() => undefined, (err: unknown) => err);
    const elapsed = Date.now() - started;
    assert.ok(failure, 'the transaction fails');
    assert.ok(isDatabaseUnavailable(failure), String(failure));
    assert.ok(elapsed < STATEMENT_TIMEOUT_MS + 3000, `failed after ${elapsed} ms`);
    assert.ok(reported.some((e) => e.message === 'Query read timeout'), 'the abandoned query is reported');
    for (let i = 0; proxy.connections() > 0 && i < 50; i++) await sleep(20);
    assert.equal(proxy.connections(), 0, 'the stuck connection is closed, not kept for the next query');

    await proxy.restore();
    const { rows } = await sql<{ n: number }>`select 3 as n`.execute(database.db);
    assert.deepEqual(rows, [{ n: 3 }]);
  });

  it('a statement that runs past statement_timeout is cancelled by PostgreSQL and the connection stays usable', async () => {
    const failure = await sql`select pg_sleep(5)`.execute(database.db).then(() => undefined, (err: unknown) => err);
    assert.equal((failure as { code?: string }).code, '57014');
    assert.ok(isDatabaseUnavailable(failure));
    const { rows } = await sql<{ n: number }>`select 4 as n`.execute(database.db);
    assert.deepEqual(rows, [{ n: 4 }]);
  });
});
