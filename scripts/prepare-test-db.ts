// Builds the migrated, seeded PGlite data dir every test process loads (creating one from scratch takes seconds).
import { writeFile } from 'node:fs/promises';
import { openPGlite } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { seed } from '../src/db/seed/seed.js';

const out = process.argv[2];
if (!out) throw new Error('usage: prepare-test-db <output.tar>');
const database = await openPGlite('memory://');
await migrateToLatest(database.db);
await seed(database.db);
const dump = await database.dumpDataDir!();
await writeFile(out, Buffer.from(await dump.arrayBuffer()));
await database.close();
