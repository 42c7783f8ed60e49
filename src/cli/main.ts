import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { commandEnvironment, currentIo, readStdin, runWithIo, setExitCode, type CommandIo } from './context.js';
import { describeFailure, print, printError, UsageError } from './output.js';

export { processIo, type CommandIo } from './context.js';
import { APP_CREATE_USAGE, APP_REGENERATE_USAGE, helpFor, KEYS_USAGE, USER_CREATE_USAGE, USERS_IMPORT_USAGE } from './usage.js';
import { AUDIT_VERIFY_USAGE, KEYS_ROTATE_ENCRYPTION_USAGE, RESOURCE_CREATE_USAGE, RESOURCE_DELETE_USAGE, RESOURCE_LIST_USAGE, USER_RESET_2FA_USAGE } from './usage.js';

// Commands load the server and database code; importing them lazily keeps `--help` and usage errors quick.
const commands = {
  apps: () => import('./commands/apps.js'),
  audit: () => import('./commands/audit.js'),
  create: () => import('./commands/create.js'),
  database: () => import('./commands/database.js'),
  jobs: () => import('./commands/jobs.js'),
  keys: () => import('./commands/keys.js'),
  quickstart: () => import('./commands/quickstart.js'),
  resources: () => import('./commands/resources.js'),
  secrets: () => import('./commands/secrets.js'),
  users: () => import('./commands/users.js'),
};

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** From `src/cli/` and from `dist/cli/` alike, package.json is two levels up. */
const version = () => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

