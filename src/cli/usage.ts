/** Help and usage lines of the `gatehouse` command (kept apart so printing them loads nothing else). */

interface CommandHelp {
  /** What follows `gatehouse ` on the usage line. */
  usage: string;
  /** One line for the command list. */
  summary: string;
  /** Printed by `gatehouse <command> --help` under the usage line. */
  details?: string;
  options?: Array<[flag: string, meaning: string]>;
}

/** Every command, in the order of the help; `gatehouse <command> [<sub>] --help` prints its entry. */
export const COMMANDS: Record<string, CommandHelp> = {
  serve: {
    usage: 'serve [--no-migrate]',
    summary: 'migrate, then serve until SIGTERM/SIGINT (drains in-flight requests)',
    options: [['--no-migrate', 'serve without applying pending migrations (another instance applies them)']],
  },
  start: {
    usage: 'start',
    summary: 'what `npm start` runs: debug mode, quickstart, serve',
    details: 'Debug mode and the development preset unless SVC_DEBUG is set; on a fresh database it also creates the '
      + 'console\'s first operator and prints its temporary password once.',
  },
  migrate: {
    usage: 'migrate [--status]',
    summary: 'apply pending migrations, or list them',
    options: [['--status', 'list the migrations, applied and pending, and change nothing']],
  },
  seed: {
    usage: 'seed',
    summary: 'create system permissions, default roles and organization roles, and the console\'s public application '
      + 'while SVC_CONSOLE_ENABLED is on (idempotent)',
  },
  quickstart: {
    usage: 'quickstart',
    summary: 'migrate + seed + create "Default App" if no application exists, print its credentials',
  },
  'app create': {
    usage: 'app create --name N [--public] [--redirect-uri URI]... [--post-logout-redirect-uri URI]... [--origin URL]... [--json]',
    summary: 'create an application and print its key and secret (the secret once)',
    options: [
      ['--name N', 'the application\'s name (required)'],
      ['--public', 'a browser application: key only, no secret, needs at least one --origin'],
      ['--redirect-uri URI', 'a redirect URI it may use (repeatable)'],
      ['--post-logout-redirect-uri URI', 'where OAuth logout may send the person back (repeatable, docs/oauth.md)'],
      ['--origin URL', 'a browser origin its requests may come from, such as https://app.example.com (repeatable)'],
      ['--json', 'print {"id","name","kind","access_key","access_secret"}'],
    ],
  },
  'app list': {
    usage: 'app list [--json]',
    summary: 'list the applications: name, access key, kind, active, created',
    options: [['--json', 'print one JSON array of the applications']],
  },
  'app regenerate': {
    usage: 'app regenerate <access key or name> [--json]',
    summary: 'replace a confidential application\'s key and secret; print the new ones (the secret once)',
    details: 'The old key and secret stop working at once, on every instance. A public application has no secret: '
      + 'this command refuses it.',
    options: [['--json', 'print {"id","name","kind","access_key","access_secret"}']],
  },
  'resource create': {
    usage: 'resource create --uri URI --name N [--scope CODE]... [--json]',
    summary: 'register an API that accepts OAuth access tokens; print its introspection credentials (the secret once)',
    details: 'Tokens requested with resource=URI are JWTs whose aud is URI, carrying the granted codes among its --scope '
      + 'permission codes (docs/oauth.md "Resources").',
    options: [
      ['--uri URI', 'the URI of the API: an https URL (http on loopback), the audience of its tokens (required)'],
      ['--name N', 'its name (required)'],
      ['--scope CODE', 'a permission code the API accepts (repeatable)'],
      ['--json', 'print the resource with its client_id and client_secret'],
    ],
  },
  'audit verify': {
    usage: 'audit verify (--token ID | FILE [--jwks FILE|URL])',
    summary: 'check an agent trail: a root token\'s chain in the database, or an exported file offline',
    details: 'Every row\'s hash is recomputed from its canonical form and linked to the row before it (docs/agents.md '
      + '"The trail"). Exits 0 when the chain is intact, 1 printing the first row that is not as "seq N" (and "line L" '
      + 'for a file).',
    options: [
      ['--token ID', 'an agent token id: the chain of its root, in the database'],
      ['FILE', 'a file from GET ai/tokens/<id>/activity/export/, checked without the database'],
      ['--jwks FILE|URL', 'the issuer\'s key set, to check the file\'s checkpoint signature too'],
    ],
  },
  'resource list': {
    usage: 'resource list [--json]',
    summary: 'list the registered resources: id, URI, name, scopes, client id',
    options: [['--json', 'print one JSON array of the resources']],
  },
  'resource delete': {
    usage: 'resource delete <id or URI>',
    summary: 'delete a registered resource; its introspection credentials stop working at once',
  },
  'user create': {
    usage: 'user create --email E [--password-stdin | --generate-password] [--phone +CCNUMBER] [--first-name F] '
      + '[--last-name L] [--role CODE]... [--staff] [--superuser] [--must-change-password] [--verified] [--json]',
    summary: 'create a user; the password is asked for on a terminal, never given on the command line',
    details: 'Without --password-stdin or --generate-password the password is asked for twice, without echo; this needs '
      + 'a terminal.',
    options: [
      ['--email E', 'the account\'s email address (required)'],
      ['--password-stdin', 'read the password from standard input (one line, as piped by a script)'],
      ['--generate-password', 'generate a strong password and print it once'],
      ['--phone +CCNUMBER', 'a phone number with its country code'],
      ['--first-name F, --last-name L', 'the account\'s names'],
      ['--role CODE', 'a role to grant besides the default one (repeatable)'],
      ['--staff', 'a staff account (may use the admin console with the admin role)'],
      ['--superuser', 'holds every permission'],
      ['--must-change-password', 'the password must be changed at the first sign-in'],
      ['--verified', 'the email address (and the phone number) count as verified'],
      ['--json', 'print {"id","email"} (and "password" with --generate-password)'],
    ],
  },
  'user reset-2fa': {
    usage: 'user reset-2fa EMAIL',
    summary: 'remove an account\'s second factor (lost authenticator): its sessions end, it is told',
  },
  'users import': {
    usage: 'users import FILE [--format jsonl] [--dry-run] [--update]',
    summary: 'import users (JSON lines) with their password hashes from another system',
    options: [
      ['--format jsonl', 'the file\'s format (JSON lines, the only one for now)'],
      ['--dry-run', 'check the file and report what would change, change nothing'],
      ['--update', 'update the accounts that exist already instead of skipping them'],
    ],
  },
  'jobs run': {
    usage: 'jobs run <name>',
    summary: 'run one background job now',
  },
  'keys rotate': {
    usage: 'keys rotate',
    summary: 'add a signing key that signs from now on (EdDSA, ES256, RS256 keys kept in the database)',
  },
  'keys list': {
    usage: 'keys list [--json]',
    summary: 'list the signing keys with their state (active, verifying, retired), by the kid tokens carry',
    options: [['--json', 'print one JSON array of the keys']],
  },
  'keys rotate-encryption': {
    usage: 'keys rotate-encryption [--from OLD] --to NEW',
    summary: 're-seal every stored secret (TOTP, backup-code key, webhook secrets, signing keys) with a new SVC_ENCRYPTION_KEY',
    details: 'In one transaction, with the server stopped; --from defaults to the key in use.',
    options: [['--from OLD', 'the key the secrets are sealed with now'], ['--to NEW', 'the new SVC_ENCRYPTION_KEY (required)']],
  },
};

