import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { openPGlite, openPostgres, type Database } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { seed } from '../../src/db/seed/seed.js';

/**
 * One database per test process, shared by the apps a test file builds. PGlite loads a prepared,
 * migrated data dir (the test runner builds it once); with TEST_DATABASE_URL each process gets its
 * own fresh PostgreSQL database, dropped when the last user closes it.
 *
 * A process that runs many test files one after the other (`keepDatabaseOpen()`, test/helpers/shard.ts) keeps its
 * database open when the last user releases it and empties it (a fresh install) for the next one: what a new
 * database would be, without paying for opening one again. It is closed when the process's tests are over.
 */
let shared: Promise<Database> | undefined;
let users = 0;
let dropDatabase: (() => Promise<void>) | undefined;
let keepOpen = false;

/** The database outlives its last user until `closeTestDatabase()`; the next user gets it as a fresh install. */
export const keepDatabaseOpen = () => { keepOpen = true; };

export const testDatabaseKind = (): 'postgres' | 'pglite' => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

async function open(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `gatehouse_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = await openPostgres(adminUrl, 1);
    await sql`create database ${sql.id(name)}`.execute(admin.db);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openPostgres(url.toString(), 5);
    dropDatabase = async () => {
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db).catch(() => undefined);
      await admin.close();
    };
    await prepareFreshInstall(database.db);
    return database;
  }
  const templatePath = process.env.GATEHOUSE_TEST_PGLITE_TEMPLATE;
  // The prepared data dir is migrated, seeded and keeps its fresh install already (scripts/prepare-test-db.ts).
  if (templatePath) return openPGlite('memory://', new Blob([await readFile(templatePath)]));
  const database = await openPGlite('memory://');
  await prepareFreshInstall(database.db);
  return database;
}

/** A new database made a fresh install: migrated, seeded, and able to go back to that state (`resetDatabase`). */
export async function prepareFreshInstall(db: Database['db']): Promise<void> {
  await migrateToLatest(db);
  await seed(db);
  await keepFreshInstall(db);
}

export async function acquireTestDatabase(): Promise<Database> {
  // Still open with no user: an earlier user's database, kept open (keepDatabaseOpen), made a fresh install again.
  if (users++ === 0 && shared) {
    shared = shared.then(async (database) => {
      await resetDatabase(database);
      return database;
    });
  }
  shared ??= open();
  return shared;
}

export async function releaseTestDatabase(): Promise<void> {
  users--;
  if (users > 0 || keepOpen) return;
  await closeTestDatabase();
}

/** Closes the process's database (and drops it on PostgreSQL), whoever still holds it. */
export async function closeTestDatabase(): Promise<void> {
  const closing = shared;
  if (!closing) return;
  shared = undefined;
  const database = await closing;
  await database.close();
  await dropDatabase?.();
  dropDatabase = undefined;
}

/** Where a fresh install's rows and the statement that puts them back are kept (outside the application's schema). */
const FRESH = 'gatehouse_test_fresh';

/**
 * Keeps what a fresh install holds (the seeded rows, each sequence's position) in a schema of its own, and writes one
 * function that puts it back: every table locked, then emptied by `delete` (a truncate replaces each table's files, far
 * slower for a test's few rows) with the foreign-key checks off, the seeded rows copied back, the sequences set back.
 * Its statements are fixed, so the database plans them once.
 */
async function keepFreshInstall(db: Database['db']): Promise<void> {
  const { rows: tables } = await sql<{ name: string; columns: string }>`
    select c.relname as name, string_agg(quote_ident(a.attname), ', ' order by a.attnum) as columns
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    where c.relkind in ('r', 'p') and c.relname not like 'gatehouse_migrations%'
    group by c.relname order by c.relname`.execute(db);
  await sql`drop schema if exists ${sql.id(FRESH)} cascade`.execute(db);
  await sql`create schema ${sql.id(FRESH)}`.execute(db);
  const restore: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table.name)}`.execute(db);
    if (rows[0]!.n === 0) continue;
    await sql`create table ${sql.table(`${FRESH}.${table.name}`)} as select ${sql.raw(table.columns)} from ${sql.table(table.name)}`.execute(db);
    restore.push(`insert into ${quoteIdent(table.name)} (${table.columns}) overriding system value `
      + `select ${table.columns} from ${quoteIdent(FRESH)}.${quoteIdent(table.name)};`);
  }
  const { rows: sequences } = await sql<{ name: string; value: string; called: boolean }>`
    select quote_ident(sequencename) as name, coalesce(last_value, start_value)::text as value, last_value is not null as called
    from pg_sequences where schemaname = current_schema()`.execute(db);
  const body = [
    // What another connection is writing (a job, an answer's audit row written after it) finishes first, and nothing
    // is written until the install is fresh again: rows deleted under a writer would outlive the sequences set back.
    `lock table ${tables.map((table) => quoteIdent(table.name)).join(', ')} in access exclusive mode;`,
    'set local session_replication_role = replica;',
    ...tables.map((table) => `delete from ${quoteIdent(table.name)};`),
    ...restore,
    ...sequences.map((q) => `perform setval('${q.name}', ${q.value}, ${q.called});`),
  ].join('\n');
  await sql.raw(`create function ${quoteIdent(FRESH)}.reset() returns void language plpgsql as $reset$ begin\n${body}\nend $reset$`).execute(db);
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Empties every table and puts the seeded rows and the sequences back, so each test starts from a fresh install. */
export async function resetDatabase(database: Database): Promise<void> {
  await sql`select ${sql.id(FRESH)}.reset()`.execute(database.db);
}
