import { readdirSync } from 'node:fs';
import pg from 'pg';
import { runCommand } from './children.js';
import { POSTGRES_ADMIN_URL } from './fixtures.js';

async function canConnect(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Starts the local Debian cluster (`pg_ctlcluster <version> main start`) when nothing answers on 127.0.0.1:5432. */
export async function ensurePostgres(): Promise<void> {
  if (await canConnect()) return;
  const versions = (() => { try { return readdirSync('/etc/postgresql'); } catch { return []; } })();
  if (!versions.length) throw new Error('PostgreSQL is not running on 127.0.0.1:5432 and no cluster exists under /etc/postgresql');
  const version = versions.sort((a, b) => parseFloat(a) - parseFloat(b)).at(-1)!;
  process.stderr.write(`Starting PostgreSQL ${version}…\n`);
  await runCommand('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { timeoutMs: 60_000 });
  for (let i = 0; i < 100; i++) {
    if (await canConnect()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('PostgreSQL did not accept connections within 20 s of starting');
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops (ending its connections) and recreates each database. Names are fixed identifiers from fixtures.ts. */
export function recreateDatabases(names: string[]): Promise<void> {
  return withAdmin(async (client) => {
    for (const name of names) {
      if (!/^[a-z_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`create database ${name}`);
    }
  });
}

/** A database's comment, or null when it has none or does not exist. */
export const databaseComment = (name: string) => withAdmin(async (client) =>
  (await client.query<{ comment: string | null }>(
    'select shobj_description(oid, \'pg_database\') as comment from pg_database where datname = $1', [name])).rows[0]?.comment ?? null);

export const postgresVersion = () => withAdmin(async (client) =>
  String((await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? 'unknown'));
