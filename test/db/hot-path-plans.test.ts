import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql, type CompiledQuery } from 'kysely';
import { contextStatement } from '../../src/modules/organizations/organizations.repo.js';
import { activeSessionsOf } from '../../src/modules/sessions/sessions.repo.js';
import { bearerStatement, rotationStatement } from '../../src/modules/sessions/tokens.repo.js';
import { account } from '../factories/accounts.js';
import { useTestApp } from '../helpers/test-app.js';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

/** Every node of a plan, depth first. */
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The hot statements are prepared once per connection and then run on their generic plan, which PostgreSQL may have
 * chosen before a table had any statistics (a fresh installation, or right after a burst of sign-ins): docs/decisions.md
 * "Database access on the hot paths". Each statement is checked on that plan: how it reaches each table.
 */
describe('generic plans of the hot statements', () => {
  const t = useTestApp();

  async function genericPlan(compiled: CompiledQuery): Promise<PlanNode[]> {
    return t.container.db.connection().execute(async (conn) => {
      // The connection is the pool's: only this check's own statement is deallocated (the driver's named statements
      // on it stay), and the setting is put back.
      await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
      let prepared = false;
      try {
        await sql.raw(`prepare plan_check as ${compiled.sql}`).execute(conn);
        prepared = true;
        const args = compiled.parameters.map(literal).join(', ');
        const { rows } = await sql.raw<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> | string }>(
          `explain (format json) execute plan_check(${args})`).execute(conn);
        const raw = rows[0]!['QUERY PLAN'];
        const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
        return nodesOf(plan[0]!.Plan);
      } finally {
        if (prepared) await sql`deallocate plan_check`.execute(conn);
        await sql`reset plan_cache_mode`.execute(conn);
      }
    });
  }

  it('the bearer check reads the session by its primary key, never a range of live sessions', async () => {
    const nodes = await genericPlan(bearerStatement(t.container.db, { userId: 1, jti: 'a-jti', sessionId: 1, now: new Date().toISOString() }));
    const sessions = nodes.filter((n) => n['Relation Name'] === 'sessions');
    assert.deepEqual(sessions.map((n) => [n['Node Type'], n['Index Name']]), [['Index Scan', 'sessions_pkey']],
      JSON.stringify(nodes.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name']])));
  });

  it('the refresh rotation retires the token by its primary key, never a range of live tokens', async () => {
    const now = new Date();
    const statement = rotationStatement(t.container.db, { id: 1, successorHash: 'a-hash', now, expiresAt: now, ip: null });
    const nodes = await genericPlan(statement);
    const tokens = nodes.filter((n) => n['Relation Name'] === 'refresh_tokens' && n['Node Type'] !== 'ModifyTable');
    assert.deepEqual(tokens.map((n) => [n['Node Type'], n['Index Name']]), [['Index Scan', 'refresh_tokens_pkey']],
      JSON.stringify(nodes.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name']])));
  });

  it('a sign-in reads its person\'s active sessions by the person, never every live session', async () => {
    const statement = activeSessionsOf(t.container.db, 1, new Date()).select(['id', 'device_id', 'created_at']).compile();
    const sessions = (await genericPlan(statement)).filter((n) => n['Relation Name'] === 'sessions');
    assert.deepEqual(sessions.map((n) => n['Index Name']), ['sessions_user_created_idx'], JSON.stringify(sessions));
  });

  it('the organization context keeps its generic plan whoever asks: PostgreSQL does not plan it afresh on every request', async () => {
    // Memberships as an installation has them: most people in an organization or two, a few (administrators, support)
    // in a thousand each; one of the many asking.
    const casual = await account(t, { email: 'casual@example.com' });
    const db = t.container.db;
    const member = sql`(select id from org_roles where code = 'member')`;
    await sql`insert into users (email) select 'member-' || g || '@example.com' from generate_series(1, 1000) g`.execute(db);
    await sql`insert into users (email) select 'support-' || g || '@example.com' from generate_series(1, 20) g`.execute(db);
    await sql`insert into organizations (name, slug) select 'Org ' || g, 'org-' || g from generate_series(1, 2000) g`.execute(db);
    await sql`insert into organization_members (organization_id, user_id, org_role_id)
      select o.id, u.id, ${member} from users u join organizations o on o.id % 1000 = u.id % 1000 where u.email like 'member-%'`.execute(db);
    await sql`insert into organization_members (organization_id, user_id, org_role_id)
      select o.id, u.id, ${member} from users u join organizations o on o.id % 2 = u.id % 2 where u.email like 'support-%'`.execute(db);
    await sql`insert into organization_members (organization_id, user_id, org_role_id)
      select o.id, ${casual.id}, ${member} from organizations o where o.slug = 'org-1'`.execute(db);
    await sql`analyze users, organizations, organization_members`.execute(db);
    const compiled = contextStatement(t.container.db, { slug: 'org-1', userId: casual.id });
    const plans = await t.container.db.connection().execute(async (conn) => {
      await sql.raw(`prepare context_check as ${compiled.sql}`).execute(conn);
      try {
        const args = compiled.parameters.map(literal).join(', ');
        // PostgreSQL plans the first five executions for their arguments, then keeps the generic plan unless the
        // custom plans looked cheaper.
        for (let i = 0; i < 8; i++) await sql.raw(`execute context_check(${args})`).execute(conn);
        const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`
          select generic_plans, custom_plans from pg_prepared_statements where name = 'context_check'`.execute(conn);
        return rows[0]!;
      } finally {
        await sql`deallocate context_check`.execute(conn);
      }
    });
    assert.deepEqual([Number(plans.custom_plans), Number(plans.generic_plans)], [5, 3]);
  });
});
