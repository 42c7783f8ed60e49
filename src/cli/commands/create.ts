import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { seed } from '../../db/seed/seed.js';
import { strongPassword } from '../../security/random.js';
import { print, printJson, UsageError } from '../output.js';
import { passwordSource, promptNewPassword, readPasswordFromStdin, type PasswordSource } from '../password-input.js';
import { APP_CREATE_USAGE, USER_CREATE_USAGE } from '../usage.js';
import { withRuntime } from './database.js';

export interface AppCreateOptions {
  name?: string;
  redirectUris: string[];
  /** Where OAuth RP-initiated logout may send the person back (docs/oauth.md). */
  postLogoutRedirectUris?: string[];
  origins: string[];
  /** A public application (docs/decisions.md "Public applications"): key only, at least one origin, no secret. */
  isPublic: boolean;
  json: boolean;
}

const isHttpUrl = (value: string): boolean => {
  try { return ['http:', 'https:'].includes(new URL(value).protocol); } catch { return false; }
};

export async function appCreateCommand(env: Env, opts: AppCreateOptions): Promise<void> {
  if (!opts.name?.trim()) throw new UsageError(`app create: --name is required (usage: gatehouse ${APP_CREATE_USAGE})`);
  for (const uri of opts.redirectUris) if (!isHttpUrl(uri)) throw new UsageError(`app create: --redirect-uri ${uri} is not an http(s) URL`);
  for (const uri of opts.postLogoutRedirectUris ?? []) {
    if (!isHttpUrl(uri)) throw new UsageError(`app create: --post-logout-redirect-uri ${uri} is not an http(s) URL`);
  }
  for (const origin of opts.origins) {
    if (!isHttpUrl(origin) || new URL(origin).origin !== origin) throw new UsageError(`app create: --origin ${origin} must be a bare origin such as https://app.example.com`);
  }
  // Requests of a public application are accepted only from its origins: without one it could never be used.
  if (opts.isPublic && opts.origins.length === 0) {
    throw new UsageError('app create: --public needs at least one --origin (the browser origins its requests come from)');
  }
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    const { application, credentials } = await container.services.applications.create({
      name: opts.name!.trim(), kind: opts.isPublic ? 'public' : 'confidential', redirect_uris: opts.redirectUris,
      post_logout_redirect_uris: opts.postLogoutRedirectUris ?? [], allowed_origins: opts.origins,
    });
    if (opts.json) {
      printJson({ id: application.id, name: application.name, kind: application.kind, ...credentials });
      return;
    }
    if (credentials.access_secret === null) {
      print(`Public application "${application.name}" created (id ${application.id}). It has no secret: browser code sends the key`);
      print(`alone, and requests are accepted only from ${application.allowed_origins.join(', ')}.`);
      print(`  X-Access-Key:    ${credentials.access_key}`);
      return;
    }
    print(`Application "${application.name}" created (id ${application.id}). Save the secret now: it is not shown again.`);
    print(`  X-Access-Key:    ${credentials.access_key}`);
    print(`  X-Access-Secret: ${credentials.access_secret}`);
  });
}

export interface UserCreateOptions {
  email?: string;
  /** `--password`, refused: a password is never taken from the arguments. */
  passwordGiven: boolean;
  passwordStdin: boolean;
  generatePassword: boolean;
  phone?: string;
  firstName?: string;
  lastName?: string;
  roles: string[];
  staff: boolean;
  superuser: boolean;
  mustChangePassword: boolean;
  verified: boolean;
  json: boolean;
}

export async function userCreateCommand(env: Env, opts: UserCreateOptions): Promise<void> {
  if (!opts.email) throw new UsageError(`user create: --email is required (usage: gatehouse ${USER_CREATE_USAGE})`);
  const source = passwordSource('user create', opts);
  // A pipe is read before the database opens; the terminal is asked once it is open, so a database held by a server
  // or a setting missing is reported before anything is typed.
  const piped = source === 'stdin' ? await readPasswordFromStdin('user create') : undefined;
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    await seed(database.db);
    const password = await passwordFrom(source, piped);
    const user = await container.services.users.create({
      email: opts.email!,
      password,
      phone: opts.phone ?? null,
      first_name: opts.firstName ?? '',
      last_name: opts.lastName ?? '',
      roles: opts.roles,
      is_staff: opts.staff,
      is_superuser: opts.superuser,
      must_change_password: opts.mustChangePassword,
      verified: opts.verified,
    });
    const generated = source === 'generate' ? password : undefined;
    if (opts.json) {
      printJson({ id: user.id, email: user.email, ...(generated ? { password: generated } : {}) });
      return;
    }
    print(`User ${user.email} created (id ${user.id}).`);
    if (generated) print(`  Password (shown this once): ${generated}`);
  });
}

async function passwordFrom(source: PasswordSource, piped: string | undefined): Promise<string> {
  if (source === 'stdin') return piped!;
  if (source === 'generate') return strongPassword();
  return promptNewPassword('user create');
}
