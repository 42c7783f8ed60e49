import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.js';
import { ALL_PERMISSIONS, permissionSet, type PermissionSet } from './permission-set.js';

/**
 * What a statement reads of a user's grants: the ids of their roles and of their direct permissions, and the version of
 * the permission graph its snapshot sees. The codes come from the graph held in memory (docs/architecture.md "The
 * permission graph").
 */
export interface GrantRefs {
  version: string;
  roles: number[];
  permissions: number[];
}

/** The user's role and effective permission codes, each sorted by code point. */
export interface Grants {
  roles: string[];
  permissions: string[];
}

/**
 * The {@link GrantRefs} of the user whose id is `userColumn` (a column of the statement), as one JSON value to select in
 * any statement: two primary-key range reads and the one-row version table, where the codes used to take a recursive
 * query over the whole graph on every request.
 */
export const grantRefsSql = (userColumn: string) => `json_build_object(
  'version', (select version from permission_graph_version),
  'roles', array(select role_id from user_roles where user_id = ${userColumn}),
  'permissions', array(select permission_id from user_permissions where user_id = ${userColumn}))`;

export const grantRefs = (userColumn: string): RawBuilder<GrantRefs> => sql.raw<GrantRefs>(grantRefsSql(userColumn));

/** The one role of a user holding nothing else (the usual case): its codes are answered as computed for the role. */
const soleRole = (refs: GrantRefs): number | undefined =>
  (refs.permissions.length === 0 && refs.roles.length === 1 ? refs.roles[0] : undefined);

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The graph as of one version: each role's code and effective codes, each permission's code with its descendants'. */
export class PermissionGraph {
  readonly allCodes: readonly string[];
  private readonly roleCodes = new Map<number, string>();
  private readonly roleGrants = new Map<number, readonly string[]>();
  private readonly roleSets = new Map<number, PermissionSet>();
  private readonly expanded = new Map<number, readonly string[]>();

  constructor(readonly version: string, rows: GraphRows) {
    const code = new Map(rows.permissions.map(([id, c]) => [id, c]));
    const children = new Map<number, number[]>();
    for (const [id, , parent] of rows.permissions) {
      if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), id]);
    }
    // Holding a permission grants its descendants (docs/access-control.md "The model"); the walk stops at a permission
    // already reached.
    for (const [id] of rows.permissions) {
      const reached = new Set<number>();
      const stack = [id];
      while (stack.length) {
        const next = stack.pop()!;
        if (reached.has(next)) continue;
        reached.add(next);
        stack.push(...(children.get(next) ?? []));
      }
      this.expanded.set(id, [...reached].map((p) => code.get(p)!).sort(byCodePoint));
    }
    this.allCodes = [...code.values()].sort(byCodePoint);
    const links = new Map<number, number[]>();
    for (const [role, permission] of rows.links) links.set(role, [...(links.get(role) ?? []), permission]);
    for (const [id, roleCode] of rows.roles) {
      this.roleCodes.set(id, roleCode);
      const codes = this.codesOf(links.get(id) ?? []);
      this.roleGrants.set(id, codes);
      this.roleSets.set(id, permissionSet(codes));
    }
  }

  /** The effective codes of these permissions and their descendants, sorted. */
  private codesOf(permissionIds: readonly number[]): readonly string[] {
    if (permissionIds.length === 1) return this.expanded.get(permissionIds[0]!) ?? [];
    const codes = new Set<string>();
    for (const id of permissionIds) for (const c of this.expanded.get(id) ?? []) codes.add(c);
    return [...codes].sort(byCodePoint);
  }

  /** The role codes and effective permission codes (every permission for a superuser) the refs stand for. */
  grantsOf(refs: GrantRefs, superuser: boolean): Grants {
    const roles = refs.roles.flatMap((id) => this.roleCodes.get(id) ?? []).sort(byCodePoint);
    if (superuser) return { roles, permissions: [...this.allCodes] };
    const sole = soleRole(refs);
    if (sole !== undefined) return { roles, permissions: [...(this.roleGrants.get(sole) ?? [])] };
    const codes = new Set<string>();
    for (const id of refs.roles) for (const c of this.roleGrants.get(id) ?? []) codes.add(c);
    for (const c of this.codesOf(refs.permissions)) codes.add(c);
    return { roles, permissions: [...codes].sort(byCodePoint) };
  }

  /** The effective permissions the refs stand for, as the permission checks read them (shared per role). */
  permissionSetOf(refs: GrantRefs, superuser: boolean): PermissionSet {
    if (superuser) return ALL_PERMISSIONS;
    const sole = soleRole(refs);
    if (sole !== undefined) return this.roleSets.get(sole) ?? permissionSet([]);
    return permissionSet(this.grantsOf(refs, false).permissions);
  }
}

/** The graph's rows as the loading statement answers them: `[id, code, parent_id]`, `[id, code]`, `[role_id, permission_id]`. */
interface GraphRows {
  permissions: Array<[number, string, number | null]>;
  roles: Array<[number, string]>;
  links: Array<[number, number]>;
}

/** Graphs by version. A process usually needs one; several databases in one process (the tests) each have theirs. */
const graphs = new Map<string, PermissionGraph>();
const KEPT = 8;

/**
 * The graph as of `version` — held, or read in one statement (one snapshot: the version and the rows it stands for).
 * A statement that read `version` then finds a graph at least as new as its snapshot: the one it names, or, when the
 * graph changed in between, the newer one just read (a change committed after that statement applies at once).
 */
export async function permissionGraph(db: Executor, version: string): Promise<PermissionGraph> {
  const held = graphs.get(version);
  if (held) return held;
  const { rows } = await sql<GraphRows & { version: string }>`select
    (select version from permission_graph_version) as version,
    (select coalesce(json_agg(json_build_array(id, code, parent_id)), '[]') from permissions) as permissions,
    (select coalesce(json_agg(json_build_array(id, code)), '[]') from roles) as roles,
    (select coalesce(json_agg(json_build_array(role_id, permission_id)), '[]') from role_permissions) as links`.execute(db);
  const row = rows[0]!;
  const graph = graphs.get(row.version) ?? new PermissionGraph(row.version, row);
  graphs.set(row.version, graph);
  while (graphs.size > KEPT) graphs.delete(graphs.keys().next().value!);
  return graph;
}

/** The codes the refs stand for, through the graph their statement saw. */
export async function grantsFrom(db: Executor, refs: GrantRefs, superuser: boolean): Promise<Grants> {
  return (await permissionGraph(db, refs.version)).grantsOf(refs, superuser);
}
