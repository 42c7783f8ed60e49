import type { Db } from '../../db/database.js';
import { toIso } from '../../core/clock.js';
import { nextRow, type TrailHead, type TrailRow } from './trail-hash.js';
import * as repo from './trail.repo.js';

/** Rows per transaction. */
const BATCH_ROWS = 500;
/** Rows kept while the database cannot take them; beyond this the oldest are dropped (and reported). */
const QUEUE_LIMIT = 20_000;
/** Roots taken from the event queue per transaction. */
const QUEUE_ROOTS = 100;
/** Heads this instance remembers writing; beyond this many roots it forgets them all (and takes the locks again). */
const KNOWN_HEADS = 10_000;

type TrailEvent = { tokenId: number; type: string; at: string; data: Record<string, unknown> };

/**
 * Rows hashed one after another onto the heads `headOf` gives (a root without a head gets no row: it was deleted
 * meanwhile, with its person's account): `add` answers the row's `seq`, `rows` and `moved` what to write.
 */
function chainOnto(headOf: (root: number) => TrailHead | undefined) {
  const rows: TrailRow[] = [];
  const moved = new Map<number, TrailHead>();
  const add = (root: number, event: TrailEvent): number | null => {
    const head = moved.get(root) ?? headOf(root);
    if (!head) return null;
    const row = nextRow(head, root, event);
    rows.push(row);
    moved.set(root, { seq: row.seq, hash: row.hash });
    return row.seq;
  };
  return { add, rows, moved };
}

/** The trail event of an agent request's audit row. */
const requestEvent = (e: ActivityEntry): TrailEvent =>
  ({ tokenId: e.tokenId, type: e.audit.event_type, at: toIso(e.audit.created_at)!, data: e.data });

/** An agent request's audit row, with its place in a trail: its token and, when known, the token's root. */
export interface ActivityEntry {
  audit: repo.AuditColumns;
  tokenId: number;
  /** The root of the token's tree; looked up when the request was refused before its chain was read. */
  root: number | null;
  data: Record<string, unknown>;
}

type Deps = { db: Db; onError: (message: string) => void };

/**
 * The agent trail's writer (docs/agents.md "The trail"). Agent requests' audit rows are queued in memory and written
 * off the request path, each transaction taking whatever queued while the one before it ran: it locks the heads of the
 * roots it touches (in root order), takes the token events and decisions the triggers queued for those roots, hashes
 * every row after its root's head, and writes the audit rows, the trail rows and the new heads in one statement. One
 * root's appends wait for each other, on every instance; other roots' never do. `drainQueued` appends the queued events
 * of roots no request touched (the `agent-trail` job, and the readers of a trail first). `flush()` waits until
 * everything queued so far is written; the server calls it when it closes. A batch the database refuses is reported
 * and dropped (its queued events stay queued for the next pass), never retried in a loop.
 */
export function createTrailWriter({ db, onError }: Deps) {
  let queue: ActivityEntry[] = [];
  let writing: Promise<void> | null = null;
  /** The heads this instance last wrote: a batch of those roots alone is appended without a transaction, if still theirs. */
  const known = new Map<number, TrailHead>();
  const remember = (heads: Map<number, TrailHead>) => {
    if (known.size + heads.size > KNOWN_HEADS) known.clear();
    for (const [root, head] of heads) known.set(root, head);
  };

  /**
   * Requests of roots whose heads this instance wrote last: hashed after those heads and written in one statement,
   * provided no head moved and nothing is queued for those roots (then the locks are taken). Answers whether it wrote.
   */
  async function appendAfterKnownHeads(entries: ActivityEntry[]): Promise<boolean> {
    if (entries.length === 0 || entries.some((e) => e.root === null || !known.has(e.root))) return false;
    const { add, rows, moved } = chainOnto((root) => known.get(root));
    const audit = entries.map((e) => ({ ...e.audit, trail_seq: add(e.root!, requestEvent(e)) }));
    const moves = [...moved].map(([root, now]) => ({ root, was: known.get(root)!, now }));
    try {
      if (await repo.appendIfUnmoved(db, audit, rows, moves)) {
        remember(moved);
        return true;
      }
    } catch {
      // Another instance appended to one of these roots meanwhile: the locked path below reads the heads afresh.
    }
    for (const root of moved.keys()) known.delete(root);
    return false;
  }

  /** Appends `entries` (requests) and the queued events of their roots and of `roots`. */
  async function appendBatch(entries: ActivityEntry[], roots: number[]): Promise<number> {
    if (roots.length === 0 && await appendAfterKnownHeads(entries)) return 0;
    return db.transaction().execute(async (trx) => {
      const unresolved = entries.filter((e) => e.root === null).map((e) => e.tokenId);
      if (unresolved.length > 0) {
        const found = await repo.rootsOf(trx, unresolved);
        for (const e of entries) if (e.root === null) e.root = found.get(e.tokenId) ?? null;
      }
      const live = entries.filter((e) => e.root !== null);
      const touched = [...new Set([...roots, ...live.map((e) => e.root!)])].sort((a, b) => a - b);
      let { heads, queued } = await repo.lockAndTake(trx, touched);
      if (heads.size < touched.length) {
        await repo.createHeads(trx, touched.filter((r) => !heads.has(r)));
        const more = await repo.lockAndTake(trx, touched);
        heads = more.heads;
        queued = [...queued, ...more.queued];
      }
      const { add, rows, moved } = chainOnto((root) => heads.get(root));
      for (const q of queued) add(q.root, { tokenId: q.tokenId, type: q.type, at: toIso(q.at)!, data: q.data });
      const audit = entries.map((e) => ({ ...e.audit, trail_seq: e.root === null ? null : add(e.root, requestEvent(e)) }));
      await repo.append(trx, audit, rows, moved);
      remember(new Map([...heads, ...moved]));
      return queued.length;
    });
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, BATCH_ROWS);
        queue = queue.slice(BATCH_ROWS);
        try {
          await appendBatch(batch, []);
        } catch (err) {
          onError(`agent activity: ${batch.length} audit rows not written (${(err as Error).message})`);
        }
      }
    } finally {
      writing = null;
    }
  }

  function enqueue(entry: ActivityEntry): void {
    queue.push(entry);
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

  /**
   * Appends the token events and decisions queued by the triggers: those of `root` only, or of every root (a few at a
   * time, oldest first). Answers how many were appended.
   */
  async function drainQueued(root?: number): Promise<number> {
    await flush();
    if (root !== undefined) return appendBatch([], [root]);
    let appended = 0;
    for (;;) {
      const roots = await repo.queuedRoots(db, QUEUE_ROOTS);
      if (roots.length === 0) return appended;
      appended += await appendBatch([], roots);
    }
  }

  return { enqueue, flush, drainQueued };
}

export type TrailWriter = ReturnType<typeof createTrailWriter>;

