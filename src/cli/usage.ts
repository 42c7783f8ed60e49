/** Help and usage lines of the `gatehouse` command (kept apart so printing them loads nothing else). */
export const APP_CREATE_USAGE = 'app create --name N [--redirect-uri URI]... [--origin URL]... [--json]';
export const USER_CREATE_USAGE = 'user create --email E --password P [--phone +CCNUMBER] [--first-name F] [--last-name L] '
  + '[--role CODE]... [--staff] [--superuser] [--must-change-password] [--verified] [--json]';

export const HELP = `Usage: gatehouse <command> [options]

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
