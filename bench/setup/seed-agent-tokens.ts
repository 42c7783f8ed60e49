/**
 * Seeds AGENT_TOKENS agent tokens straight into Gatehouse's tables: token `i` (`agentToken(i)`, only its SHA-256
 * stored) is delegated by `bench-user-i@example.com`, who is given AGENT_PERMISSION directly, and is granted it. The
 * breakers stay on with limits no run reaches (a billion requests a minute and in all), so each request pays for
 * the counting statement without ever being refused; the token lives a day. Each token delegates a child, which
 * delegates a grandchild (`agentGrandchildToken(i)`, depth 3, the same grant and limits): the chain scenario's tokens.
 *
 * Usage: node --import tsx bench/setup/seed-agent-tokens.ts <accounts>
 * with SVC_DATABASE_URL (PostgreSQL) or SVC_DATA_DIR (PGlite) set, after seed-users.ts.
 */
import { sha256Hex } from '../../src/security/random.js';
import { AGENT_PERMISSION, AGENT_TOKENS, agentGrandchildToken, agentToken, userEmail } from '../lib/fixtures.js';
import { withGatehouseDatabase } from './database.js';

const UNREACHABLE = 1_000_000_000;
const LIFETIME_MS = 86_400_000;

const accounts = Number(process.argv[2]);
if (!Number.isInteger(accounts) || accounts < 1) {
  process.stderr.write('usage: seed-agent-tokens.ts <accounts>\n');
  process.exit(2);
}
const count = Math.min(AGENT_TOKENS, accounts);
const emails = Array.from({ length: count }, (_, k) => userEmail(k + 1));

await withGatehouseDatabase((db) => db.transaction().execute(async (trx) => {
  const holders = await trx.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();
  const number = new Map(emails.map((email, k) => [email, k + 1]));
  const permission = await trx.selectFrom('permissions').select('id').where('code', '=', AGENT_PERMISSION).executeTakeFirstOrThrow();
  await trx.insertInto('user_permissions').values(holders.map((u) => ({ user_id: u.id, permission_id: permission.id })))
    .onConflict((oc) => oc.doNothing()).execute();
  const expiresAt = new Date(Date.now() + LIFETIME_MS);
  const row = (userId: number, agentId: string, secret: string) => ({ user_id: userId, agent_id: agentId, token_hash: sha256Hex(secret),
    granted_permissions: [AGENT_PERMISSION], expires_at: expiresAt, max_requests_per_minute: UNREACHABLE,
    max_requests_total: UNREACHABLE, max_failed_requests: 10, can_delegate: true });
  for (const u of holders) {
    const n = number.get(u.email!)!;
    const root = await trx.insertInto('agent_tokens').values(row(u.id, `bench-agent-${n}`, agentToken(n))).returning('id').executeTakeFirstOrThrow();
    const child = await trx.insertInto('agent_tokens').values({ ...row(u.id, `bench-child-${n}`, `unused-child-${n}`), parent_id: root.id,
      depth: 2, ancestor_ids: [root.id] }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('agent_tokens').values({ ...row(u.id, `bench-grandchild-${n}`, agentGrandchildToken(n)), parent_id: child.id,
      depth: 3, ancestor_ids: [root.id, child.id], can_delegate: false }).execute();
  }
}));
process.stdout.write(`seeded ${count} agent tokens\n`);
