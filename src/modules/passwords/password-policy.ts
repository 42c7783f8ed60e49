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
