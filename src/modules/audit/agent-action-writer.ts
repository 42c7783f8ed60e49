import { CompiledQuery } from 'kysely';
import type { Db, NewRow } from '../../db/database.js';

/** Rows per INSERT (each column goes as one array parameter, whatever the count). */
const BATCH_ROWS = 500;

/**
 * One statement text for every batch: the columns go as arrays and `unnest` turns them into rows, so a batch costs
 * neither a query build nor a statement of its own shape (a multi-row VALUES list is compiled and planned per size).
 */
const INSERT_ROWS = `insert into audit_events (event_type, severity, user_id, actor_id, application_id, ip_address, user_agent,
    request_id, trace_id, agent_token_id, details, created_at)
  select * from unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::bigint[], $11::jsonb[], $12::timestamptz[])`;

type AuditRow = NewRow<'audit_events'>;
const COLUMNS = ['event_type', 'severity', 'user_id', 'actor_id', 'application_id', 'ip_address', 'user_agent', 'request_id',
  'trace_id', 'agent_token_id', 'details', 'created_at'] as const;

function parametersOf(batch: AuditRow[]): unknown[][] {
  return COLUMNS.map((column) => batch.map((row) => {
    const value = row[column] ?? null;
    if (column === 'severity') return value ?? 'info';
    if (column === 'details') return typeof value === 'string' ? value : JSON.stringify(value ?? {});
    if (column === 'created_at') return value instanceof Date ? value.toISOString() : value;
    return value;
  }));
}
/** Rows kept while the database cannot take them; beyond this the oldest are dropped (and reported). */
const QUEUE_LIMIT = 20_000;

type Deps = { db: Db; onError: (message: string) => void };

/**
 * Audit rows written off the request path (docs/agents.md "Trace and activity": one `agent_action` row per agent request): rows
 * are queued in memory and written by one multi-row INSERT at a time, each taking whatever queued while the one
 * before it ran. `flush()` waits until everything queued so far is written: readers of the trail call it first, and
 * the server calls it when it closes. A batch the database refuses is reported and dropped, never retried in a loop.
 */
export function createAgentActionWriter({ db, onError }: Deps) {
  let queue: AuditRow[] = [];
  let writing: Promise<void> | null = null;

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, BATCH_ROWS);
        queue = queue.slice(BATCH_ROWS);
        try {
          await db.executeQuery(CompiledQuery.raw(INSERT_ROWS, parametersOf(batch)));
        } catch (err) {
          onError(`agent activity: ${batch.length} audit rows not written (${(err as Error).message})`);
        }
      }
    } finally {
      writing = null;
    }
  }

  function enqueue(row: AuditRow): void {
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
