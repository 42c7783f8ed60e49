import { createRequire } from 'node:module';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * zxcvbn and its dictionaries (24 MiB of a server's resident memory) are loaded on the first password scored or
 * screened, not at start-up: a server that only signs people in and checks tokens never holds them. Loaded
 * synchronously, so the checks stay plain functions; the first one pays the load (about 0.1 s).
 */
const load = createRequire(import.meta.url);
const zxcvbnCore = () => load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
const common = () => load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
const english = () => load('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');

export type Strength = 'very_weak' | 'weak' | 'fair' | 'strong' | 'very_strong';
const STRENGTHS: readonly Strength[] = ['very_weak', 'weak', 'fair', 'strong', 'very_strong'];

/**
 * zxcvbn's cost grows with the input, so only the first characters are scored: past the policy maximum (128)
 * a password is refused anyway, and this bounds the work an anonymous caller can ask for.
 */
export const MAX_SCORED_LENGTH = 128;

let factory: ZxcvbnFactory | undefined;
let commonPasswords: Set<string> | undefined;

const zxcvbn = () => (factory ??= new (zxcvbnCore().ZxcvbnFactory)({
  dictionary: { ...common().dictionary, ...english().dictionary }, graphs: common().adjacencyGraphs, translations: english().translations,
}));

/** The common-password list shipped with zxcvbn (lower-case entries). */
export const isCommonPassword = (lowerCased: string): boolean =>
  (commonPasswords ??= new Set(common().dictionary['passwords-common'])).has(lowerCased);

/** zxcvbn score 0–4 with the account's own data as user inputs (a password built from them scores low). */
export function scorePassword(password: string, userInputs: string[]): { score: number; strength: Strength } {
  const capped = [...password].slice(0, MAX_SCORED_LENGTH).join('');
  const { score } = zxcvbn().check(capped, userInputs);
  return { score, strength: STRENGTHS[score] ?? 'very_weak' };
}