type Spec = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parse<O extends Spec>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]} (usage: gatehouse ${usage})`);
  }
}

async function run(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  if (command === '--version' || command === '-v') { print(version()); return; }
  // Before any parsing: help needs neither valid options nor a database.
  if (command === undefined || command === 'help' || argv.some(isHelp)) {
    currentIo().out(helpFor(command === 'help' ? argv.slice(1) : argv));
    return;
  }
  const env = commandEnvironment();
  switch (command) {
    case 'serve': {
      const { values } = parse(argv.slice(1), { 'no-migrate': { type: 'boolean' } }, 'serve [--no-migrate]');
      return (await commands.quickstart()).serveCommand(env, { migrate: !values['no-migrate'] });
    }
    case 'start': {
      parse(argv.slice(1), {}, 'start');
      return (await commands.quickstart()).startCommand(env);
    }
    case 'migrate': {
      const { values } = parse(argv.slice(1), { status: { type: 'boolean' } }, 'migrate [--status]');
      return (await commands.database()).migrateCommand(env, { status: Boolean(values.status) });
    }
    case 'seed': {
      parse(argv.slice(1), {}, 'seed');
      return (await commands.database()).seedCommand(env);
    }
    case 'quickstart': {
      parse(argv.slice(1), {}, 'quickstart');
      return (await commands.quickstart()).quickstartCommand(env);
    }
    case 'app': {
      if (sub === 'list') {
        const { values } = parse(rest, { json: { type: 'boolean' } }, 'app list [--json]');
        return (await commands.apps()).appListCommand(env, { json: Boolean(values.json) });
      }
      if (sub === 'regenerate') {
        const { values, positionals } = parse(rest, { json: { type: 'boolean' } }, APP_REGENERATE_USAGE);
        if (positionals.length !== 1) {
          throw new UsageError(`app regenerate: name one application (usage: gatehouse ${APP_REGENERATE_USAGE})`);
        }
        return (await commands.apps()).appRegenerateCommand(env, { application: positionals[0]!, json: Boolean(values.json) });
      }
      if (sub !== 'create') throw new UsageError(`usage: gatehouse ${APP_CREATE_USAGE} | app list [--json] | ${APP_REGENERATE_USAGE}`);
      const { values } = parse(rest, {
        name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true },
        'post-logout-redirect-uri': { type: 'string', multiple: true },
        origin: { type: 'string', multiple: true }, public: { type: 'boolean' }, json: { type: 'boolean' },
      }, APP_CREATE_USAGE);
      return (await commands.create()).appCreateCommand(env, {
        name: values.name as string | undefined,
        redirectUris: (values['redirect-uri'] as string[] | undefined) ?? [],
        postLogoutRedirectUris: (values['post-logout-redirect-uri'] as string[] | undefined) ?? [],
        origins: (values.origin as string[] | undefined) ?? [],
        isPublic: Boolean(values.public),
        json: Boolean(values.json),
      });
    }
    case 'user': {
      if (sub === 'reset-2fa') {
        const { positionals } = parse(rest, {}, USER_RESET_2FA_USAGE);
        return (await commands.secrets()).userReset2faCommand(env, positionals);
      }
      if (sub !== 'create') throw new UsageError(`usage: gatehouse ${USER_CREATE_USAGE}`);
      const { values } = parse(rest, {
        // --password is parsed only to be refused with a message saying what to use instead.
        email: { type: 'string' }, password: { type: 'string' }, 'password-stdin': { type: 'boolean' },
        'generate-password': { type: 'boolean' }, phone: { type: 'string' },
        'first-name': { type: 'string' }, 'last-name': { type: 'string' }, role: { type: 'string', multiple: true },
        staff: { type: 'boolean' }, superuser: { type: 'boolean' }, 'must-change-password': { type: 'boolean' },
        verified: { type: 'boolean' }, json: { type: 'boolean' },
      }, USER_CREATE_USAGE);
      return (await commands.create()).userCreateCommand(env, {
        email: values.email as string | undefined,
        passwordGiven: values.password !== undefined,
        passwordStdin: Boolean(values['password-stdin']),
        generatePassword: Boolean(values['generate-password']),
        phone: values.phone as string | undefined,
        firstName: values['first-name'] as string | undefined,
        lastName: values['last-name'] as string | undefined,
        roles: (values.role as string[] | undefined) ?? [],
        staff: Boolean(values.staff),
        superuser: Boolean(values.superuser),
        mustChangePassword: Boolean(values['must-change-password']),
        verified: Boolean(values.verified),
        json: Boolean(values.json),
      });
    }
    case 'users': {
      if (sub !== 'import') throw new UsageError(`usage: gatehouse ${USERS_IMPORT_USAGE}`);
      const { values, positionals } = parse(rest, {
        format: { type: 'string' }, 'dry-run': { type: 'boolean' }, update: { type: 'boolean' },
      }, USERS_IMPORT_USAGE);
      if (positionals.length > 1) throw new UsageError(`users import: one file at a time (usage: gatehouse ${USERS_IMPORT_USAGE})`);
      return (await commands.users()).usersImportCommand(env, {
        file: positionals[0], format: values.format as string | undefined,
        dryRun: Boolean(values['dry-run']), update: Boolean(values.update),
      });
    }
    case 'resource': {
      if (sub === 'list') {
        const { values } = parse(rest, { json: { type: 'boolean' } }, RESOURCE_LIST_USAGE);
        return (await commands.resources()).resourceListCommand(env, { json: Boolean(values.json) });
      }
      if (sub === 'delete') {
        const { positionals } = parse(rest, {}, RESOURCE_DELETE_USAGE);
        if (positionals.length !== 1) throw new UsageError(`resource delete: name one resource (usage: gatehouse ${RESOURCE_DELETE_USAGE})`);
        return (await commands.resources()).resourceDeleteCommand(env, { resource: positionals[0]! });
      }
      if (sub !== 'create') throw new UsageError(`usage: gatehouse ${RESOURCE_CREATE_USAGE} | ${RESOURCE_LIST_USAGE} | ${RESOURCE_DELETE_USAGE}`);
      const { values } = parse(rest, { uri: { type: 'string' }, name: { type: 'string' }, scope: { type: 'string', multiple: true },
        json: { type: 'boolean' } }, RESOURCE_CREATE_USAGE);
      return (await commands.resources()).resourceCreateCommand(env, { uri: values.uri as string | undefined,
        name: values.name as string | undefined, scopes: (values.scope as string[] | undefined) ?? [], json: Boolean(values.json) });
    }
    case 'audit': {
      if (sub !== 'verify') throw new UsageError(`usage: gatehouse ${AUDIT_VERIFY_USAGE}`);
      const { values, positionals } = parse(rest, { token: { type: 'string' }, jwks: { type: 'string' } }, AUDIT_VERIFY_USAGE);
      const token = values.token as string | undefined;
      if (positionals.length !== (token === undefined ? 1 : 0)) {
        throw new UsageError(`audit verify: name one exported file or --token <id> (usage: gatehouse ${AUDIT_VERIFY_USAGE})`);
      }
      if (token !== undefined) {
        if (values.jwks !== undefined) throw new UsageError('audit verify: --jwks checks an exported file\'s checkpoint, not --token');
        return (await commands.audit()).auditVerifyTokenCommand(env, { token });
      }
      return (await commands.audit()).auditVerifyFileCommand({ file: positionals[0]!, jwks: values.jwks as string | undefined });
    }
    case 'keys': {
      if (sub === 'list') {
        const { values } = parse(rest, { json: { type: 'boolean' } }, 'keys list [--json]');
        return (await commands.keys()).keysListCommand(env, { json: Boolean(values.json) });
      }
      if (sub === 'rotate-encryption') {
        const { values } = parse(rest, { from: { type: 'string' }, to: { type: 'string' } }, KEYS_ROTATE_ENCRYPTION_USAGE);
        return (await commands.secrets()).keysRotateEncryptionCommand(env, { from: values.from as string | undefined,
          to: values.to as string | undefined });
      }
      if (sub !== 'rotate') throw new UsageError(`usage: gatehouse ${KEYS_USAGE}`);
      parse(rest, {}, 'keys rotate');
      return (await commands.keys()).keysRotateCommand(env);
    }
    case 'jobs': {
      if (sub !== 'run') throw new UsageError('usage: gatehouse jobs run <name>');
      const { positionals } = parse(rest, {}, 'jobs run <name>');
      return (await commands.jobs()).jobsRunCommand(env, positionals[0]);
    }
    default:
      throw new UsageError(`unknown command "${command}"; run \`gatehouse --help\``);
  }
}

