import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 6238 with the parameters every authenticator app supports: HMAC-SHA1, 30-second steps, 6 digits. */
export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** 160 bits: RFC 4226 §4 recommends a shared secret of at least that length. */
export const TOTP_SECRET_BYTES = 20;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, the form authenticator apps read in `otpauth://` URIs. */
export function base32Encode(data: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of data) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32, ignoring case, spaces and `=` padding; throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = BASE32_ALPHABET.indexOf(ch);
    if (index < 0) throw new RangeError('Invalid base32 character');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

/** A fresh 160-bit secret from the CSPRNG, base32-encoded. */
export const newTotpSecret = (): string => base32Encode(randomBytes(TOTP_SECRET_BYTES));

/** RFC 4226 HOTP: HMAC-SHA1 over the 8-byte big-endian counter, dynamic truncation, modulo 10^digits. */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step (T) of an instant, with T0 = 0. */
export const timeStep = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP_PERIOD);

/** The code of one time step. */
export const totpAt = (secret: Buffer, step: number): string => hotp(secret, step);

/**
 * The time step a code belongs to, searched within `window` steps on each side of `now` (RFC 6238 §5.2
 * allows one step of network delay; the setting widens it), or null when none matches. Every candidate is
 * computed and compared in constant time, so the answer's timing does not depend on which step matched.
 * The latest matching step is answered: the caller accepts a step only once and only after the last one used.
 */
export function matchTotpStep(secret: Buffer, code: string, now: Date, window: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const given = Buffer.from(code);
  const current = timeStep(now);
  let matched: number | null = null;
  for (let step = current - window; step <= current + window; step++) {
    if (step >= 0 && timingSafeEqual(Buffer.from(totpAt(secret, step)), given)) matched = step;
  }
  return matched;
}

/** Key URI format read by authenticator apps: `otpauth://totp/{issuer}:{account}?secret=…&issuer=…`. */
export function provisioningUri(p: { issuer: string; account: string; secret: string }): string {
  const label = `${encodeURIComponent(p.issuer)}:${encodeURIComponent(p.account)}`;
  const query = `secret=${p.secret}&issuer=${encodeURIComponent(p.issuer)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_PERIOD}`;
  return `otpauth://totp/${label}?${query}`;
}
