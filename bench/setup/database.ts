import type { Db } from '../../src/db/database.js';
import { openDatabase } from '../../src/db/create-db.js';

/**
 * Runs `seed` on Gatehouse's database, opened the way the server opens it (so the PGlite directory lock and layout
 * are the server's), from SVC_DATABASE_URL (PostgreSQL) or SVC_DATA_DIR (PGlite), then closes it.
 */
export async function withGatehouseDatabase(seed: (db: Db) => Promise<void>): Promise<void> {
  const database = await openDatabase({
    DATABASE_URL: process.env.SVC_DATABASE_URL || null,
    DATA_DIR: process.env.SVC_DATA_DIR ?? './data',
    DATABASE_POOL_SIZE: 2,
    DATABASE_PREPARED_STATEMENTS: false,
  });
  try {
    await seed(database.db);
  } finally {
    await database.close();
  }
}
