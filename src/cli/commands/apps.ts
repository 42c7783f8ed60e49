import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { REGENERATE_PHRASE } from '../../modules/applications/applications.service.js';
import { print, printJson, UsageError } from '../output.js';
import { withRuntime } from './database.js';

const PAGE_SIZE = 100;

/** `gatehouse app list [--json]`: every application, oldest first; never a secret (only its hash is kept). */
export async function appListCommand(env: Env, opts: { json: boolean }): Promise<void> {
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    const { applications } = container.services;
    const all = [];
    for (let page = 1; ; page++) {
      const { results, count } = await applications.list({ page, page_size: PAGE_SIZE, ordering: 'created_at' });
      all.push(...results);
      if (all.length >= count || results.length === 0) break;
    }
    if (opts.json) {
      printJson(all.map((a) => ({ id: a.id, name: a.name, access_key: a.access_key, kind: a.kind, is_active: a.is_active,
        created_at: a.created_at })));
      return;
    }
    if (all.length === 0) {
      print('No application yet: `gatehouse app create --name N` creates one.');
      return;
    }
    const rows = [['NAME', 'ACCESS KEY', 'KIND', 'ACTIVE', 'CREATED'],
      ...all.map((a) => [a.name, a.access_key, a.kind, a.is_active ? 'yes' : 'no', a.created_at.replace(/\.\d{3}Z$/, 'Z')])];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) print(r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  });
}

/**
 * `gatehouse app regenerate <access key or name> [--json]`: a new key and secret replace the old ones at once, through
 * the same service as `POST applications/<id>/regenerate/`. A public application has no secret: refused.
 */
export async function appRegenerateCommand(env: Env, opts: { application: string; json: boolean }): Promise<void> {
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    const { applications } = container.services;
    const found = await applications.findByKeyOrName(opts.application);
    if (found.kind === 'public') {
      throw new UsageError(`app regenerate: "${found.name}" is a public application: it has no secret to regenerate (its key is `
        + 'meant to be seen in browser code, and requests are accepted only from its origins)');
    }
    // Naming the application on the command line is the confirmation the HTTP API asks for in its body.
    const { application, credentials } = await applications.regenerate(null, found.id, REGENERATE_PHRASE);
    if (opts.json) {
      printJson({ id: application.id, name: application.name, kind: application.kind, ...credentials });
      return;
    }
    print(`New credentials for "${application.name}" (id ${application.id}); the previous ones no longer work. `
      + 'Save the secret now: it is not shown again.');
    print(`  X-Access-Key:    ${credentials.access_key}`);
    print(`  X-Access-Secret: ${credentials.access_secret}`);
  });
}
