import type { LightMyRequestResponse } from 'fastify';

/** The body of a response, failing with the body text when the status is not the one expected. */
export function expectStatus(res: LightMyRequestResponse, status: number) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json();
}

const DENIED = { error: 'You do not have permission to perform this action', code: 'PERMISSION_DENIED' };
/** 403 PERMISSION_DENIED naming the permissions the caller lacks, every one of them needed (docs/access-control.md "Refusals"). */
export const permissionDenied = (...missing: string[]) =>
  ({ ...DENIED, details: { missing_permissions: [...missing].sort(), requires: 'all' } });
/** 403 PERMISSION_DENIED for a change no permission allows: a superuser's to make, or one's own account. */
export const refusedBecause = (reason: 'superuser_required' | 'own_account') => ({ ...DENIED, details: { reason } });
export const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND' };
export const UNAUTHORIZED = { error: 'Authentication credentials were not provided', code: 'UNAUTHORIZED' };
