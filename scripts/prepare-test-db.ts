// Builds the migrated, seeded PGlite data dir every test process loads (creating one from scratch takes seconds), with
// what a test needs to go back to a fresh install (test/helpers/database.ts).
import { writeFile } from 'node:fs/promises';
import { openPGlite } from '../src/db/create-db.js';
import { prepareFreshInstall } from '../test/helpers/database.js';

const out = process.argv[2];
if (!out) throw new Error('usage: prepare-test-db <output.tar>');
const database = await openPGlite('memory://');
await prepareFreshInstall(database.db);
const dump = await database.dumpDataDir!();
await writeFile(out, Buffer.from(await dump.arrayBuffer()));
await database.close();
