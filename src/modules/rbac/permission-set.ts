import { AppError } from '../../core/errors.js';

/** What a user holds, resolved once: every code, or (for a superuser) everything. */
export interface PermissionSet {
  /** True for a superuser: every permission, including ones created later. */
  readonly all: boolean;
  has(code: string): boolean;
  /** What a change needing a code outside the set answers: an agent's set says its grant falls short. */
  readonly denial?: 'AGENT_PERMISSION_DENIED';
}

export const ALL_PERMISSIONS: PermissionSet = { all: true, has: () => true };

/** A set of effective codes (already expanded: a held parent's descendants are listed). */
export function permissionSet(codes: Iterable<string>): PermissionSet {
  const held = new Set(codes);
  return { all: false, has: (code) => held.has(code) };
}

/** Who can resolve a user's effective permissions (the permission guard's one dependency). */
export interface PermissionSource {
  permissionsOf(user: { id: number; is_superuser: boolean }): Promise<PermissionSet>;
}

/** The codes of `codes` the set does not hold, sorted and without duplicates. */
export const missingFrom = (held: PermissionSet, codes: Iterable<string>): string[] =>
  [...new Set(codes)].filter((code) => !held.has(code)).sort();

/** The two codes of a permission that falls short: the user's, or an agent's (its grant or its person's standing). */
export type DenialCode = 'PERMISSION_DENIED' | 'AGENT_PERMISSION_DENIED';

/** The `details` of a refusal for want of permissions: the codes, sorted, and whether all are needed or any one is enough. */
export interface MissingPermissions {
  missing_permissions: string[];
  requires: 'all' | 'any';
}

export const missingPermissions = (missing: Iterable<string>, requires: 'all' | 'any' = 'all'): MissingPermissions =>
  ({ missing_permissions: [...new Set(missing)].sort(), requires });

/**
 * A refusal naming what would have allowed the call (docs/access-control.md "Refusals"): `details.missing_permissions`,
 * with `requires: "all"` when every one is needed, `"any"` when holding one of them is enough.
 */
export function permissionDenied(missing: Iterable<string>, opts: { code?: DenialCode; requires?: 'all' | 'any' } = {}): AppError {
  return new AppError(opts.code ?? 'PERMISSION_DENIED', { details: missingPermissions(missing, opts.requires) });
}

/**
 * Nobody grants, removes or reshapes what they do not hold (docs/access-control.md "No escalation"): otherwise
 * `roles.manage` alone would be a path to every other permission. Superusers hold everything.
 */
export function assertHoldsAll(held: PermissionSet, codes: Iterable<string>): void {
  const missing = missingFrom(held, codes);
  if (missing.length > 0) throw permissionDenied(missing, { code: held.denial });
}
