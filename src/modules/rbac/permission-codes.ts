import { AppError } from '../../core/errors.js';
import type { Executor } from '../../db/database.js';
import { findPermissionsByCodes } from './permissions.repo.js';

/** The permissions named by `codes` (duplicates ignored), or 400 PERMISSIONS_NOT_FOUND listing the unknown ones. */
export async function resolvePermissionCodes(db: Executor, codes: readonly string[]) {
  const wanted = [...new Set(codes)];
  const rows = await findPermissionsByCodes(db, wanted);
  const known = new Set(rows.map((r) => r.code));
  const notFound = wanted.filter((code) => !known.has(code)).sort();
  if (notFound.length > 0) throw new AppError('PERMISSIONS_NOT_FOUND', { extra: { not_found: notFound } });
  return rows;
}

export const codesOf = (rows: readonly { code: string }[]): string[] => rows.map((r) => r.code);
