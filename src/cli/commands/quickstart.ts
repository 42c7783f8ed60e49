import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { MEMORY_DATA_DIR } from '../../db/create-db.js';
import { seed, seedOptionsOf } from '../../db/seed/seed.js';
import { serve, type Runtime } from '../../main.js';
import { strongPassword } from '../../security/random.js';
import { print, printError } from '../output.js';
import { withRuntime } from './database.js';

type Created = Awaited<ReturnType<Runtime['container']['services']['applications']['ensureDefault']>>;

/** migrate + seed (with the console's application when it is on) + "Default App" when no application exists. */
async function prepare(rt: Runtime): Promise<Created> {
  await migrateToLatest(rt.database.db);
  await seed(rt.database.db, seedOptionsOf(rt.loaded.config));
  return rt.container.services.applications.ensureDefault();
}

/** The console's first operator, created by `npm start` only: the address it signs in with. */
export const FIRST_OPERATOR_EMAIL = 'admin@example.com';

/**
 * `npm start` on a fresh database with the console on: a staff account holding `admin`, with a random temporary
 * password that must be changed at the first sign-in (where two-factor authentication is set up too), so the console
 * can be tried at once. Never by `serve`, and never once any staff account exists.
 */
async function ensureFirstOperator(rt: Runtime): Promise<{ email: string; password: string } | null> {
  if (!rt.loaded.config.CONSOLE_ENABLED) return null;
  const staff = await rt.database.db.selectFrom('users').select('id').where('is_staff', '=', true).limit(1).executeTakeFirst();
  if (staff) return null;
  const password = strongPassword();
  await rt.container.services.users.create({ email: FIRST_OPERATOR_EMAIL, password, first_name: 'Console', last_name: 'Admin',
    roles: ['admin'], is_staff: true, must_change_password: true, verified: true });
  return { email: FIRST_OPERATOR_EMAIL, password };
}

function printCredentials(created: Created, apiUrl?: string): void {
  if (!created) {
    print('An application already exists; its secret was shown when it was created (`gatehouse app list` names it, and '
      + '`gatehouse app regenerate <name>` replaces a lost secret).');
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

/** Where the admin console is, and the first operator's temporary password when this start created it. */
function printConsole(apiUrl: string, operator: { email: string; password: string } | null): void {
  print(`Admin console: ${new URL('/console/', apiUrl).href}`);
  if (operator) {
    print(`  Sign in as ${operator.email} with the temporary password ${operator.password}`);
    print('  (shown this once: you choose a new password and set up two-factor authentication at the first sign-in)');
  } else {
    print('  Sign in with a staff account holding the admin role (gatehouse user create --role admin --staff).');
  }
  print('');
}

export async function quickstartCommand(env: Env): Promise<void> {
  await withRuntime(env, async (rt) => {
    print(`Database: ${rt.database.kind} (${rt.database.location})`);
    printCredentials(await prepare(rt));
  });
}

/**
 * On the embedded database, `gatehouse` commands started in other terminals run inside this server (docs/cli.md
 * "Beside a running server"), since no other process may open the database meanwhile.
 */
async function acceptCommands(rt: Runtime): Promise<void> {
  const { DATA_DIR } = rt.loaded.config;
  if (rt.database.kind !== 'pglite' || DATA_DIR === MEMORY_DATA_DIR) return;
  const [{ openCommandChannel }, { runCommand }] = await Promise.all([import('../channel.js'), import('../main.js')]);
  try {
    await openCommandChannel(rt, DATA_DIR, runCommand);
  } catch (err) {
    printError(`warning: gatehouse commands in other terminals cannot reach this server: ${(err as Error).message}`);
  }
}

/** `npm start`: debug mode and the development preset unless set otherwise, quickstart, then serve. */
export async function startCommand(env: Env): Promise<void> {
  let created: Created = null;
  let operator: Awaited<ReturnType<typeof ensureFirstOperator>> = null;
  await serve({ SVC_DEBUG: 'true', ...env }, {
    migrate: true,
    beforeListen: async (rt) => {
      created = await prepare(rt);
      operator = await ensureFirstOperator(rt);
      await acceptCommands(rt);
    },
    onListening: (url, rt) => {
      print(`Gatehouse is serving ${url} (database: ${rt.database.kind} at ${rt.database.location}, preset: ${rt.loaded.preset}${rt.loaded.config.DEBUG ? ', debug' : ''})`);
      const secrets = rt.loaded.debugSecrets;
      if (secrets) {
        print(`Debug secrets: ${secrets.file}${secrets.created ? ' (generated now)' : ''}; they seal what the database stores, so `
          + 'restarts keep sessions, two-factor authentication and webhook secrets. Keep the file with the data.');
      }
      printCredentials(created, url);
      if (rt.loaded.config.CONSOLE_ENABLED) printConsole(url, operator);
    },
  });
}

export async function serveCommand(env: Env, opts: { migrate: boolean }): Promise<void> {
  await serve(env, {
    migrate: opts.migrate,
    beforeListen: acceptCommands,
    onListening: (url, rt) => {
      print(`Gatehouse is serving ${url} (database: ${rt.database.kind}, preset: ${rt.loaded.preset})`);
    },
  });
}
