import { AsyncLocalStorage } from 'node:async_hooks';
import { PostgresQueryCompiler, type KyselyPlugin, type QueryId } from 'kysely';

/**
 * What writing a batch of agent activity rows into the trail costs, whatever the batch's size, once the instance knows
 * the roots' heads (docs/agents.md "The trail"): one statement writes the rows and moves the heads if they are still
 * what it wrote last. The first batch of a root, or one after another instance wrote to it, takes the heads' locks
 * instead (two statements in a transaction).
 */
export const TRAIL_WRITE = 1;

/**
 * Records the statements an app runs (pass `plugin` as `createTestApp({ dbPlugin })`) on behalf of the code given to
 * `during`, in the order they complete, as their SQL text with placeholders: what a request costs the database, counted
 * instead of timed. Only statements issued from that code's asynchronous context count: the app's own background work
 * (the signing keys' poll, a webhook pass kicked by an earlier request) is not the request's cost, however the timers
 * fall. Work that reaches the app through a socket (`{ socket: true }`) is served from the socket's context instead:
 * then every statement completed meanwhile counts, background work included. A statement compiled ahead of time (the precompiled hot-path lookups) is recorded as `(precompiled)`;
 * transaction control (`begin`, `commit`) is the driver's and is not seen.
 */
export function statementRecorder() {
  const compiler = new PostgresQueryCompiler();
  const texts = new WeakMap<QueryId, string>();
  const recording = new AsyncLocalStorage<string[]>();
  let everything: string[] | null = null;
  const recordingHere = () => recording.getStore() ?? everything;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      if (recordingHere()) texts.set(queryId, compiler.compileQuery(node, queryId).sql);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      recordingHere()?.push(texts.get(queryId) ?? '(precompiled)');
      return result;
    },
  };
  return {
    plugin,
    /** Runs `work` and answers what it answered with the statements it ran. */
    async during<T>(work: () => Promise<T>, { socket = false } = {}): Promise<{ answer: T; statements: string[] }> {
      const statements: string[] = [];
      if (!socket) return { answer: await recording.run(statements, work), statements };
      everything = statements;
      try {
        return { answer: await work(), statements };
      } finally {
        everything = null;
      }
    },
  };
}