/** Commands that never run inside a running server: they start one, need none, or must not run beside one. */
const RUN_HERE = new Set([undefined, 'help', '--help', '-h', 'serve', 'start', 'quickstart']);

/**
 * What a command run in the server gets of this terminal: standard input for a command that reads it (all of it, before
 * the command starts), and a password asked here rather than on the server's terminal.
 */
async function callerInput(argv: string[]): Promise<{ forwarded: string[]; stdin: Buffer | null }> {
  if (argv.includes('--password-stdin')) return { forwarded: argv, stdin: Buffer.from(await readStdin(), 'utf8') };
  const asksPassword = argv[0] === 'user' && argv[1] === 'create' && !argv.includes('--generate-password') && !argv.includes('--password');
  if (asksPassword && currentIo().stdinIsTTY) {
    const { promptNewPassword } = await import('./password-input.js');
    const password = await promptNewPassword('user create');
    return { forwarded: [...argv, '--password-stdin'], stdin: Buffer.from(`${password}\n`, 'utf8') };
  }
  return { forwarded: argv, stdin: null };
}

/** Runs one command and reports its failure as one line; the exit status goes to whoever asked (see `setExitCode`). */
export async function runCommand(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (err) {
    printError(`gatehouse: ${describeFailure(err)}`);
    setExitCode(1);
  }
}

/**
 * `gatehouse <argv>` in the world `io` (`processIo()` for the executable): answers the exit status. `serve` and `start`
 * answer once the server listens, and keep running in this process.
 */
export function main(argv: string[], io: CommandIo): Promise<number> {
  return runWithIo(io, async () => {
    // Re-sealing the stored secrets needs the server stopped: it runs here, and says so while a server holds the database.
    const needsServerStopped = argv[0] === 'keys' && argv[1] === 'rotate-encryption';
    if (!RUN_HERE.has(argv[0]) && !needsServerStopped && !argv.includes('--help') && !argv.includes('-h')) {
      const { runInServer, serverChannel } = await import('./channel.js');
      const channel = serverChannel(commandEnvironment());
      if (channel !== null) {
        const { forwarded, stdin } = await callerInput(argv);
        const status = await runInServer(channel, forwarded, stdin);
        if (status !== null) { setExitCode(status); return; }
      }
    }
    await runCommand(argv);
  });
}
