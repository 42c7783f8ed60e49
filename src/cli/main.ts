import { parseArgs } from 'node:util';
import { readEnvironment } from '../config/env.js';
import { describeFailure, print, UsageError } from './output.js';
import { APP_CREATE_USAGE, HELP, KEYS_USAGE, USER_CREATE_USAGE, USERS_IMPORT_USAGE } from './usage.js';
import { KEYS_ROTATE_ENCRYPTION_USAGE, USER_RESET_2FA_USAGE } from './usage.js';

// Commands load the server and database code; importing them lazily keeps `--help` and usage errors quick.
const commands = {
  create: () => import('./commands/create.js'),
  database: () => import('./commands/database.js'),
  jobs: () => import('./commands/jobs.js'),
  keys: () => import('./commands/keys.js'),
  quickstart: () => import('./commands/quickstart.js'),
  secrets: () => import('./commands/secrets.js'),
  users: () => import('./commands/users.js'),
};

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

type Spec = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parse<O extends Spec>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]} (usage: gatehouse ${usage})`);
  }
}

async function run(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  const env = readEnvironment();
  const wantsHelp = (v: { help?: unknown }) => { if (v.help) { print(HELP); return true; } return false; };
  switch (command) {
    case undefined: case 'help': case '--help': case '-h':
      print(HELP);
      return;
    case 'serve': {
      const { values } = parse(argv.slice(1), { 'no-migrate': { type: 'boolean' } }, 'serve [--no-migrate]');
      if (wantsHelp(values)) return;
      return (await commands.quickstart()).serveCommand(env, { migrate: !values['no-migrate'] });
    }
    case 'start': {
      const { values } = parse(argv.slice(1), {}, 'start');
      if (wantsHelp(values)) return;
      return (await commands.quickstart()).startCommand(env);
    }
    case 'migrate': {
      const { values } = parse(argv.slice(1), { status: { type: 'boolean' } }, 'migrate [--status]');
      if (wantsHelp(values)) return;
      return (await commands.database()).migrateCommand(env, { status: Boolean(values.status) });
    }
    case 'seed': {
      const { values } = parse(argv.slice(1), {}, 'seed');
      if (wantsHelp(values)) return;
      return (await commands.database()).seedCommand(env);
    }
    case 'quickstart': {
      const { values } = parse(argv.slice(1), {}, 'quickstart');
      if (wantsHelp(values)) return;
      return (await commands.quickstart()).quickstartCommand(env);
    }
    case 'app': {
      if (isHelp(sub)) { print(HELP); return; }
      if (sub !== 'create') throw new UsageError(`usage: gatehouse ${APP_CREATE_USAGE}`);
      const { values } = parse(rest, {
        name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true },
        origin: { type: 'string', multiple: true }, public: { type: 'boolean' }, json: { type: 'boolean' },
      }, APP_CREATE_USAGE);
      if (wantsHelp(values)) return;
      return (await commands.create()).appCreateCommand(env, {
        name: values.name as string | undefined,
        redirectUris: (values['redirect-uri'] as string[] | undefined) ?? [],
        origins: (values.origin as string[] | undefined) ?? [],
        isPublic: Boolean(values.public),
        json: Boolean(values.json),
      });
    }
    case 'user': {
      if (isHelp(sub)) { print(HELP); return; }
      if (sub === 'reset-2fa') {
        const { values, positionals } = parse(rest, {}, USER_RESET_2FA_USAGE);
        if (wantsHelp(values)) return;
        return (await commands.secrets()).userReset2faCommand(env, positionals);
      }
      if (sub !== 'create') throw new UsageError(`usage: gatehouse ${USER_CREATE_USAGE}`);
      const { values } = parse(rest, {
        email: { type: 'string' }, password: { type: 'string' }, phone: { type: 'string' },
        'first-name': { type: 'string' }, 'last-name': { type: 'string' }, role: { type: 'string', multiple: true },
        staff: { type: 'boolean' }, superuser: { type: 'boolean' }, 'must-change-password': { type: 'boolean' },
        verified: { type: 'boolean' }, json: { type: 'boolean' },
      }, USER_CREATE_USAGE);
      if (wantsHelp(values)) return;
      return (await commands.create()).userCreateCommand(env, {
        email: values.email as string | undefined,
        password: values.password as string | undefined,
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
      if (isHelp(sub)) { print(HELP); return; }
      if (sub !== 'import') throw new UsageError(`usage: gatehouse ${USERS_IMPORT_USAGE}`);
      const { values, positionals } = parse(rest, {
        format: { type: 'string' }, 'dry-run': { type: 'boolean' }, update: { type: 'boolean' },
      }, USERS_IMPORT_USAGE);
      if (wantsHelp(values)) return;
      if (positionals.length > 1) throw new UsageError(`users import: one file at a time (usage: gatehouse ${USERS_IMPORT_USAGE})`);
      return (await commands.users()).usersImportCommand(env, {
        file: positionals[0], format: values.format as string | undefined,
        dryRun: Boolean(values['dry-run']), update: Boolean(values.update),
      });
    }
    case 'keys': {
      if (isHelp(sub)) { print(HELP); return; }
      if (sub === 'list') {
        const { values } = parse(rest, { json: { type: 'boolean' } }, 'keys list [--json]');
        if (wantsHelp(values)) return;
        return (await commands.keys()).keysListCommand(env, { json: Boolean(values.json) });
      }
      if (sub === 'rotate-encryption') {
        const { values } = parse(rest, { from: { type: 'string' }, to: { type: 'string' } }, KEYS_ROTATE_ENCRYPTION_USAGE);
        if (wantsHelp(values)) return;
        return (await commands.secrets()).keysRotateEncryptionCommand(env, { from: values.from as string | undefined,
          to: values.to as string | undefined });
      }
      if (sub !== 'rotate') throw new UsageError(`usage: gatehouse ${KEYS_USAGE}`);
      const { values } = parse(rest, {}, 'keys rotate');
      if (wantsHelp(values)) return;
      return (await commands.keys()).keysRotateCommand(env);
    }
    case 'jobs': {
      if (isHelp(sub)) { print(HELP); return; }
      if (sub !== 'run') throw new UsageError('usage: gatehouse jobs run <name>');
      const { values, positionals } = parse(rest, {}, 'jobs run <name>');
      if (wantsHelp(values)) return;
      return (await commands.jobs()).jobsRunCommand(env, positionals[0]);
    }
    default:
      throw new UsageError(`unknown command "${command}"; run \`gatehouse --help\``);
  }
}

export async function main(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (err) {
    process.stderr.write(`gatehouse: ${describeFailure(err)}\n`);
    process.exitCode = 1;
  }
}
