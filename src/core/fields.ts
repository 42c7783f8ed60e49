import { Type } from 'typebox';
import { AppError } from './errors.js';

/** Path parameters `<id>`: any text, so that a malformed id answers 404 like a missing one. */
export const IdParams = Type.Object({ id: Type.String() });

/** The numeric id of a path, or 404 NOT_FOUND when it cannot name a row. */
export function pathId(params: unknown): number {
  const raw = (params as { id?: string }).id ?? '';
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new AppError('NOT_FOUND');
  return Number(raw);
}

/** A display name, trimmed; 400 when nothing but spaces was sent. */
export function displayName(value: string, field = 'name'): string {
  const trimmed = value.trim();
  if (!trimmed) throw AppError.validation({ [field]: ['This field may not be blank.'] });
  return trimmed;
}
