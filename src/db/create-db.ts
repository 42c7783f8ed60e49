import { join, resolve } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { SETTINGS, type Config } from '../config/settings.js';
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
  /**
   * Where request counters are written (the agent breakers' per-request counts): PostgreSQL connections whose
   * commits do not wait for the WAL to reach the disk (`synchronous_commit = off`). A crash of PostgreSQL can lose
   * the last fraction of a second of counts, never a state change, which go through `db`. The embedded database
   * has the one connection: `db` itself.
   */
  counters: Db;
  /** PostgreSQL only: the connection URL, for the one connection that LISTENs for changes made by other instances. */
  url?: string;
}

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

const INT8_OID = 20;
const INT8_ARRAY_OID = 1016;
const NUMERIC_OID = 1700;

export const MEMORY_DATA_DIR = 'memory://';

type DatabaseSettings = Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_SIZE' | 'DATABASE_PREPARED_STATEMENTS'>
  & Partial<Pick<Config, 'DATABASE_CONNECT_TIMEOUT' | 'DATABASE_STATEMENT_TIMEOUT'>>;

export interface OpenOptions {
  pgliteTemplate?: Blob;
  /**
   * Bounds every query (server-side statement and idle-in-transaction timeouts, a client-side read timeout), so a
   * request fails fast when PostgreSQL stalls. For serving; one-shot commands and migrations run without.
   */
  boundQueries?: boolean;
  /** Told of every error of a pooled connection (the pool drops that connection and opens another when needed). */
  onConnectionError?: (err: Error) => void;
}

/** Opens PostgreSQL when a database URL is set, otherwise the embedded PGlite database. */
export async function openDatabase(config: DatabaseSettings, opts: OpenOptions = {}): Promise<Database> {
  if (!config.DATABASE_URL) return openPGlite(config.DATA_DIR, opts.pgliteTemplate);
  const statementTimeout = config.DATABASE_STATEMENT_TIMEOUT ?? SETTINGS.DATABASE_STATEMENT_TIMEOUT.default;
  return openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE, config.DATABASE_PREPARED_STATEMENTS, {
    connectTimeoutMs: (config.DATABASE_CONNECT_TIMEOUT ?? SETTINGS.DATABASE_CONNECT_TIMEOUT.default) * 1000,
    ...(opts.boundQueries ? { statementTimeoutMs: statementTimeout * 1000 } : {}),
    ...(opts.onConnectionError ? { onConnectionError: opts.onConnectionError } : {}),
  });
}

/** How much longer than the server's statement timeout the client waits for an answer before it drops the connection. */
const READ_TIMEOUT_MARGIN_MS = 1000;
/**
 * No request leaves a transaction idle: hashing and outbound calls happen outside transactions. A session idle in
 * one this long belongs to a client that is gone (a stalled network), and its locks must not outlive it.
 */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;
/** pg's own message when `query_timeout` expires (the error carries no code). */
const READ_TIMEOUT_MESSAGE = 'Query read timeout';

export interface PostgresOptions {
  /** Waiting for a connection: opening one, or a free one from a full pool. */
  connectTimeoutMs?: number;
  /** Set: every query is bounded (see `OpenOptions.boundQueries`). */
  statementTimeoutMs?: number;
  onConnectionError?: (err: Error) => void;
}

export async function openPostgres(url: string, poolSize = 10, preparedStatements = true, opts: PostgresOptions = {}): Promise<Database> {
  const { default: pg } = await import('pg');
  // pg's TypeId names scalar types only; its parser for int8[] answers strings.
  const parseTextInt8Array = pg.types.getTypeParser(INT8_ARRAY_OID as Parameters<typeof pg.types.getTypeParser>[0], 'text');
  const parseInt8Array = (text: string): Array<number | null> =>
    (parseTextInt8Array(text) as Array<string | null>).map((v) => (v === null ? null : Number(v)));
  const nameFor = preparedStatements ? createStatementNamer() : () => undefined;
  const onConnectionError = opts.onConnectionError ?? (() => undefined);
  /**
   * Sends the texts that keep coming back as named statements, prepared once per connection. The query is built
   * from the text (pg copies a query given as an object property by property, which costs more than the query's
   * own round trip on the hot paths) and handed to pg as a ready query.
   */
  class Client extends pg.Client {
    constructor(config?: ConstructorParameters<typeof pg.Client>[0]) {
      super(config);
      // A checked-out client has no other listener (pg-pool listens only while it is idle): without this one, a
      // connection reset during a request is an unhandled 'error' event, which ends the process. The query in
      // flight fails on its own, and the pool drops a client that is no longer queryable when it is released.
      this.on('error', onConnectionError);
    }

    override query(...args: unknown[]): never {
      const [text, values] = args;
      const call = super.query as (...a: unknown[]) => never;
      if (typeof text !== 'string' || !(args.length === 1 || Array.isArray(values))) return call.apply(this, args);
      const name = nameFor(text);
      return new Promise((resolve, reject) => {
        const query = Object.assign(new pg.Query(text, values as unknown[] | undefined), {
          ...(name ? { name } : {}),
          callback: (err: Error | null, res: unknown) => {
            if (!err) return resolve(res);
            if (err.message === READ_TIMEOUT_MESSAGE) this.abandon(err);
            reject(err);
          },
        });
        call.call(this, query);
      }) as never;
    }

    /**
     * pg gives up waiting on a query at `query_timeout` but leaves it on the connection: whatever is sent next
     * would queue behind it. The connection is closed instead, so the pool drops this client on release.
     */
    private abandon(err: Error): void {
      onConnectionError(err);
      this.end().catch(() => undefined);
    }
  }
  const bounds = opts.statementTimeoutMs ? {
    statement_timeout: opts.statementTimeoutMs,
    query_timeout: opts.statementTimeoutMs + READ_TIMEOUT_MARGIN_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
  } : {};
  const poolOf = (max: number, options?: string) => {
    const p = new pg.Pool({
      Client,
      connectionString: url,
      max,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? SETTINGS.DATABASE_CONNECT_TIMEOUT.default * 1000,
      ...bounds,
      ...(options ? { options } : {}),
      // Identities and counts are int8; every id fits in a JS number, so read them as numbers. Arrays of them too
      // (an organization's `ancestor_ids`), as the embedded database does: a path of strings never matches an id.
      types: { getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : oid === INT8_ARRAY_OID ? parseInt8Array : pg.types.getTypeParser(oid, format) },
    });
    // An idle client's error reaches the pool too, which drops the client; the client's own listener has reported it.
    p.on('error', () => undefined);
    return p;
  };
  const pool = poolOf(poolSize);
  const location = redactUrl(url);
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(`Cannot connect to PostgreSQL at ${location}: ${(err as Error).message}`);
  }
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  // Opened on first use, at most half as many connections as the main pool.
  const counters = new Kysely<DatabaseSchema>({
    dialect: new PostgresDialect({ pool: poolOf(Math.max(1, Math.ceil(poolSize / 2)), '-c synchronous_commit=off') }),
  });
  return { db, counters, kind: 'postgres', location, url, close: async () => { await Promise.all([db.destroy(), counters.destroy()]); } };
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
      counters: db,
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
