import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { seed, seedOptionsOf } from '../../db/seed/seed.js';
import { serve, type Runtime } from '../../main.js';
import { print } from '../output.js';
import { withRuntime } from './database.js';

type Created = Awaited<ReturnType<Runtime['container']['services']['applications']['ensureDefault']>>;

/** migrate + seed (with the console's application when it is on) + "Default App" when no application exists. */
async function prepare(rt: Runtime): Promise<Created> {
  await migrateToLatest(rt.database.db);
  await seed(rt.database.db, seedOptionsOf(rt.loaded.config));
  return rt.container.services.applications.ensureDefault();
}

function printCredentials(created: Created, apiUrl?: string): void {
  if (!created) {
    print('An application already exists; its secret was shown when it was created (regenerate it through the API if lost).');
    return;
  }
  print('');
  print(`Application "${created.application.name}" created. Save the secret now: it is not shown again.`);
  print(`  X-Access-Key:    ${created.credentials.access_key}`);
  print(`  X-Access-Secret: ${created.credentials.access_secret}`);
  if (apiUrl) {
    print('');
    print(`  curl -H 'X-Access-Key: ${created.credentials.access_key}' -H 'X-Access-Secret: <secret>' ${apiUrl}docs/schema/`);
  }
  print('');
}

export async function quickstartCommand(env: Env): Promise<void> {
  await withRuntime(env, async (rt) => {
    print(`Database: ${rt.database.kind} (${rt.database.location})`);
    printCredentials(await prepare(rt));
  });
}

/** `npm start`: debug mode and the development preset unless set otherwise, quickstart, then serve. */
export async function startCommand(env: Env): Promise<void> {
  let created: Created = null;
  await serve({ SVC_DEBUG: 'true', ...env }, {
    migrate: true,
    beforeListen: async (rt) => { created = await prepare(rt); },
    onListening: (url, rt) => {
      print(`Gatehouse is serving ${url} (database: ${rt.database.kind} at ${rt.database.location}, preset: ${rt.loaded.preset}${rt.loaded.config.DEBUG ? ', debug' : ''})`);
      printCredentials(created, url);
    },
  });
}

export async function serveCommand(env: Env, opts: { migrate: boolean }): Promise<void> {
  await serve(env, {
    migrate: opts.migrate,
    onListening: (url, rt) => print(`Gatehouse is serving ${url} (database: ${rt.database.kind}, preset: ${rt.loaded.preset})`),
  });
}
