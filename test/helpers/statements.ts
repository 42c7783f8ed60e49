import { PostgresQueryCompiler, type KyselyPlugin, type QueryId } from 'kysely';

/**
 * Records the statements an app runs (pass `plugin` as `createTestApp({ dbPlugin })`), in the order they complete,
 * as their SQL text with placeholders: what a request costs the database, counted instead of timed. A statement
 * compiled ahead of time (the precompiled sign-in lookups) is recorded as `(precompiled)`; transaction control
 * (`begin`, `commit`) is the driver's and is not seen.
 */
export function statementRecorder() {
  const compiler = new PostgresQueryCompiler();
  const texts = new WeakMap<QueryId, string>();
  let recorded: string[] | null = null;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      if (recorded) texts.set(queryId, compiler.compileQuery(node, queryId).sql);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      recorded?.push(texts.get(queryId) ?? '(precompiled)');
      return result;
    },
  };
  return {
    plugin,
    start(): void { recorded = []; },
    /** Stops recording and answers what was recorded since `start`. */
    stop(): string[] {
      const out = recorded ?? [];
      recorded = null;
      return out;
    },
  };
}
