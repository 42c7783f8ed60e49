/** Help and usage lines of the `gatehouse` command (kept apart so printing them loads nothing else). */
export const APP_CREATE_USAGE = 'app create --name N [--public] [--redirect-uri URI]... [--origin URL]... [--json]';
export const USER_CREATE_USAGE = 'user create --email E --password P [--phone +CCNUMBER] [--first-name F] [--last-name L] '
  + '[--role CODE]... [--staff] [--superuser] [--must-change-password] [--verified] [--json]';

export const KEYS_USAGE = 'keys rotate | keys list [--json] | keys rotate-encryption [--from OLD] --to NEW';

export const USERS_IMPORT_USAGE = 'users import FILE [--format jsonl] [--dry-run] [--update]';

export const KEYS_ROTATE_ENCRYPTION_USAGE = 'keys rotate-encryption [--from OLD] --to NEW';
export const USER_RESET_2FA_USAGE = 'user reset-2fa EMAIL';

export const HELP = `Usage: gatehouse <command> [options]

Commands:
  serve [--no-migrate]          migrate, then serve until SIGTERM/SIGINT (drains in-flight requests)
  start                         what \`npm start\` runs: debug mode, quickstart, serve
  migrate [--status]            apply pending migrations, or list them
  seed                          create system permissions, default roles and organization roles, and the console's
                                public application while SVC_CONSOLE_ENABLED is on (idempotent)
  quickstart                    migrate + seed + create "Default App" if no application exists, print its credentials
  app create --name N [--public] [--redirect-uri URI]... [--origin URL]... [--json]
                                --public: a browser application, key only, needs --origin (no secret)
  user create --email E --password P [--phone +CCNUMBER] [--first-name F] [--last-name L]
              [--role CODE]... [--staff] [--superuser] [--must-change-password] [--verified] [--json]
  users import FILE [--format jsonl] [--dry-run] [--update]
                                import users (JSON lines) with their password hashes from another system
  jobs run <name>               run one background job now
  keys rotate                   add a signing key that signs from now on (EdDSA, ES256, RS256 keys kept in the database)
  keys list [--json]            list the signing keys with their state (active, verifying, retired)
  keys rotate-encryption [--from OLD] --to NEW
                                re-seal every stored secret (TOTP, backup-code key, webhook secrets, signing keys) with a
                                new SVC_ENCRYPTION_KEY, in one transaction; --from defaults to the key in use
  user reset-2fa EMAIL          remove an account's second factor (lost authenticator): its sessions end, it is told

Settings come from the environment (and .env in the working directory); see the README.
`;
