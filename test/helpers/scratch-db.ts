import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Env } from '../../src/config/load.js';
import { openPGlite, openPostgres, type Database } from '../../src/db/create-db.js';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { seed } from '../../src/db/seed/seed.js';

export type DatabaseKind = 'pglite' | 'postgres';

/** The databases every CLI test runs against; PostgreSQL only when TEST_DATABASE_URL names a server. */
export const DATABASE_TARGETS: Array<{ kind: DatabaseKind; skip: string | false }> = [
  // CI's PostgreSQL pass sets TEST_SKIP_PGLITE=1: its PGlite pass already ran these.
  { kind: 'pglite', skip: process.env.TEST_SKIP_PGLITE === '1' ? 'TEST_SKIP_PGLITE=1: the PGlite pass runs these' : false },
  { kind: 'postgres', skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set, so PostgreSQL is not tested' },
];

/** The entry of DATABASE_TARGETS for `kind` (whether this run tests that database, and why not). */
export const databaseTarget = (kind: DatabaseKind) => DATABASE_TARGETS.find((t) => t.kind === kind)!;

export interface ScratchPostgres {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server, for one test. */
export async function createScratchPostgres(): Promise<ScratchPostgres> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `gatehouse_cli_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try { await client.query(statement); } finally { await client.end(); }
  };
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

export interface ScratchDatabase {
  kind: DatabaseKind;
  /** What selects this database in a child's environment: `SVC_DATA_DIR` or `SVC_DATABASE_URL`. */
  env: Env;
  /** PGlite: the data directory (it holds `pglite/` and, while open, `gatehouse.lock`). */
  dataDir?: string;
  /** Opens the database in this process (no CLI or server may hold a PGlite directory), runs `fn`, closes. */
  inspect<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

let preparedDir: Promise<string> | undefined;

/**
 * A migrated, seeded PGlite directory that scratch directories start as copies of. Built from the test
 * runner's prepared database and kept beside it, so test processes share it; otherwise one per process.
 */
function preparedPGliteDir(): Promise<string> {
  preparedDir ??= (async () => {
    // The runner prepares it only for PGlite runs; with TEST_DATABASE_URL it may not exist.
    const given = process.env.GATEHOUSE_TEST_PGLITE_TEMPLATE;
    const templatePath = given && existsSync(given) ? given : undefined;
    const shared = templatePath ? `${templatePath}.d` : undefined;
    if (shared && existsSync(join(shared, 'pglite'))) return shared;
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-cli-prepared-'));
    const template = templatePath ? new Blob([await readFile(templatePath)]) : undefined;
    const database = await openPGlite(dir, template);
    try {
      await migrateToLatest(database.db);
      await seed(database.db);
    } finally {
      await database.close();
    }
    if (shared) {
      // One rename wins; a process that lost the race uses the winner's copy.
      try { await rename(dir, shared); } catch { await rm(dir, { recursive: true, force: true }); }
      return shared;
    }
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  })();
  return preparedDir;
}

async function inspectWith<T>(open: () => Promise<Database>, fn: (db: Db) => Promise<T>): Promise<T> {
  const database = await open();
  try { return await fn(database.db); } finally { await database.close(); }
}

/**
 * A database for one test. `prepared`: migrated and seeded already (what most commands find on a
 * running installation); otherwise empty, as on a fresh install.
 */
export async function createScratchDatabase(kind: DatabaseKind, opts: { prepared?: boolean } = {}): Promise<ScratchDatabase> {
  if (kind === 'postgres') {
    const scratch = await createScratchPostgres();
    if (opts.prepared) {
      await inspectWith(() => openPostgres(scratch.url, 1), async (db) => { await migrateToLatest(db); await seed(db); });
    }
    return {
      kind,
      env: { SVC_DATABASE_URL: scratch.url },
      inspect: (fn) => inspectWith(() => openPostgres(scratch.url, 1), fn),
      drop: scratch.drop,
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-cli-'));
  if (opts.prepared) await cp(join(await preparedPGliteDir(), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
  return {
    kind,
    env: { SVC_DATA_DIR: dataDir },
    dataDir,
    inspect: (fn) => inspectWith(() => openPGlite(dataDir), fn),
    drop: () => rm(dataDir, { recursive: true, force: true }),
  };
}
