import { Migrator, type MigrationResult } from 'kysely';
import type { Db } from './database.js';
import { MIGRATIONS } from './migrations/index.js';

const migratorFor = (db: Db) => new Migrator({
  db,
  provider: { getMigrations: async () => MIGRATIONS },
  migrationTableName: 'gatehouse_migrations',
  migrationLockTableName: 'gatehouse_migrations_lock',
});

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Applies pending migrations (under Kysely's lock, so concurrent instances apply each once). */
export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const { error, results } = await migratorFor(db).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new MigrationError(`Migration ${failed ?? ''} failed: ${(error as Error).message ?? String(error)}`.replace('  ', ' '));
  }
  return results ?? [];
}

export interface MigrationStatus {
  name: string;
  executedAt: Date | null;
}

export async function migrationStatus(db: Db): Promise<MigrationStatus[]> {
  const list = await migratorFor(db).getMigrations();
  return list.map((m) => ({ name: m.name, executedAt: m.executedAt ?? null }));
}

export async function pendingMigrationCount(db: Db): Promise<number> {
  return (await migrationStatus(db)).filter((m) => m.executedAt === null).length;
}
