import type { Config } from '../../config/settings.js';

export type PolicyConfig = Pick<Config, 'PASSWORD_MIN_LENGTH' | 'PASSWORD_MAX_LENGTH' | 'PASSWORD_REQUIRE_UPPERCASE'
  | 'PASSWORD_REQUIRE_LOWERCASE' | 'PASSWORD_REQUIRE_NUMBERS' | 'PASSWORD_REQUIRE_SPECIAL'>;

/** Length is counted in code points after NFKC, so visually equal passwords count the same. */
export const passwordLength = (password: string): number => [...password.normalize('NFKC')].length;

/** The rule checks that need no I/O. Returns human-readable problems; empty means acceptable. */
export function checkPasswordRules(password: string, policy: PolicyConfig): string[] {
  const problems: string[] = [];
  const length = passwordLength(password);
  if (length < policy.PASSWORD_MIN_LENGTH) problems.push(`Password must be at least ${policy.PASSWORD_MIN_LENGTH} characters long.`);
  if (length > policy.PASSWORD_MAX_LENGTH) problems.push(`Password must be at most ${policy.PASSWORD_MAX_LENGTH} characters long.`);
  if (policy.PASSWORD_REQUIRE_UPPERCASE && !/\p{Lu}/u.test(password)) problems.push('Password must contain an upper-case letter.');
  if (policy.PASSWORD_REQUIRE_LOWERCASE && !/\p{Ll}/u.test(password)) problems.push('Password must contain a lower-case letter.');
  if (policy.PASSWORD_REQUIRE_NUMBERS && !/\p{Nd}/u.test(password)) problems.push('Password must contain a digit.');
  if (policy.PASSWORD_REQUIRE_SPECIAL && !/[^\p{L}\p{Nd}]/u.test(password)) problems.push('Password must contain a symbol.');
  return problems;
}

/** Who the password belongs to: parts of it must not appear in the password. */
export interface PasswordContext {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
}

/**
 * Context words shorter than this are too common inside ordinary words to refuse ("ann" in "planning"): a
 * three-letter word turns up in about one random 20-character password in two thousand. Applies to the whole
 * local part and names as to their pieces.
 */
const MIN_CONTEXT_WORD = 4;

const fold = (s: string): string => s.normalize('NFKC').toLowerCase();

/**
 * The words a password must not contain: the email local part (whole and split on separators) and the names,
 * lower-cased after NFKC.
 */
export function contextWords(context: PasswordContext): string[] {
  const words = new Set<string>();
  const add = (value: string | null | undefined) => {
    if (!value) return;
    const folded = fold(value.trim());
    if (folded.length >= MIN_CONTEXT_WORD) words.add(folded);
    for (const part of folded.split(/[^\p{L}\p{Nd}]+/u)) if (part.length >= MIN_CONTEXT_WORD) words.add(part);
  };
  const email = context.email?.trim();
  if (email) add(email.includes('@') ? email.slice(0, email.lastIndexOf('@')) : email);
  add(context.first_name);
  add(context.last_name);
  return [...words];
}

/** A problem when the password contains the account's email local part or names. */
export function checkContextWords(password: string, words: readonly string[]): string[] {
  const folded = fold(password);
  return words.some((w) => folded.includes(w)) ? ['Password must not contain your email address or name.'] : [];
}

/** A problem when the password, ignoring case, is on a list of commonly used passwords. */
export function checkCommonPassword(password: string, isCommon: (lowerCased: string) => boolean): string[] {
  return isCommon(fold(password)) ? ['This password is too common.'] : [];
}

/** Every rule that needs no I/O: length and composition, context words, common passwords. */
export function checkPasswordPolicy(password: string, policy: PolicyConfig, context: PasswordContext,
  isCommon: (lowerCased: string) => boolean): string[] {
  return [...checkPasswordRules(password, policy), ...checkContextWords(password, contextWords(context)),
    ...checkCommonPassword(password, isCommon)];
}
