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

/** A SHA-256 digest kept for {@link hashMatches}: the stored hex, decoded once. */
export const sha256Digest = (hex: string): Buffer => Buffer.from(hex, 'hex');

/**
 * Whether the SHA-256 of `value` is `digest`, compared in constant time: digests have one length, so one hash per check
 * (where {@link safeEqual} of two hex strings hashes three times). A digest of another length never matches.
 */
export function hashMatches(value: string, digest: Buffer): boolean {
  const actual = createHash('sha256').update(value).digest();
  return digest.length === actual.length && timingSafeEqual(actual, digest);
}
