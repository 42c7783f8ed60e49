import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Emails are trimmed and lower-cased before storage and lookup (DECISIONS.md). */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is proven by verification.
const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
export const isValidEmail = (email: string): boolean => email.length <= 254 && EMAIL_RE.test(email);

/** `+<cc><number>` (E.164) from a full international number, or null when it is not a valid number. */
export function normalizePhone(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\+[\d\s().-]{6,24}$/.test(trimmed)) return null;
  const parsed = parsePhoneNumberFromString(trimmed);
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** The registration form: `phone_country_code` (`+XX`) and `phone_number` (9–15 digits). */
export function normalizePhoneParts(countryCode: string, number: string): string | null {
  if (!/^\+\d{1,4}$/.test(countryCode.trim()) || !/^\d{9,15}$/.test(number.trim())) return null;
  return normalizePhone(`${countryCode.trim()}${number.trim()}`);
}
