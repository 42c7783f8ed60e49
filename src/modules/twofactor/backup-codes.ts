import { createHmac, randomBytes } from 'node:crypto';

/** 10 backup codes per generation (docs/authentication.md "Two-factor authentication"). */
export const BACKUP_CODE_COUNT = 10;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const CODE_LENGTH = 10;

/**
 * A backup code: 10 characters of lower-case base32 (50 bits from the CSPRNG; 256 is a multiple of 32, so
 * `byte & 31` has no bias), shown as `xxxxx-xxxxx`. Never six digits, so it cannot be taken for a TOTP code.
 */
export function newBackupCode(): string {
  const chars = [...randomBytes(CODE_LENGTH)].map((b) => ALPHABET[b & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export const newBackupCodes = (count = BACKUP_CODE_COUNT): string[] => Array.from({ length: count }, newBackupCode);

/** What people type: any case, with or without the dash or spaces. */
export const normalizeBackupCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');

/**
 * HMAC-SHA256 under a server key, bound to the account: a leaked table can neither be brute-forced offline
 * without the key (50 bits is within reach of a plain hash) nor have a code replayed against another account.
 */
export const backupCodeHash = (key: Buffer, userId: number, code: string): string =>
  createHmac('sha256', key).update(`${userId}:${normalizeBackupCode(code)}`).digest('hex');
