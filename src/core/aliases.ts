import { AppError } from './errors.js';

export interface AliasOptions<V, W> {
  /** The alias's value in the API's own terms (e.g. `email_verification` → `email`); identity by default. */
  from?: (aliased: W) => V;
  /** When two values mean the same thing; strict equality by default. */
  same?: (a: V, b: V) => boolean;
}

/**
 * docs/migrating-from-tenxyte.md: the API's own field stays and the SDK's spelling is accepted beside it. Answers the value of `field`,
 * or the alias's (through `from`) when only the alias is sent, or undefined when neither is. Both sent with
 * different values is a 400 validation naming the alias: the caller meant one of them, and a guess could act on
 * the wrong one. The schema must declare both fields, since bodies refuse unknown ones.
 */
export function aliasField<B extends object, F extends keyof B & string, A extends keyof B & string>(
  body: B, field: F, alias: A, opts: AliasOptions<NonNullable<B[F]>, NonNullable<B[A]>> = {},
): NonNullable<B[F]> | undefined {
  type V = NonNullable<B[F]>;
  const value = body[field] as V | undefined;
  const raw = body[alias] as NonNullable<B[A]> | undefined;
  const aliased = raw === undefined ? undefined : opts.from ? opts.from(raw) : raw as unknown as V;
  if (value === undefined) return aliased;
  if (aliased !== undefined && !(opts.same ? opts.same(value, aliased) : value === aliased)) {
    throw AppError.validation({ [alias]: [`Must match ${field}.`] });
  }
  return value;
}
