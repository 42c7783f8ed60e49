import { join, resolve } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import type { Config } from '../config/settings.js';
import type { DatabaseSchema, Db } from './database.js';
import { PGliteDialect } from './dialects/pglite.js';
import { acquireDirLock } from './lock-file.js';
import { createStatementNamer } from './prepared-statements.js';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** Where the data lives, without credentials (for logs and CLI output). */
  location: string;
  close(): Promise<void>;
  /** Embedded only: a tarball of the data directory (tests load a prepared one). */
  dumpDataDir?(): Promise<Blob>;
}

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export const MEMORY_DATA_DIR = 'memory://';

/** Opens PostgreSQL when a database URL is set, otherwise the embedded PGlite database. */
export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_SIZE' | 'DATABASE_PREPARED_STATEMENTS'>,
  opts: { pgliteTemplate?: Blob } = {}): Promise<Database> {
  return config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE, config.DATABASE_PREPARED_STATEMENTS)
    : openPGlite(config.DATA_DIR, opts.pgliteTemplate);
}

export async function openPostgres(url: string, poolSize = 10, preparedStatements = true): Promise<Database> {
  const { default: pg } = await import('pg');
  const nameFor = preparedStatements ? createStatementNamer() : () => undefined;
  /**
   * Sends the texts that keep coming back as named statements, prepared once per connection. The named query is
   * built from the text (pg copies a query given as an object property by property, which costs more than the
   * query's own round trip on the hot paths) and handed to pg as a ready query.
   */
  class Client extends pg.Client {
    override query(...args: unknown[]): never {
      const [text, values] = args;
      const name = typeof text === 'string' && (args.length === 1 || Array.isArray(values)) ? nameFor(text) : undefined;
      const call = super.query as (...a: unknown[]) => never;
      if (!name) return call.apply(this, args);
      return new Promise((resolve, reject) => {
        const query = Object.assign(new pg.Query(text as string, values as unknown[] | undefined), {
          name, callback: (err: Error | null, res: unknown) => (err ? reject(err) : resolve(res)),
        });
        call.call(this, query);
      }) as never;
    }
  }
  const pool = new pg.Pool({
    Client,
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    // Identities and counts are int8; every id fits in a JS number, so read them as numbers.
    types: { getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format) },
  });
  pool.on('error', () => { /* idle client errors surface on the next query */ });
  const location = redactUrl(url);
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(`Cannot connect to PostgreSQL at ${location}: ${(err as Error).message}`);
  }
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', location, close: () => db.destroy() };
}

export async function openPGlite(dataDir: string, template?: Blob): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const inMemory = dataDir === MEMORY_DATA_DIR;
  const dir = inMemory ? undefined : resolve(dataDir);
  const release = dir ? acquireDirLock(dir) : () => undefined;
  try {
    const pglite = await PGlite.create({
      ...(dir ? { dataDir: join(dir, 'pglite') } : {}),
      ...(template ? { loadDataDir: template } : {}),
      parsers: { [NUMERIC_OID]: (v: string) => v },
    });
    const db = new Kysely<DatabaseSchema>({ dialect: new PGliteDialect(pglite) });
    return {
      db,
      kind: 'pglite',
      location: dir ? join(dir, 'pglite') : MEMORY_DATA_DIR,
      close: async () => { try { await db.destroy(); } finally { release(); } },
      dumpDataDir: async () => (await pglite.dumpDataDir('none')) as Blob,
    };
  } catch (err) {
    release();
    throw new DatabaseUnavailableError(`Cannot open the embedded database in ${dir ?? dataDir}: ${(err as Error).message}`);
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}
