import { parseArgs } from 'node:util';
import { readEnvironment } from '../config/env.js';
import { appCreateCommand, userCreateCommand } from './commands/create.js';
import { migrateCommand, seedCommand } from './commands/database.js';
import { jobsRunCommand } from './commands/jobs.js';
import { quickstartCommand, serveCommand, startCommand } from './commands/quickstart.js';
import { describeFailure, print, UsageError } from './output.js';

const HELP = `Usage: gatehouse <command> [options]

Commands:
  serve [--no-migrate]          migrate, then serve until SIGTERM/SIGINT (drains in-flight requests)
  start                         what \`npm start\` runs: debug mode, quickstart, serve
  migrate [--status]            apply pending migrations, or list them
  seed                          create system permissions, default roles and organization roles (idempotent)
  quickstart                    migrate + seed + create "Default App" if no application exists, print its credentials
  app create --name N [--redirect-uri URI]... [--origin URL]... [--json]
  user create --email E --password P [--phone +CCNUMBER] [--first-name F] [--last-name L]
              [--role CODE]... [--staff] [--superuser] [--must-change-password] [--verified] [--json]
  jobs run <name>               run one background job now

Settings come from the environment (and .env in the working directory); see the README.
`;

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
      return serveCommand(env, { migrate: !values['no-migrate'] });
    }
    case 'start': {
      const { values } = parse(argv.slice(1), {}, 'start');
      if (wantsHelp(values)) return;
      return startCommand(env);
    }
    case 'migrate': {
      const { values } = parse(argv.slice(1), { status: { type: 'boolean' } }, 'migrate [--status]');
      if (wantsHelp(values)) return;
      return migrateCommand(env, { status: Boolean(values.status) });
    }
    case 'seed': {
      const { values } = parse(argv.slice(1), {}, 'seed');
      if (wantsHelp(values)) return;
      return seedCommand(env);
    }
    case 'quickstart': {
      const { values } = parse(argv.slice(1), {}, 'quickstart');
      if (wantsHelp(values)) return;
      return quickstartCommand(env);
    }
    case 'app': {
      if (sub !== 'create') throw new UsageError('usage: gatehouse app create --name N [--redirect-uri URI]... [--origin URL]... [--json]');
      const { values } = parse(rest, {
        name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true },
        origin: { type: 'string', multiple: true }, json: { type: 'boolean' },
      }, 'app create --name N [--redirect-uri URI]... [--origin URL]... [--json]');
      if (wantsHelp(values)) return;
      return appCreateCommand(env, {
        name: values.name as string | undefined,
        redirectUris: (values['redirect-uri'] as string[] | undefined) ?? [],
        origins: (values.origin as string[] | undefined) ?? [],
        json: Boolean(values.json),
      });
    }
    case 'user': {
      if (sub !== 'create') throw new UsageError('usage: gatehouse user create --email E --password P [options]');
      const { values } = parse(rest, {
        email: { type: 'string' }, password: { type: 'string' }, phone: { type: 'string' },
        'first-name': { type: 'string' }, 'last-name': { type: 'string' }, role: { type: 'string', multiple: true },
        staff: { type: 'boolean' }, superuser: { type: 'boolean' }, 'must-change-password': { type: 'boolean' },
        verified: { type: 'boolean' }, json: { type: 'boolean' },
      }, 'user create --email E --password P [options]');
      if (wantsHelp(values)) return;
      return userCreateCommand(env, {
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
    case 'jobs': {
      if (sub !== 'run') throw new UsageError('usage: gatehouse jobs run <name>');
      const { values, positionals } = parse(rest, {}, 'jobs run <name>');
      if (wantsHelp(values)) return;
      return jobsRunCommand(env, positionals[0]);
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
