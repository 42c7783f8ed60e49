import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { COMMAND_LINE_ORIGIN } from '../../modules/rbac/actor.js';
import { print, printJson, UsageError } from '../output.js';
import { withRuntime } from './database.js';

/** `gatehouse resource create --uri U --name N [--scope CODE]... [--json]` (docs/oauth.md "Resources"): the secret is printed once. */
export async function resourceCreateCommand(env: Env, opts: { uri?: string; name?: string; scopes: string[]; json: boolean }) {
  if (!opts.uri || !opts.name?.trim()) throw new UsageError('resource create: --uri and --name are required');
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    const { resource, credentials } = await container.services.oauthResources.create(
      { uri: opts.uri!, name: opts.name!, scopes: opts.scopes }, COMMAND_LINE_ORIGIN);
    if (opts.json) {
      printJson({ ...resource, client_secret: credentials.client_secret });
      return;
    }
    print(`Resource ${resource.uri} (id ${resource.id}) registered; its tokens carry aud ${resource.uri}.`);
    print(`client_id:     ${credentials.client_id}`);
    print(`client_secret: ${credentials.client_secret}`);
    print('Save the client_secret now: it is never shown again. The resource introspects tokens with these credentials.');
  });
}

/** `gatehouse resource list [--json]`: every registered resource, never a secret. */
export async function resourceListCommand(env: Env, opts: { json: boolean }) {
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    const { results } = await container.services.oauthResources.list();
    if (opts.json) {
      printJson(results);
      return;
    }
    if (results.length === 0) {
      print('No resource yet: `gatehouse resource create --uri URI --name N` registers one.');
      return;
    }
    const rows = [['ID', 'URI', 'NAME', 'SCOPES', 'CLIENT ID'], ...results.map((r) => [String(r.id), r.uri, r.name, r.scopes.join(' '), r.client_id])];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) print(r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  });
}

/** `gatehouse resource delete <id or URI>`: its tokens stop being accepted by its introspection at once. */
export async function resourceDeleteCommand(env: Env, opts: { resource: string }) {
  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    const { oauthResources } = container.services;
    const found = /^[0-9]+$/.test(opts.resource) ? await oauthResources.get(Number(opts.resource)).catch(() => undefined)
      : await oauthResources.byUri(opts.resource);
    if (!found) throw new UsageError(`resource delete: no resource ${opts.resource}`);
    await oauthResources.remove(found.id, COMMAND_LINE_ORIGIN);
    print(`Resource ${found.uri} deleted.`);
  });
}
