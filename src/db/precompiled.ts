import { CompiledQuery, type Compilable } from 'kysely';
import type { Executor } from './database.js';

/**
 * A query compiled once, for the hottest paths: Kysely builds and compiles a query on every call, which on
 * `GET me/` costs more than the driver. `build` is called once with `markers` — one distinct value per
 * argument — and each marker's position among the compiled parameters is recorded; later calls send the same
 * SQL text with the real arguments in those positions.
 */
export function precompile<A extends Record<string, unknown>, R>(build: (db: Executor, args: A) => Compilable<R>, markers: A) {
  // Every database Gatehouse opens (PostgreSQL, PGlite) compiles with Kysely's PostgreSQL compiler, so the text
  // compiled on the first executor serves them all.
  let compiled: { sql: string; order: Array<keyof A> } | undefined;
  const prepare = (db: Executor) => {
    const query = build(db, markers).compile();
    const order = query.parameters.map((value) => {
      const key = (Object.keys(markers) as Array<keyof A>).find((k) => markers[k] === value);
      if (key === undefined) throw new Error(`precompile: a parameter of "${query.sql}" is not one of the markers`);
      return key;
    });
    return { sql: query.sql, order };
  };
  return async (db: Executor, args: A): Promise<R | undefined> => {
    compiled ??= prepare(db);
    const { rows } = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, compiled.order.map((k) => args[k])));
    return rows[0];
  };
}
