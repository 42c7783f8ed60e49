import { after, before } from 'node:test';
import { pathToFileURL } from 'node:url';
import { closeTestDatabase, keepDatabaseOpen } from './database.js';

/**
 * Runs several test files in this one process, one after the other (scripts/run-tests.mjs writes an entry that calls
 * this): the process starts, loads the code and opens its embedded database once for all of them. Each file's suites
 * still get a fresh install (test/helpers/database.ts empties the database a file released), and the database is
 * closed (dropped, on PostgreSQL) once every test has run.
 */
export async function runShard(files: string[]): Promise<void> {
  keepDatabaseOpen();
  // The first file's tests would start while the next ones load, and the run could end before they are all declared:
  // nothing runs until every file is loaded.
  let loaded!: () => void;
  const allLoaded = new Promise<void>((resolve) => { loaded = resolve; });
  before(() => allLoaded);
  after(closeTestDatabase);
  try {
    for (const file of files) await import(pathToFileURL(file).href);
  } finally {
    loaded();
  }
}
