import { compactVerify, createLocalJWKSet, decodeJwt, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { breakOf, type TrailHead, type TrailRow } from './trail-hash.js';

/** The checkpoint's header `typ` (docs/agents.md "The trail"). */
export const CHECKPOINT_TYPE = 'gatehouse-trail-checkpoint+jwt';

/** What a checkpoint's payload says: the chain of `root_token_id` ended at `seq` with `hash` when it was signed. */
export interface CheckpointPayload {
  iss: string;
  root_token_id: number;
  seq: number;
  hash: string | null;
  iat: number;
}

/** The verdict on an exported trail: intact (and whether its checkpoint's signature was checked), or where it breaks. */
export type FileReport =
  | { intact: true; root: number | null; rows: number; head: TrailHead; signature: 'verified' | 'not checked'; kid: string | undefined }
  | { intact: false; line: number; seq: number | null; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks an exported trail (`GET ai/tokens/<id>/activity/export/`) line by line, offline: every row against the one
 * before it, then the last line, the checkpoint, against the last row, and, given the issuer's JWKS, its signature.
 * Answers the first line that does not verify.
 */
export async function verifyExport(lines: AsyncIterable<string>, opts: { jwks?: JSONWebKeySet; onRow?: (rows: number) => void } = {}):
Promise<FileReport> {
  let previous: TrailHead = { seq: 0, hash: null };
  let root: number | null = null;
  let lineNo = 0;
  let rows = 0;
  let checkpoint: { line: number; jws: unknown } | null = null;
  for await (const text of lines) {
    lineNo += 1;
    if (text.trim() === '') continue;
    if (checkpoint) return { intact: false, line: lineNo, seq: null, reason: 'a line after the checkpoint' };
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      return { intact: false, line: lineNo, seq: null, reason: 'not JSON' };
    }
    if (!isObject(row)) return { intact: false, line: lineNo, seq: null, reason: 'not a JSON object' };
    if (row.type === 'checkpoint' && !('seq' in row)) {
      checkpoint = { line: lineNo, jws: row.jws };
      continue;
    }
    const seq = typeof row.seq === 'number' ? row.seq : null;
    if (root === null && typeof row.root_token_id === 'number') root = row.root_token_id;
    const broken = breakOf(previous, root ?? Number.NaN, row as Partial<TrailRow>);
    if (broken) return { intact: false, line: lineNo, seq, reason: broken };
    previous = { seq: seq!, hash: row.hash as string };
    rows += 1;
    opts.onRow?.(rows);
  }
  if (!checkpoint) return { intact: false, line: lineNo + 1, seq: previous.seq + 1, reason: 'no checkpoint line: the export is incomplete' };
  const at = checkpoint.line;
  if (typeof checkpoint.jws !== 'string') return { intact: false, line: at, seq: null, reason: 'the checkpoint has no jws' };
  const payload = payloadOf(checkpoint.jws);
  if (!payload) return { intact: false, line: at, seq: null, reason: 'the checkpoint is not a JWS over {iss, root_token_id, seq, hash, iat}' };
  if (root !== null && payload.root_token_id !== root) {
    return { intact: false, line: at, seq: payload.seq, reason: `the checkpoint is for root token ${payload.root_token_id}, the rows for ${root}` };
  }
  if (payload.seq !== previous.seq || payload.hash !== previous.hash) {
    return { intact: false, line: at, seq: payload.seq, reason: payload.seq > previous.seq
      ? `missing: the rows end at seq ${previous.seq}, the checkpoint is at seq ${payload.seq}` : 'the checkpoint does not match the last row' };
  }
  const kid = kidOf(checkpoint.jws);
  if (!opts.jwks) return { intact: true, root: root ?? payload.root_token_id, rows, head: previous, signature: 'not checked', kid };
  try {
    const { protectedHeader } = await compactVerify(checkpoint.jws, createLocalJWKSet(opts.jwks));
    if (protectedHeader.typ !== CHECKPOINT_TYPE) throw new Error(`typ ${String(protectedHeader.typ)}`);
  } catch (err) {
    return { intact: false, line: at, seq: payload.seq, reason: `the checkpoint's signature does not verify with the JWKS (${(err as Error).message})` };
  }
  return { intact: true, root: root ?? payload.root_token_id, rows, head: previous, signature: 'verified', kid };
}

/** The payload of a compact JWS, unverified, when it has the checkpoint's members. */
function payloadOf(jws: string): CheckpointPayload | null {
  try {
    const p = decodeJwt(jws) as Record<string, unknown>;
    if (typeof p.root_token_id !== 'number' || typeof p.seq !== 'number' || !(typeof p.hash === 'string' || p.hash === null)) return null;
    return p as unknown as CheckpointPayload;
  } catch {
    return null;
  }
}

function kidOf(jws: string): string | undefined {
  try {
    return decodeProtectedHeader(jws).kid;
  } catch {
    return undefined;
  }
}
