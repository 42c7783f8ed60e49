import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedDataDir, type Env } from '../../config/load.js';
import { migrateToLatest, migrationStatus } from '../../db/migrator.js';
import { seed, seedOptionsOf } from '../../db/seed/seed.js';
import { openRuntime, type Runtime, type RuntimeOptions } from '../../main.js';
import { currentIo, servedRuntime } from '../context.js';
import { print } from '../output.js';

/** The command's template for a fresh embedded database (see `CommandIo.pgliteTemplate`): never over an existing one. */
export function runtimeOptions(env: Env): Pick<RuntimeOptions, 'pgliteTemplate'> {
  const { pgliteTemplate } = currentIo();
  const dataDir = embeddedDataDir(env);
  if (!pgliteTemplate || dataDir === null || existsSync(join(dataDir, 'pglite'))) return {};
  return { pgliteTemplate };
}

export async function withRuntime<T>(env: Env, fn: (rt: Runtime) => Promise<T>): Promise<T> {
  // Run inside a server for a caller in another terminal: the server's runtime, which outlives the command.
  const served = servedRuntime();
  if (served) return fn(served);
  // Settings warnings concern a running server; one-shot commands stay quiet about them.
  const rt = await openRuntime(env, { ...runtimeOptions(env), warn: () => undefined });
  try {
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

export async function migrateCommand(env: Env, opts: { status: boolean }): Promise<void> {
  await withRuntime(env, async ({ database }) => {
    if (opts.status) {
      const list = await migrationStatus(database.db);
      print(`Database: ${database.kind} (${database.location})`);
      for (const m of list) print(`${m.executedAt ? '[applied]' : '[pending]'} ${m.name}${m.executedAt ? `  ${m.executedAt.toISOString()}` : ''}`);
      const pending = list.filter((m) => !m.executedAt).length;
      print(pending ? `${pending} pending migration(s); run \`gatehouse migrate\`` : 'Up to date.');
      return;
    }
    print(`Migrating ${database.kind} (${database.location})…`);
    const results = await migrateToLatest(database.db);
    for (const r of results) print(`applied ${r.migrationName}`);
    print(results.length ? `${results.length} migration(s) applied.` : 'Already up to date.');
  });
}

const CONSOLE_LINES = {
  created: 'Console application "Gatehouse Console" created (public: no secret), pinned to SVC_PUBLIC_URL.',
  updated: 'Console application: allowed origin updated to SVC_PUBLIC_URL.',
  unchanged: 'Console application: already there.',
} as const;

export async function seedCommand(env: Env): Promise<void> {
  await withRuntime(env, async ({ database, loaded }) => {
    await migrateToLatest(database.db);
    const r = await seed(database.db, seedOptionsOf(loaded.config));
    print(`Seeded: ${r.permissionsCreated} permission(s), ${r.rolesCreated} role(s), ${r.orgRolesCreated} organization role(s) created; the rest already existed.`);
    if (r.consoleApplication !== 'off') print(CONSOLE_LINES[r.consoleApplication]);
  });
}
