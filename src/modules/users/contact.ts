import { ParseError, parsePhoneNumberFromString, parsePhoneNumberWithError } from 'libphonenumber-js/max';
import type { FieldErrors } from '../../core/errors.js';

/** Emails are trimmed and lower-cased before storage and lookup (docs/decisions.md "Sign-in"). */
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

const COUNTRY_CODE_RE = /^\+\d{1,4}$/;
const NATIONAL_NUMBER_RE = /^\d{9,15}$/;

/** The registration form: `phone_country_code` (`+XX`) and `phone_number` (9–15 digits). */
export function normalizePhoneParts(countryCode: string, number: string): string | null {
  if (!COUNTRY_CODE_RE.test(countryCode.trim()) || !NATIONAL_NUMBER_RE.test(number.trim())) return null;
  return normalizePhone(`${countryCode.trim()}${number.trim()}`);
}

/** A calling code no country or service uses (`+999`) is the country code's fault, not the number's. */
function isUnknownCallingCode(countryCode: string, number: string): boolean {
  try {
    parsePhoneNumberWithError(`${countryCode}${number}`);
    return false;
  } catch (err) {
    return err instanceof ParseError && err.message === 'INVALID_COUNTRY';
  }
}

/**
 * The phone of a form that names it in two fields, in E.164, or the problems of each field. The two fields
 * come together: one without the other is an error on the missing one.
 */
export function phoneFromParts(countryCode: string | undefined, number: string | undefined):
  { phone: string; errors?: undefined } | { phone?: undefined; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const cc = countryCode?.trim();
  const national = number?.trim();
  if (!cc) errors.phone_country_code = ['This field is required with phone_number.'];
  else if (!COUNTRY_CODE_RE.test(cc)) errors.phone_country_code = ['Use the form +XX.'];
  if (!national) errors.phone_number = ['This field is required with phone_country_code.'];
  else if (!NATIONAL_NUMBER_RE.test(national)) errors.phone_number = ['Enter 9 to 15 digits.'];
  if (Object.keys(errors).length) return { errors };
  const phone = normalizePhone(`${cc}${national}`);
  if (phone) return { phone };
  if (isUnknownCallingCode(cc!, national!)) return { errors: { phone_country_code: ['Unknown country code.'] } };
  return { errors: { phone_number: ['Enter a valid phone number for this country code.'] } };
}
