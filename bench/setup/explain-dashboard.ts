/**
 * Prints `EXPLAIN (ANALYZE, BUFFERS)` of every query that `GET dashboard/stats/?period=90d` and `GET dashboard/auth/`
 * send, on the dashboard scenarios' database: each service is called once as its route calls it (which also closes
 * any day not closed yet), then again with its queries recorded, and each recorded query is explained with its own
 * parameters, one after the other.
 *
 * Usage: SVC_DATABASE_URL=postgres://postgres@127.0.0.1:5432/gatehouse_bench_dashboard \
 *   node --import tsx bench/setup/explain-dashboard.ts
 */
import { CompiledQuery, Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config/load.js';
import { systemClock } from '../../src/core/clock.js';
import type { DatabaseSchema } from '../../src/db/database.js';
import { createDashboardService } from '../../src/modules/dashboard/dashboard.service.js';

const url = process.env.SVC_DATABASE_URL;
if (!url) {
  process.stderr.write('usage: SVC_DATABASE_URL=postgres://… explain-dashboard.ts\n');
  process.exit(2);
}

const INT8_OID = 20;
const recorded: Array<{ sql: string; parameters: readonly unknown[] }> = [];
let recording = false;
const db = new Kysely<DatabaseSchema>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10,
    types: { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) } }) }),
  log: (event: LogEvent) => { if (recording && event.level === 'query') recorded.push(event.query); },
});
const { config } = loadConfig({ SVC_DEBUG: 'true', SVC_ORGANIZATIONS_ENABLED: 'true', SVC_DATABASE_URL: url });
const dashboard = createDashboardService({ db, clock: systemClock, config });

const endpoints: Array<[string, () => Promise<unknown>]> = [
  ['GET dashboard/stats/?period=90d', () => dashboard.stats({ period: '90d', compare: false }, null)],
  ['GET dashboard/auth/', () => dashboard.auth()],
];
try {
  for (const [name, call] of endpoints) {
    await call();
    recorded.length = 0;
    recording = true;
    const started = performance.now();
    await call();
    const ms = performance.now() - started;
    recording = false;
    process.stdout.write(`\n=== ${name}: ${recorded.length} queries, ${ms.toFixed(1)} ms for the call (queries concurrent)\n`);
    for (const query of recorded.filter((q) => /^\s*(select|with)\b/i.test(q.sql))) {
      process.stdout.write(`\n--- ${query.sql.replace(/\s+/g, ' ').trim().slice(0, 160)}…\n`);
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]));
      for (const row of rows) process.stdout.write(`${row['QUERY PLAN']}\n`);
    }
  }
} finally {
  await db.destroy();
}
