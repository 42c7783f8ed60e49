import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import canonicalize from 'canonicalize';
import { CompactSign, compactVerify, createLocalJWKSet, decodeProtectedHeader, generateKeyPair, type JSONWebKeySet } from 'jose';
import { runWithIo, type CommandIo } from '../../../src/cli/context.js';
import { runCommand } from '../../../src/cli/main.js';
import type { Runtime } from '../../../src/main.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { account, AGENT_ENV, agentApi, delegate, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const ENV = { ...AGENT_ENV, SVC_AIRS_CONFIRMATION_REQUIRED: 'roles.manage' };

interface Row { seq: number; root_token_id: number; token_id: number; type: string; at: string; data: Record<string, unknown>;
  prev_hash: string | null; hash: string }

/** docs/agents.md "The trail": the hash, written here from the documented canonical form alone. */
const hashOf = ({ seq, root_token_id, token_id, type, at, data, prev_hash }: Row) =>
  createHash('sha256').update(canonicalize({ seq, root_token_id, token_id, type, at, data, prev_hash })!).digest('hex');

/** The export's lines: the rows, then the checkpoint. */
async function exported(t: TestApp, who: Account, tokenId: number): Promise<{ rows: Row[]; jws: string; text: string }> {
  const res = await userApi(t)('GET', `ai/tokens/${tokenId}/activity/export/`, who);
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^application\/x-ndjson/);
  const lines = res.body.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const last = lines.pop()!;
  assert.deepEqual(Object.keys(last), ['type', 'jws']);
  assert.equal(last.type, 'checkpoint');
  return { rows: lines as unknown as Row[], jws: last.jws as string, text: res.body };
}

