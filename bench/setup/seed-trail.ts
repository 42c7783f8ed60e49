/**
 * Seeds one root agent token with a trail of <rows> rows, hashed as the server hashes them (docs/agents.md "The trail"):
 * activity-shaped rows, their head, and writes the same chain as an export file (one row per line, then a checkpoint
 * signed with a throwaway Ed25519 key: the bench checks the file without `--jwks`). Prints the token's id.
 *
 * Usage: node --import tsx bench/setup/seed-trail.ts <rows> <export file>, with SVC_DATABASE_URL, on a migrated database.
 */
import { createWriteStream } from 'node:fs';
import { CompactSign, generateKeyPair } from 'jose';
import { CompiledQuery } from 'kysely';
import { nextRow, type TrailHead, type TrailRow } from '../../src/modules/agents/trail-hash.js';
import { CHECKPOINT_TYPE } from '../../src/modules/agents/trail-verify.js';
import { withGatehouseDatabase } from './database.js';

const BATCH = 10_000;
const rows = Number(process.argv[2]);
const file = process.argv[3];
if (!Number.isInteger(rows) || rows < 1 || !file) {
  process.stderr.write('usage: seed-trail.ts <rows> <export file>\n');
  process.exit(2);
}

const out = createWriteStream(file);
const write = (line: string) => new Promise<void>((resolve) => { if (out.write(line)) resolve(); else out.once('drain', () => resolve()); });

await withGatehouseDatabase(async (db) => {
  const user = await db.insertInto('users').values({ email: 'trail-bench@example.com' }).returning('id')
    .executeTakeFirstOrThrow();
  const token = await db.insertInto('agent_tokens').values({ user_id: user.id, agent_id: 'trail-bench', token_hash: 'trail-bench',
    granted_permissions: ['users.view'], expires_at: new Date(Date.now() + 86_400_000), max_requests_per_minute: 60,
    max_requests_total: 10_000_000, max_failed_requests: 10 }).returning('id').executeTakeFirstOrThrow();
  // The token's creation is the one queued event: it starts the chain.
  await db.deleteFrom('agent_trail_queue').where('root_token_id', '=', token.id).execute();
  let head: TrailHead = { seq: 0, hash: null };
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  for (let done = 0; done < rows; done += BATCH) {
    const batch: TrailRow[] = [];
    for (let i = done; i < Math.min(rows, done + BATCH); i++) {
      const row = nextRow(head, token.id, { tokenId: token.id, type: 'agent_action', at: new Date(start + i * 10).toISOString(), data: {
        token_id: token.id, agent_id: 'trail-bench', method: 'POST', path: '/api/v1/auth/ai/authorize/', permission: 'users.view',
        decision: i % 17 ? 'allow' : 'deny', status: i % 17 ? 200 : 403, prompt_trace_id: `run-${i >> 6}` } });
      batch.push(row);
      head = { seq: row.seq, hash: row.hash };
    }
    await db.executeQuery(CompiledQuery.raw(`insert into agent_trail (root_token_id, seq, token_id, type, at, data, prev_hash, hash)
      select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::jsonb[], $7::text[], $8::text[])`,
    [batch.map((r) => r.root_token_id), batch.map((r) => r.seq), batch.map((r) => r.token_id), batch.map((r) => r.type), batch.map((r) => r.at),
      batch.map((r) => JSON.stringify(r.data)), batch.map((r) => r.prev_hash), batch.map((r) => r.hash)]));
    for (const r of batch) {
      await write(`${JSON.stringify({ seq: r.seq, root_token_id: r.root_token_id, token_id: r.token_id, type: r.type, at: r.at, data: r.data,
        prev_hash: r.prev_hash, hash: r.hash })}\n`);
    }
  }
  await db.updateTable('agent_trail_heads').set({ seq: head.seq, hash: head.hash }).where('root_token_id', '=', token.id).execute();
  const { privateKey } = await generateKeyPair('EdDSA');
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify({ iss: 'bench', root_token_id: token.id, seq: head.seq,
    hash: head.hash, iat: Math.floor(Date.now() / 1000) }))).setProtectedHeader({ alg: 'EdDSA', typ: CHECKPOINT_TYPE }).sign(privateKey);
  await write(`${JSON.stringify({ type: 'checkpoint', jws })}\n`);
  await new Promise<void>((resolve) => out.end(resolve));
  process.stdout.write(`${token.id}\n`);
});
