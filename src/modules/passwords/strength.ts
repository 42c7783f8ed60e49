import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

export type Strength = 'very_weak' | 'weak' | 'fair' | 'strong' | 'very_strong';
const STRENGTHS: readonly Strength[] = ['very_weak', 'weak', 'fair', 'strong', 'very_strong'];

/**
 * zxcvbn's cost grows with the input, so only the first characters are scored: past the policy maximum (128)
 * a password is refused anyway, and this bounds the work an anonymous caller can ask for.
 */
export const MAX_SCORED_LENGTH = 128;

let factory: ZxcvbnFactory | undefined;
let commonPasswords: Set<string> | undefined;

// The dictionaries are large: built on first use, not at start-up.
const zxcvbn = () => (factory ??= new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs, translations: en.translations,
}));

/** The common-password list shipped with zxcvbn (lower-case entries). */
export const isCommonPassword = (lowerCased: string): boolean =>
  (commonPasswords ??= new Set(common.dictionary['passwords-common'])).has(lowerCased);

/** zxcvbn score 0–4 with the account's own data as user inputs (a password built from them scores low). */
export function scorePassword(password: string, userInputs: string[]): { score: number; strength: Strength } {
  const capped = [...password].slice(0, MAX_SCORED_LENGTH).join('');
  const { score } = zxcvbn().check(capped, userInputs);
  return { score, strength: STRENGTHS[score] ?? 'very_weak' };
}
