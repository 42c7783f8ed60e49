import type { Db, NewRow } from '../../db/database.js';

/** Rows per INSERT: 12 columns each stays far below PostgreSQL's 65,535 bind parameters. */
const BATCH_ROWS = 500;
/** Rows kept while the database cannot take them; beyond this the oldest are dropped (and reported). */
const QUEUE_LIMIT = 20_000;

type Deps = { db: Db; onError: (message: string) => void };

/**
 * Audit rows written off the request path (DECISIONS.md "Agents": one `agent_action` row per agent request): rows
 * are queued in memory and written by one multi-row INSERT at a time, each taking whatever queued while the one
 * before it ran. `flush()` waits until everything queued so far is written: readers of the trail call it first, and
 * the server calls it when it closes. A batch the database refuses is reported and dropped, never retried in a loop.
 */
export function createAgentActionWriter({ db, onError }: Deps) {
  let queue: Array<NewRow<'audit_events'>> = [];
  let writing: Promise<void> | null = null;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH_ROWS);
      queue = queue.slice(BATCH_ROWS);
      try {
        await db.insertInto('audit_events').values(batch).execute();
      } catch (err) {
        onError(`agent activity: ${batch.length} audit rows not written (${(err as Error).message})`);
      }
    }
    writing = null;
  }

  function enqueue(row: NewRow<'audit_events'>): void {
    queue.push(row);
    if (queue.length > QUEUE_LIMIT) {
      const dropped = queue.length - QUEUE_LIMIT;
      queue = queue.slice(dropped);
      onError(`agent activity: ${dropped} audit rows dropped, the database is not keeping up`);
    }
    writing ??= drain();
  }

  /** Resolves once every row queued before the call has been written (or reported as lost). */
  async function flush(): Promise<void> {
    while (writing) await writing;
  }

  return { enqueue, flush };
}

export type AgentActionWriter = ReturnType<typeof createAgentActionWriter>;
