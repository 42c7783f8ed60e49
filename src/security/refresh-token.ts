import { createHmac } from 'node:crypto';
import { newOpaqueToken, sha256Hex } from './random.js';

export const newRefreshToken = () => newOpaqueToken(32);

/**
 * The token that replaces `raw` on rotation, derived with a server key. Deriving it (instead of drawing it at
 * random) lets a retired token presented again within the grace window get the very same successor back
 * without the successor ever being stored in clear — only its SHA-256 is.
 */
export function successorOf(raw: string, rotationKey: Uint8Array): { raw: string; hash: string } {
  const next = createHmac('sha256', rotationKey).update(`refresh-rotation:${raw}`).digest('base64url');
  return { raw: next, hash: sha256Hex(next) };
}
