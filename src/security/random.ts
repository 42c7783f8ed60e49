import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A high-entropy opaque token: the raw value goes to the client once, only its hash is stored. */
export function newOpaqueToken(bytes = 32): { raw: string; hash: string } {
  const raw = randomBytes(bytes).toString('base64url'); // 256 bits; the Copenhagen Book asks for at least 112
  return { raw, hash: sha256Hex(raw) };
}

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** `length` decimal digits from a CSPRNG, without modulo bias (crypto.randomInt rejects biased draws). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/**
 * A password for an account created on the command line: 120 random bits, then a lower-case letter, an upper-case
 * letter, a digit and a symbol, so whatever the preset's rules ask is there.
 */
export const strongPassword = (): string => `${randomBytes(15).toString('base64url')}aZ7!`;
