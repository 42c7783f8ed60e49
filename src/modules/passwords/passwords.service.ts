import type { Config } from '../../config/settings.js';
import { checkPasswordPolicy, contextWords, type PasswordContext } from './password-policy.js';
import { isCommonPassword, scorePassword } from './strength.js';

type Deps = { config: Config };

/** SPEC.md "Passwords": the policy as clients see it, and a strength estimate that applies it. */
export function createPasswordService({ config }: Deps) {
  function requirements() {
    return {
      min_length: config.PASSWORD_MIN_LENGTH,
      require_lowercase: config.PASSWORD_REQUIRE_LOWERCASE,
      require_uppercase: config.PASSWORD_REQUIRE_UPPERCASE,
      require_numbers: config.PASSWORD_REQUIRE_NUMBERS,
      require_special: config.PASSWORD_REQUIRE_SPECIAL,
    };
  }

  /** Problems of `password` under the policy, for the account described by `context`; empty means acceptable. */
  const check = (password: string, context: PasswordContext = {}) => checkPasswordPolicy(password, config, context, isCommonPassword);

  function strength(password: string, context: PasswordContext = {}) {
    const errors = check(password, context);
    const inputs = [...contextWords(context), ...(context.email ? [context.email.trim().toLowerCase()] : [])];
    const { score, strength: label } = scorePassword(password, inputs);
    return { score, strength: label, is_valid: errors.length === 0, errors, requirements: requirements() };
  }

  return { requirements, check, strength };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
