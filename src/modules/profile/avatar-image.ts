/** docs/authentication.md "Profile" (avatar): the images an avatar may be, recognised by their bytes, and where they are served. */

/** 2 MiB: the largest avatar accepted. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export type AvatarContentType = 'image/png' | 'image/jpeg' | 'image/webp';
export interface AvatarImage { contentType: AvatarContentType; ext: 'png' | 'jpg' | 'webp' }

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];

/**
 * The image type the bytes begin with (their magic number), or null. The client's file name and content type are
 * never consulted: the type served back is the one the bytes prove, so a text file sent as `x.png` stays refused.
 */
export function detectAvatarImage(bytes: Uint8Array): AvatarImage | null {
  if (startsWith(bytes, PNG)) return { contentType: 'image/png', ext: 'png' };
  if (startsWith(bytes, JPEG)) return { contentType: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return { contentType: 'image/webp', ext: 'webp' };
  return null;
}

/** A stored avatar's name: 128 random bits in hex and the extension of its type. Checked before any lookup. */
export const AVATAR_NAME_RE = /^[0-9a-f]{32}\.(?:png|jpg|webp)$/;

/** Served at the root, outside the API prefix: an `<img>` cannot send application credentials. */
export const AVATAR_PATH_PREFIX = '/media/avatars/';
