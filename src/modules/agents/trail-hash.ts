import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * One row of a root token's trail as it is hashed (docs/agents.md "The trail"): the hash is the lower-case hex SHA-256
 * of the RFC 8785 (JCS) serialization of exactly these seven members.
 */
export interface TrailEntry {
  seq: number;
  root_token_id: number;
  token_id: number;
  type: string;
  /** ISO 8601 in UTC with milliseconds, as stored. */
  at: string;
  data: Record<string, unknown>;
  prev_hash: string | null;
}

export interface TrailRow extends TrailEntry {
  hash: string;
}

/** The hash a row must carry. */
export function trailHash(entry: TrailEntry): string {
  const { seq, root_token_id, token_id, type, at, data, prev_hash } = entry;
  return createHash('sha256').update(canonicalize({ seq, root_token_id, token_id, type, at, data, prev_hash })!).digest('hex');
}

/** A root's chain as far as it was appended: its last `seq` (0 when empty) and that row's hash. */
export interface TrailHead {
  seq: number;
  hash: string | null;
}

/** A row appended after `head`, hashed; the head that follows it is `{seq: row.seq, hash: row.hash}`. */
export function nextRow(head: TrailHead, root: number, event: { tokenId: number; type: string; at: string; data: Record<string, unknown> }): TrailRow {
  const entry: TrailEntry = { seq: head.seq + 1, root_token_id: root, token_id: event.tokenId, type: event.type, at: event.at,
    data: event.data, prev_hash: head.hash };
  return { ...entry, hash: trailHash(entry) };
}

/** Why a row does not follow the one before it in a verified chain, or null when it does. */
export function breakOf(previous: TrailHead, root: number, row: Partial<TrailRow>): string | null {
  if (row.root_token_id !== root) return `root_token_id ${String(row.root_token_id)} is not the chain's root ${root}`;
  if (row.seq !== previous.seq + 1) return `seq ${String(row.seq)} where ${previous.seq + 1} follows`;
  if ((row.prev_hash ?? null) !== previous.hash) return 'prev_hash is not the previous row\'s hash';
  if (typeof row.hash !== 'string' || row.hash !== trailHash(row as TrailEntry)) return 'hash does not match the row';
  return null;
}
