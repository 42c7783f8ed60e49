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

/**
 * Nobody grants, removes or reshapes what they do not hold (DECISIONS.md "Authorization"): otherwise
 * `roles.manage` alone would be a path to every other permission. Superusers hold everything.
 */
export function assertHoldsAll(held: PermissionSet, codes: Iterable<string>): void {
  if (missingFrom(held, codes).length > 0) throw new AppError(held.denial ?? 'PERMISSION_DENIED');
}
