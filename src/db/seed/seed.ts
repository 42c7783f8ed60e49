import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { publicUrlOf, type Config } from '../../config/settings.js';
import type { Db, Executor } from '../database.js';
import { CONSOLE_APPLICATION, DEFAULT_ROLES, ORG_PERMISSIONS, ORG_ROLES, SYSTEM_PERMISSIONS } from './data.js';

export interface SeedOptions {
  /** The origin the console's public application is pinned to; null or absent: the console is off, nothing is done. */
  consoleOrigin?: string | null;
}

export interface SeedResult {
  permissionsCreated: number;
  rolesCreated: number;
  orgRolesCreated: number;
  /** What happened to the console's public application: `off` while SVC_CONSOLE_ENABLED is off. */
  consoleApplication: 'created' | 'updated' | 'unchanged' | 'off';
}

/** What every seeding command passes: the console's application, pinned to the origin of SVC_PUBLIC_URL, when it is on. */
export const seedOptionsOf = (config: Pick<Config, 'CONSOLE_ENABLED' | 'PUBLIC_URL' | 'PORT'>): SeedOptions =>
  ({ consoleOrigin: config.CONSOLE_ENABLED ? new URL(publicUrlOf(config)).origin : null });

/**
 * The console's public application (docs/decisions.md "Public applications"), found by its `builtin` mark whatever an operator
 * renamed it to: created when missing, its allowed origins set back to `origin` alone when SVC_PUBLIC_URL changed.
 * Everything else an operator changed (name, deactivation, redirect URIs) stays. Public: no secret is created.
 */
async function seedConsoleApplication(trx: Executor, origin: string): Promise<SeedResult['consoleApplication']> {
  const existing = await trx.selectFrom('applications').select(['id', 'allowed_origins'])
    .where('builtin', '=', CONSOLE_APPLICATION.builtin).executeTakeFirst();
  if (!existing) {
    const inserted = await trx.insertInto('applications').values({
      name: CONSOLE_APPLICATION.name, description: CONSOLE_APPLICATION.description, kind: 'public', builtin: CONSOLE_APPLICATION.builtin,
      access_key: randomBytes(32).toString('hex'), secret_hash: null, redirect_uris: JSON.stringify([]), allowed_origins: JSON.stringify([origin]),
      created_by: null,
    }).onConflict((oc) => oc.column('builtin').doNothing()).returning('id').executeTakeFirst();
    return inserted ? 'created' : 'unchanged'; // another instance seeding at the same time created it
  }
  if (existing.allowed_origins.length === 1 && existing.allowed_origins[0] === origin) return 'unchanged';
  await trx.updateTable('applications').set({ allowed_origins: JSON.stringify([origin]), updated_at: sql<Date>`now()` })
    .where('id', '=', existing.id).execute();
  return 'updated';
}

/**
 * Idempotent: creates what is missing and never edits what an operator changed, except that the
 * system roles always hold their system permissions and the console's application stays pinned to its origin.
 */
export async function seed(db: Db, opts: SeedOptions = {}): Promise<SeedResult> {
  return db.transaction().execute(async (trx) => {
    const perms = await trx.insertInto('permissions')
      .values(SYSTEM_PERMISSIONS.map((p) => ({ ...p, is_system: true })))
      .onConflict((oc) => oc.column('code').doNothing()).returning('id').execute();
    const roles = await trx.insertInto('roles')
      .values(DEFAULT_ROLES.map(({ permissions: _p, ...r }) => ({ ...r, is_system: true })))
      .onConflict((oc) => oc.column('code').doNothing()).returning('id').execute();
    for (const role of DEFAULT_ROLES) {
      if (role.permissions.length === 0) continue;
      const roleRow = await trx.selectFrom('roles').select('id').where('code', '=', role.code).executeTakeFirstOrThrow();
      const permRows = await trx.selectFrom('permissions').select('id').where('code', 'in', role.permissions).execute();
      await trx.insertInto('role_permissions')
        .values(permRows.map((p) => ({ role_id: roleRow.id, permission_id: p.id })))
        .onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing()).execute();
    }
    await trx.insertInto('org_permissions').values([...ORG_PERMISSIONS])
      .onConflict((oc) => oc.column('code').doNothing()).execute();
    const orgRoles = await trx.insertInto('org_roles')
      .values(ORG_ROLES.map(({ permissions: _p, ...r }) => ({ ...r, is_system_role: true })))
      .onConflict((oc) => oc.column('code').doNothing()).returning('id').execute();
    for (const role of ORG_ROLES) {
      const roleRow = await trx.selectFrom('org_roles').select('id').where('code', '=', role.code).executeTakeFirstOrThrow();
      await trx.insertInto('org_role_permissions')
        .values(role.permissions.map((code) => ({ org_role_id: roleRow.id, permission_code: code })))
        .onConflict((oc) => oc.columns(['org_role_id', 'permission_code']).doNothing()).execute();
    }
    const consoleApplication = opts.consoleOrigin ? await seedConsoleApplication(trx, opts.consoleOrigin) : 'off';
    return { permissionsCreated: perms.length, rolesCreated: roles.length, orgRolesCreated: orgRoles.length, consoleApplication };
  });
}