const usageOf = (name: string) => COMMANDS[name]!.usage;

export const APP_CREATE_USAGE = usageOf('app create');
export const APP_REGENERATE_USAGE = usageOf('app regenerate');
export const USER_CREATE_USAGE = usageOf('user create');
export const RESOURCE_CREATE_USAGE = usageOf('resource create');
export const RESOURCE_LIST_USAGE = usageOf('resource list');
export const AUDIT_VERIFY_USAGE = usageOf('audit verify');
export const RESOURCE_DELETE_USAGE = usageOf('resource delete');
export const KEYS_USAGE = `${usageOf('keys rotate')} | ${usageOf('keys list')} | ${usageOf('keys rotate-encryption')}`;
export const KEYS_ROTATE_ENCRYPTION_USAGE = usageOf('keys rotate-encryption');
export const USER_RESET_2FA_USAGE = usageOf('user reset-2fa');
export const USERS_IMPORT_USAGE = usageOf('users import');

const GROUPS = new Set(Object.keys(COMMANDS).filter((n) => n.includes(' ')).map((n) => n.split(' ')[0]!));

/** Continuation lines are indented under the command; a long usage line puts its summary on the next line. */
function listing(entries: Array<[string, string]>, width: number): string {
  return entries.map(([left, right]) => (left.length < width
    ? `  ${left.padEnd(width)}${right}`
    : `  ${left}\n  ${' '.repeat(width)}${right}`)).join('\n');
}


export const HELP = `Usage: gatehouse <command> [options]

Commands:
${listing(Object.values(COMMANDS).map((c) => [c.usage, c.summary]), 30)}

Options:
  --help, -h                    print the usage of the command it follows (gatehouse app create --help)
  --version, -v                 print the version

Settings come from the environment (and .env in the working directory); see the README.
`;

function commandHelp(name: string): string {
  const c = COMMANDS[name]!;
  const parts = [`Usage: gatehouse ${c.usage}`, '', c.summary.charAt(0).toUpperCase() + c.summary.slice(1) + '.'];
  if (c.details) parts.push('', c.details);
  if (c.options?.length) parts.push('', 'Options:', listing(c.options, 30));
  return `${parts.join('\n')}\n`;
}

/**
 * The help `gatehouse <argv> --help` prints: the command's own (`app create`), every subcommand of a group
 * (`app`), or the list of commands.
 */
export function helpFor(argv: string[]): string {
  const [command, sub] = argv.filter((a) => !a.startsWith('-'));
  if (command && sub && COMMANDS[`${command} ${sub}`]) return commandHelp(`${command} ${sub}`);
  if (command && GROUPS.has(command)) {
    return Object.keys(COMMANDS).filter((n) => n.startsWith(`${command} `)).map(commandHelp).join('\n');
  }
  if (command && COMMANDS[command]) return commandHelp(command);
  return HELP;
}
