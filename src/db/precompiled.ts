import { CompiledQuery, type Compilable } from 'kysely';
import type { Executor } from './database.js';

/**
 * A query compiled once, for the hottest paths: Kysely builds and compiles a query on every call, which on
 * `GET me/` costs more than the driver. `build` is called once with `markers` — one distinct value per
 * argument — and each marker's position among the compiled parameters is recorded; later calls send the same
 * SQL text with the real arguments in those positions; any other parameter (a literal the query itself sets) is
 * sent as compiled. Markers must be distinct (by identity), must not be null and must be used as they are: a
 * value derived from an argument would be taken for a literal. A query whose shape depends on an argument's
 * value (an `in` list, an optional clause) needs one precompiled query per shape.
 */
function compiledRunner<A extends object, R>(build: (db: Executor, args: A) => Compilable<R>, markers: NoInfer<A>) {
  // Every database Gatehouse opens (PostgreSQL, PGlite) compiles with Kysely's PostgreSQL compiler, so the text
  // compiled on the first executor serves them all.
  let compiled: { sql: string; slots: Array<{ key: keyof A } | { literal: unknown }> } | undefined;
  const prepare = (db: Executor) => {
    const query = build(db, markers).compile();
    const keys = Object.keys(markers) as Array<keyof A>;
    const slots = query.parameters.map((value) => {
      const key = keys.find((k) => markers[k] === value);
      return key === undefined ? { literal: value } : { key };
    });
    return { sql: query.sql, slots };
  };
  return async (db: Executor, args: A): Promise<R[]> => {
    compiled ??= prepare(db);
    const parameters = compiled.slots.map((slot) => ('key' in slot ? args[slot.key] : slot.literal));
    const { rows } = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters));
    return rows;
  };
}

/** A precompiled query answering its first row (or undefined). */
export function precompile<A extends object, R>(build: (db: Executor, args: A) => Compilable<R>, markers: NoInfer<A>) {
  const run = compiledRunner(build, markers);
  return async (db: Executor, args: A): Promise<R | undefined> => (await run(db, args))[0];
}

/** A precompiled query answering all its rows. */
export const precompileRows = <A extends object, R>(build: (db: Executor, args: A) => Compilable<R>, markers: NoInfer<A>) =>
  compiledRunner(build, markers);
