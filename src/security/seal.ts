import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets kept at rest (TOTP secrets, messages waiting in the outbox). The output is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; a fresh 96-bit IV per message, as NIST SP 800-38D asks.
 */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** A 256-bit key from any secret string, separated by purpose so one key never serves two uses. */
export const deriveKey = (secret: string, purpose: string): Buffer =>
  createHash('sha256').update(`gatehouse:${purpose}:`).update(secret).digest();

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new RangeError('AES-256-GCM needs a 32-byte key');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
