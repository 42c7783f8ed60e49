import { CompactSign } from 'jose';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { JwtKey } from '../../security/jwt.js';
import { isOwnToken } from './activity.repo.js';
import { breakOf, type TrailHead, type TrailRow } from './trail-hash.js';
import { CHECKPOINT_TYPE } from './trail-verify.js';
import type { TrailWriter } from './trail-writer.js';
import * as repo from './trail.repo.js';

type Deps = {
  db: Db; clock: Clock; issuer: string; writer: TrailWriter;
  /** The asymmetric key the checkpoints are signed with, published in the JWKS. */
  checkpointKey: () => Promise<JwtKey>;
};

/** Rows read per query while a chain is exported or verified. */
const PAGE_ROWS = 5_000;

/** What `gatehouse audit verify --token` found: the chain intact up to its head, or the first row that does not verify. */
export type ChainReport = { intact: true; root: number; seq: number; hash: string | null }
  | { intact: false; root: number; seq: number; reason: string };

/** One exported row, its members in the order of the canonical form. */
const exportedRow = (r: TrailRow) => ({ seq: r.seq, root_token_id: r.root_token_id, token_id: r.token_id, type: r.type, at: r.at,
  data: r.data, prev_hash: r.prev_hash, hash: r.hash });

/**
 * The agent trail's readers (docs/agents.md "The trail"): the export of a root's chain with its signed checkpoint, and
 * the check of a stored chain. Both first append what is queued for the root, so they see every event so far.
 */
export function createTrailService({ db, clock, issuer, writer, checkpointKey }: Deps) {
  /** The rows of a root's chain after `afterSeq` up to `lastSeq`, a page at a time. */
  async function* rowsOf(root: number, lastSeq: number): AsyncGenerator<TrailRow> {
    let after = 0;
    while (after < lastSeq) {
      const page = await repo.chainPage(db, root, after, Math.min(PAGE_ROWS, lastSeq - after));
      if (page.length === 0) return;
      yield* page;
      after = page[page.length - 1]!.seq;
    }
  }

  /** The head of a root's chain with everything queued for it appended. */
  async function currentHead(root: number): Promise<TrailHead> {
    await writer.drainQueued(root);
    return (await repo.headOf(db, root)) ?? { seq: 0, hash: null };
  }

  /** A compact JWS over `{iss, root_token_id, seq, hash, iat}`, signed with the checkpoint key. */
  async function checkpoint(root: number, head: TrailHead): Promise<string> {
    const key = await checkpointKey();
    if (!('publicKey' in key) || !key.privateKey) throw new Error('the trail checkpoint key cannot sign');
    const payload = { iss: issuer, root_token_id: root, seq: head.seq, hash: head.hash, iat: Math.floor(clock.now().getTime() / 1000) };
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: CHECKPOINT_TYPE }).sign(key.privateKey);
  }

  /**
   * GET ai/tokens/<id>/activity/export/: the whole chain of the token's root (the token may be any of the person's,
   * a descendant included), one JSON row per line, then the checkpoint line. Unknown or another person's → NOT_FOUND.
   */
  async function exportChain(ownerId: number, tokenId: number): Promise<AsyncGenerator<string>> {
    const root = (await isOwnToken(db, ownerId, tokenId)) ? await repo.rootOf(db, tokenId) : undefined;
    if (root === undefined) throw new AppError('NOT_FOUND');
    const head = await currentHead(root);
    return (async function* lines() {
      for await (const row of rowsOf(root, head.seq)) yield `${JSON.stringify(exportedRow(row))}\n`;
      yield `${JSON.stringify({ type: 'checkpoint', jws: await checkpoint(root, head) })}\n`;
    })();
  }

  /**
   * `gatehouse audit verify --token <id>`: the chain of the token's root, row by row up to its head as read at the start
   * (rows appended meanwhile are the next check's), then its last row against the head.
   */
  async function verifyStored(tokenId: number, onRow?: (rows: number, of: number) => void): Promise<ChainReport | undefined> {
    const root = await repo.rootOf(db, tokenId);
    if (root === undefined) return undefined;
    const head = await currentHead(root);
    let previous: TrailHead = { seq: 0, hash: null };
    for await (const row of rowsOf(root, head.seq)) {
      const broken = breakOf(previous, root, row);
      if (broken) return { intact: false, root, seq: row.seq, reason: broken };
      previous = { seq: row.seq, hash: row.hash };
      onRow?.(row.seq, head.seq);
    }
    // Rows removed from the end leave a chain that verifies but stops short of its head.
    if (previous.seq !== head.seq || previous.hash !== head.hash) {
      return { intact: false, root, seq: previous.seq + 1,
        reason: previous.seq < head.seq ? `missing: the chain ends at seq ${previous.seq}, its head is at seq ${head.seq}`
          : 'the head does not match the last row' };
    }
    return { intact: true, root, seq: head.seq, hash: head.hash };
  }

  return { exportChain, verifyStored };
}

export type TrailService = ReturnType<typeof createTrailService>;
