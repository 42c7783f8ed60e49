import { timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';

/** RFC 6238 with the parameters every authenticator app supports: HMAC-SHA1, 30-second steps, 6 digits. */
export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** 160 bits: RFC 4226 §4 recommends a shared secret of at least that length. */
export const TOTP_SECRET_BYTES = 20;

/** RFC 4648 base32 without padding, the form authenticator apps read in `otpauth://` URIs. */
export const base32Encode = (data: Buffer): string => new Secret({ buffer: new Uint8Array(data).buffer }).base32;

/** Decodes base32, ignoring case, spaces and `=` padding; throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  if (!/^[A-Z2-7]*$/.test(clean)) throw new RangeError('Invalid base32 character');
  return Buffer.from(Secret.fromBase32(clean).bytes);
}

/** A fresh 160-bit secret from the CSPRNG, base32-encoded. */
export const newTotpSecret = (): string => new Secret({ size: TOTP_SECRET_BYTES }).base32;

const secretOf = (secret: Buffer) => new Secret({ buffer: new Uint8Array(secret).buffer });

/** RFC 4226 HOTP: HMAC-SHA1 over the 8-byte big-endian counter, dynamic truncation, modulo 10^digits. */
export const hotp = (secret: Buffer, counter: number, digits = TOTP_DIGITS): string =>
  HOTP.generate({ secret: secretOf(secret), counter, digits, algorithm: 'SHA1' });

/** The RFC 6238 time step (T) of an instant, with T0 = 0. */
export const timeStep = (at: Date): number => TOTP.counter({ period: TOTP_PERIOD, timestamp: at.getTime() });

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

/** Key URI format read by authenticator apps: `otpauth://totp/{issuer}:{account}?issuer=…&secret=…`. */
export const provisioningUri = (p: { issuer: string; account: string; secret: string }): string =>
  new TOTP({ issuer: p.issuer, label: p.account, secret: Secret.fromBase32(p.secret), algorithm: 'SHA1',
    digits: TOTP_DIGITS, period: TOTP_PERIOD }).toString();
