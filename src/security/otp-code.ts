import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomDigits } from './random.js';

export const OTP_LENGTH = 6;
/** Wrong guesses allowed per code: 5 tries leave a 5-in-a-million chance of guessing a 6-digit code. */
export const OTP_MAX_ATTEMPTS = 5;

/** A fresh 6-digit code from the CSPRNG. */
export const newOtpCode = (): string => randomDigits(OTP_LENGTH);

/**
 * HMAC-SHA256 of a code under a server key, with the account and purpose in the MAC input: a leaked table
 * cannot be brute-forced offline without the key (10^6 codes are too few for a plain hash), and a code
 * cannot be replayed for another account or purpose.
 */
export function otpHmac(key: Buffer, code: string, binding: { userId: number; purpose: string }): string {
  return createHmac('sha256', key).update(`${binding.userId}:${binding.purpose}:${code}`).digest('hex');
}

/** Constant-time comparison of two hex HMACs (equal lengths by construction; a length mismatch is simply false). */
export function sameHmac(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && ba.length > 0 && timingSafeEqual(ba, bb);
}