/** Every row hashes to its `hash`, follows the one before it, and the seqs run from 1 without a gap. */
function assertChain(rows: Row[], root: number): void {
  rows.forEach((row, i) => {
    assert.equal(row.seq, i + 1);
    assert.equal(row.root_token_id, root);
    assert.equal(row.prev_hash, i === 0 ? null : rows[i - 1]!.hash);
    assert.equal(row.hash, hashOf(row), `seq ${row.seq}`);
    assert.match(row.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
}

/** `gatehouse audit verify …` run against this app's database (as the server's command channel runs it). */
async function auditVerify(t: TestApp, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CommandIo = { env: {}, cwd: process.cwd(), stdin: null, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false,
    out: (c) => { out += String(c); }, err: (c) => { err += String(c); } };
  const runtime = { container: t.container, close: async () => undefined } as unknown as Runtime;
  const code = await runWithIo(io, () => runCommand(['audit', 'verify', ...args]), runtime);
  return { code, out, err };
}

describe('the agent trail (docs/agents.md "The trail")', () => {
  const t = useTestApp({ now: NOW, env: ENV });
  // A second instance on the same database: appends of one root from both never lose or duplicate a seq.
  const other = useTestApp({ now: NOW, env: ENV, reset: false });
  let alice: Account;
  const user = userApi(t);
  const agent = agentApi(t);
  beforeEach(async () => {
    alice = await account(t, { email: `alice${Math.random().toString(36).slice(2, 8)}@example.com` });
    await grantDirect(t, alice.id, ['users.view', 'roles.view', 'roles.manage']);
  });
  const authorize = (app: TestApp, token: string, permission: string) => app.api({ method: 'POST', path: 'ai/authorize/',
    payload: { permission, method: 'POST', path: '/reports/', body_sha256: '0'.repeat(64) }, headers: { authorization: `AgentBearer ${token}` } });
  const planner = () => delegate(t, alice, { agent_id: 'planner', can_delegate: true, permissions: ['users.view', 'roles.view', 'roles.manage'] });
  const child = async (parent: { id: number; token: string }) => expectStatus(await agent('POST', `ai/tokens/${parent.id}/delegate/`,
    parent.token, { agent_id: 'researcher', permissions: ['users.view', 'roles.manage'] }), 201) as { id: number; token: string };

  it('chains requests, token events and approval decisions of a whole tree, and shows each activity row\'s place', async () => {
    const root = await planner();
    const sub = await child(root);
    t.clock.advance(1);
    expectStatus(await authorize(t, root.token, 'users.view'), 200);
    expectStatus(await authorize(t, sub.token, 'users.view'), 200);
    const pending = expectStatus(await authorize(t, sub.token, 'roles.manage'), 202);
    expectStatus(await user('POST', `ai/pending-actions/${pending.action_id}/approve/`, alice, {}), 200);
    expectStatus(await user('PUT', `ai/tokens/${sub.id}/`, alice, { can_delegate: false, permissions: ['users.view'] }), 200);
    expectStatus(await user('POST', `ai/tokens/${root.id}/suspend/`, alice), 200);
    expectStatus(await user('POST', `ai/tokens/${root.id}/resume/`, alice), 200);
    expectStatus(await user('POST', `ai/tokens/${root.id}/revoke/`, alice), 200);

    const { rows } = await exported(t, alice, sub.id); // a descendant's id exports its root's chain
    assertChain(rows, root.id);
    const summary = rows.map((r) => `${r.token_id === root.id ? 'root' : 'sub'} ${r.type}`);
    // The delegation's event comes before the delegate/ request's own row (the token was made before the answer went);
    // an ancestor's event before those it caused below it.
    assert.deepEqual(summary, ['root token.created', 'sub token.delegated', 'root agent_action', 'root agent_action', 'sub agent_action',
      'sub agent_action', 'sub action.approved', 'sub token.updated', 'root token.suspended', 'sub token.suspended', 'root token.resumed',
      'sub token.resumed', 'root token.revoked', 'sub token.revoked']);
    // Each kind of row, with what it records.
    const of = (type: string, token: number) => rows.find((r) => r.type === type && r.token_id === token)!;
    assert.deepEqual(of('token.delegated', sub.id).data, { agent_id: 'researcher', parent_id: root.id, depth: 2, organization_id: null,
      permissions: ['roles.manage', 'users.view'], expires_at: of('token.delegated', sub.id).data.expires_at, can_delegate: false,
      budget_limit_usd: null });
    assert.deepEqual(of('token.suspended', sub.id).data, { status: 'SUSPENDED', reason: 'PARENT_SUSPENDED' });
    assert.deepEqual(of('token.revoked', sub.id).data, { status: 'REVOKED', reason: null });
    assert.equal(of('action.approved', sub.id).data.action_id, pending.action_id);
    assert.deepEqual(of('token.updated', sub.id).data.permissions, ['users.view']);
    const denied = rows.filter((r) => r.type === 'agent_action' && r.token_id === sub.id).map((r) => r.data.decision);
    assert.deepEqual(denied, ['allow', 'pending']);
    for (const type of ['token.created', 'token.delegated', 'token.updated', 'token.suspended', 'token.resumed', 'token.revoked',
      'action.approved', 'agent_action']) assert.ok(rows.some((r) => r.type === type), type);

    // The activity list shows each request's row of the chain.
    const listed = expectStatus(await user('GET', `ai/tokens/${sub.id}/activity/`, alice), 200);
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    assert.equal(listed.results.length, 2);
    for (const r of listed.results) {
      assert.equal(bySeq.get(r.seq)?.hash, r.hash);
      assert.equal(bySeq.get(r.seq)?.prev_hash, r.prev_hash);
      assert.equal(bySeq.get(r.seq)?.type, 'agent_action');
    }
  });

  it('ends the export with a checkpoint signed by a key of the JWKS (Ed25519 of its own under HS256)', async () => {
    const root = await planner();
    expectStatus(await authorize(t, root.token, 'users.view'), 200);
    const { rows, jws } = await exported(t, alice, root.id);
    const jwks = (await t.api({ method: 'GET', path: 'jwks/', appAuth: false })).json() as JSONWebKeySet;
    const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks));
    assert.deepEqual([protectedHeader.alg, protectedHeader.typ], ['EdDSA', 'gatehouse-trail-checkpoint+jwt']);
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    assert.deepEqual(claims, { iss: t.container.config.JWT_ISSUER, root_token_id: root.id, seq: rows.length, hash: rows.at(-1)!.hash,
      iat: Math.floor(t.clock.now().getTime() / 1000) });
    // The same key signs the next export: it is stored, not made per export.
    const again = await exported(t, alice, root.id);
    assert.equal(decodeProtectedHeader(again.jws).kid, protectedHeader.kid);
  });

  it('answers 404 for another person\'s token, and 401 without a user bearer', async () => {
    const root = await planner();
    const mallory = await account(t, { email: `mallory${Math.random().toString(36).slice(2, 8)}@example.com` });
    assert.equal((await user('GET', `ai/tokens/${root.id}/activity/export/`, mallory)).statusCode, 404);
    assert.equal((await agent('GET', `ai/tokens/${root.id}/activity/export/`, root.token)).statusCode, 403);
    assert.equal((await t.api({ method: 'GET', path: `ai/tokens/${root.id}/activity/export/` })).statusCode, 401);
  });

  it('loses no row and repeats no seq under parallel requests of one tree on two instances', async () => {
    const root = await planner();
    const subs = [await child(root), await child(root)];
    const tokens = [root.token, ...subs.map((s) => s.token)];
    // Within the root's requests per minute, which count its children's too.
    const answers = await Promise.all(Array.from({ length: 45 }, (_, i) =>
      authorize(i % 2 ? other : t, tokens[i % 3]!, 'users.view')));
    assert.deepEqual([...new Set(answers.map((a) => a.statusCode))], [200]);
    await other.container.services.agentActivity.flush();
    const { rows } = await exported(t, alice, root.id);
    assertChain(rows, root.id);
    assert.equal(rows.filter((r) => r.type === 'agent_action').length, 45 + 2);
    assert.equal(rows.length, 45 + 3 + 2); // the requests, the three tokens' creations, the two delegate/ calls // the requests, the three tokens, the two delegate/ calls
  });

  it('keeps unrelated trees apart: each root has its own chain from seq 1', async () => {
    const [a, b] = [await planner(), await planner()];
    await Promise.all([authorize(t, a.token, 'users.view'), authorize(other, b.token, 'users.view'), authorize(t, b.token, 'users.view')]);
    await other.container.services.agentActivity.flush();
    const [ea, eb] = [await exported(t, alice, a.id), await exported(t, alice, b.id)];
    assertChain(ea.rows, a.id);
    assertChain(eb.rows, b.id);
    assert.deepEqual([ea.rows.length, eb.rows.length], [2, 3]);
  });

  describe('gatehouse audit verify', () => {
    /** A tree with some history, its root's rows appended. */
    async function history() {
      const root = await planner();
      const sub = await child(root);
      for (let i = 0; i < 3; i++) expectStatus(await authorize(t, i % 2 ? sub.token : root.token, 'users.view'), 200);
      const { rows } = await exported(t, alice, root.id);
      return { root, sub, rows };
    }
    const trail = (root: number) => t.container.db.updateTable('agent_trail').where('root_token_id', '=', root);

    it('--token: exit 0 for an intact chain, whichever token of the tree is named', async () => {
      const { root, sub, rows } = await history();
      const ok = await auditVerify(t, ['--token', String(sub.id)]);
      assert.equal(ok.code, 0, ok.err);
      assert.match(ok.out, new RegExp(`^Trail of root token ${root.id}: intact, ${rows.length} rows, head seq ${rows.length} hash ${rows.at(-1)!.hash}`));
    });

    it('--token: names the first row that does not verify — tampered, reordered, deleted, inserted, cut short', async () => {
      const { root, rows } = await history();
      const verify = () => auditVerify(t, ['--token', String(root.id)]);
      // Tampered: a row's data changed in place.
      await trail(root.id).set({ data: JSON.stringify({ ...rows[2]!.data, decision: 'deny' }) }).where('seq', '=', 3).execute();
      let r = await verify();
      assert.equal(r.code, 1);
      assert.match(r.err, /^seq 3: hash does not match the row/);
      await trail(root.id).set({ data: JSON.stringify(rows[2]!.data) }).where('seq', '=', 3).execute();
      assert.equal((await verify()).code, 0);
      // Reordered: rows 4 and 5 swap places.
      await trail(root.id).set({ seq: 1000 }).where('seq', '=', 4).execute();
      await trail(root.id).set({ seq: 4 }).where('seq', '=', 5).execute();
      await trail(root.id).set({ seq: 5 }).where('seq', '=', 1000).execute();
      r = await verify();
      assert.equal(r.code, 1);
      assert.match(r.err, /^seq 4: /);
      const put = (list: Row[]) => t.container.db.insertInto('agent_trail').values(list.map((x) => ({ ...x, data: JSON.stringify(x.data) })))
        .execute();
      const remove = (seqs: number[]) => t.container.db.deleteFrom('agent_trail').where('root_token_id', '=', root.id).where('seq', 'in', seqs)
        .execute();
      await remove([4, 5]);
      await put(rows.slice(3, 5));
      assert.equal((await verify()).code, 0);
      // Deleted: row 4 gone — the next one names the gap.
      await remove([4]);
      r = await verify();
      assert.equal(r.code, 1);
      assert.match(r.err, /^seq 5: seq 5 where 4 follows/);
      await put([rows[3]!]);
      // Inserted: rows 4 and 5 back, and a forged one in between that claims to follow 4.
      const forged = { ...rows[4]!, data: { forged: true }, prev_hash: rows[3]!.hash };
      await remove([5]);
      await put([{ ...forged, hash: hashOf(forged) }]);
      r = await verify();
      assert.equal(r.code, 1);
      assert.match(r.err, /^seq 6: prev_hash is not the previous row's hash/);
      // Cut short: the last row deleted — the head still names it.
      await remove([5, 6]);
      await put([rows[4]!]);
      r = await verify();
      assert.equal(r.code, 1);
      assert.match(r.err, new RegExp(`^seq ${rows.length}: missing: the chain ends at seq ${rows.length - 1}`));
    });

    it('<file>: exit 0 for an export, the checkpoint checked with --jwks; names the line of a tampered, reordered or cut file', async () => {
      const { root } = await history();
      const { text } = await exported(t, alice, root.id);
      const dir = mkdtempSync(join(tmpdir(), 'gatehouse-trail-'));
      const file = (name: string, body: string) => { const path = join(dir, name); writeFileSync(path, body); return path; };
      const jwks = file('jwks.json', (await t.api({ method: 'GET', path: 'jwks/', appAuth: false })).body);
      const good = file('good.ndjson', text);
      let r = await auditVerify(t, [good, '--jwks', jwks]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /intact, \d+ rows[^\n]*\nCheckpoint signature verified \(kid /);
      r = await auditVerify(t, [good]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /Checkpoint signature not checked/);

      const lines = text.trimEnd().split('\n');
      const tampered = lines.map((l, i) => (i === 2 ? l.replace('"allow"', '"deny"') : l));
      assert.notDeepEqual(tampered, lines);
      r = await auditVerify(t, [file('tampered.ndjson', `${tampered.join('\n')}\n`)]);
      assert.equal(r.code, 1);
      assert.match(r.err, /^line 3, seq 3: hash does not match the row/);
      const swapped = [...lines];
      [swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!];
      r = await auditVerify(t, [file('swapped.ndjson', `${swapped.join('\n')}\n`)]);
      assert.match(r.err, /^line 4, seq 5: seq 5 where 4 follows/);
      r = await auditVerify(t, [file('cut.ndjson', `${[...lines.slice(0, -2), lines.at(-1)].join('\n')}\n`)]);
      assert.equal(r.code, 1);
      assert.match(r.err, /^line \d+, seq \d+: missing: the rows end at seq/);
      r = await auditVerify(t, [file('no-checkpoint.ndjson', `${lines.slice(0, -1).join('\n')}\n`)]);
      assert.match(r.err, /no checkpoint line/);
      // A rewritten history: row 3 changed, every hash after it recomputed, a new checkpoint signed by another key under
      // the issuer's kid. The chain holds together; only the signature, checked against the issuer's JWKS, gives it away.
      const original = JSON.parse(lines.at(-1)!) as { jws: string };
      const rewritten: Row[] = [];
      for (const [i, line] of lines.slice(0, -1).entries()) {
        const row = JSON.parse(line) as Row;
        if (i === 2) row.data = { ...row.data, decision: 'deny' };
        row.prev_hash = i === 0 ? null : rewritten[i - 1]!.hash;
        rewritten.push({ ...row, hash: hashOf(row) });
      }
      const claims = JSON.parse(Buffer.from(original.jws.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      const { privateKey } = await generateKeyPair('EdDSA');
      const forgedJws = await new CompactSign(new TextEncoder().encode(JSON.stringify({ ...claims, hash: rewritten.at(-1)!.hash })))
        .setProtectedHeader(decodeProtectedHeader(original.jws) as { alg: string }).sign(privateKey);
      const forged = file('forged.ndjson', `${[...rewritten.map((x) => JSON.stringify(x)), JSON.stringify({ type: 'checkpoint', jws: forgedJws })]
        .join('\n')}\n`);
      assert.equal((await auditVerify(t, [forged])).code, 0, 'without the JWKS a consistent rewrite cannot be told apart');
      r = await auditVerify(t, [forged, '--jwks', jwks]);
      assert.equal(r.code, 1);
      assert.match(r.err, new RegExp(`^line ${lines.length}, seq ${lines.length - 1}: the checkpoint's signature does not verify`));
    });

    it('refuses a bad invocation with a usage line', async () => {
      assert.equal((await auditVerify(t, [])).code, 1);
      assert.match((await auditVerify(t, ['--token', 'x'])).err, /--token takes an agent token id/);
      assert.match((await auditVerify(t, ['--token', '999999'])).err, /no agent token 999999/);
      assert.match((await auditVerify(t, ['/nonexistent/file.ndjson'])).err, /cannot read \/nonexistent\/file\.ndjson: ENOENT/);
    });
  });
});

describe('the agent trail under RS256 and without requests', () => {
  const t = useTestApp({ now: NOW, env: { ...ENV, SVC_JWT_ALGORITHM: 'RS256' } });

  it('signs the checkpoint with the access-token signing key, and the agent-trail job appends events no request carried', async () => {
    const alice = await account(t, { email: 'alice@example.com' });
    await grantDirect(t, alice.id, ['users.view']);
    const token = await delegate(t, alice, { permissions: ['users.view'] });
    expectStatus(await userApi(t)('POST', `ai/tokens/${token.id}/suspend/`, alice), 200);
    const queued = () => t.container.db.selectFrom('agent_trail_queue').select('type').where('root_token_id', '=', token.id).execute();
    assert.deepEqual((await queued()).map((q) => q.type), ['token.created', 'token.suspended']);
    assert.equal(await t.container.services.agentTrailWriter.drainQueued(), 2);
    assert.deepEqual(await queued(), []);

    const { rows, jws } = await exported(t, alice, token.id);
    assertChain(rows, token.id);
    assert.deepEqual(rows.map((r) => r.type), ['token.created', 'token.suspended']);
    const jwks = (await t.api({ method: 'GET', path: 'jwks/', appAuth: false })).json() as JSONWebKeySet;
    const { protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks));
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(protectedHeader.kid, (await t.container.services.keys.signingKey()).kid);
  });
});
