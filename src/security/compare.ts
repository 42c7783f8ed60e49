import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time equality of two strings. Both sides are hashed first so that neither the
 * content nor the length of the expected value leaks through timing.
 */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
