import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import type { PermissionSet, PermissionSource } from '../../modules/rbac/permission-set.js';
import { authOf } from './user.js';

const heldByRequest = new WeakMap<FastifyRequest, Promise<PermissionSet>>();

/**
 * `permission(code)`, declared after `user()`: 403 PERMISSION_DENIED unless the user holds `code` through a role,
 * directly, or below a held parent (a superuser holds every permission). One query per request at most.
 */
export function createPermissionGuard(source: PermissionSource) {
  return (code: string) => async (req: FastifyRequest) => {
    if (!(await heldPermissions(req, source)).has(code)) throw new AppError('PERMISSION_DENIED');
  };
}

/** The effective permissions of the request's authenticated user, resolved once and kept for the request. */
export function heldPermissions(req: FastifyRequest, source: PermissionSource): Promise<PermissionSet> {
  let held = heldByRequest.get(req);
  if (!held) {
    held = source.permissionsOf(authOf(req).user);
    heldByRequest.set(req, held);
  }
  return held;
}
