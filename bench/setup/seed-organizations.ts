/**
 * Seeds ORG_TREES trees of ORGS_PER_TREE organizations (10,000) and ORG_MEMBERSHIPS active memberships (100,000)
 * over the seeded accounts, straight into Gatehouse's tables in a few statements.
 *
 * Each tree is a chain from its root (depth 0) down to depth 5, with one more organization beside the chain at
 * depths 1 to 4: slugs `bench-org-<tree>-<depth>` and `bench-org-<tree>-<depth>b`. Memberships are spread as they
 * tend to be: nine accounts in ten belong to REGULAR_ORGS organizations, and the tenth (administrators, support
 * staff, integrations) share the rest — about 955 each with 1000 accounts. Every account's first membership is the
 * root of its home tree (`homeTreeOf`), as `member`, and none of its others is in that tree: in the tree's leaves its
 * role is inherited from the root. Its other memberships step through all other organizations by a fixed stride,
 * so each organization has about ten members; one in ten of them is `owner`, two `admin`, the rest `member`.
 *
 * Usage: node --import tsx bench/setup/seed-organizations.ts <accounts>
 * with SVC_DATABASE_URL (PostgreSQL) or SVC_DATA_DIR (PGlite) set, after seed-users.ts.
 */
import { sql } from 'kysely';
import { ORG_MEMBERSHIPS, ORG_TREES, ORGS_PER_TREE } from '../lib/fixtures.js';
import { withGatehouseDatabase } from './database.js';

const REGULAR_ORGS = 5;
/** Steps through the other trees' organizations; coprime with their count, so an account never meets one twice. */
const STRIDE = 7919;
const CHAIN = 6; // depths 0 to 5; the other organizations of a tree sit beside the chain at depths 1 to 4

const accounts = Number(process.argv[2]);
if (!Number.isInteger(accounts) || accounts < 1) {
  process.stderr.write('usage: seed-organizations.ts <accounts>\n');
  process.exit(2);
}

const others = ORG_TREES * ORGS_PER_TREE - ORGS_PER_TREE;
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
if (gcd(STRIDE, others) !== 1) throw new Error(`the stride ${STRIDE} must be coprime with ${others}`);
const heavy = Math.floor(accounts / 10);
const rest = Math.max(0, ORG_MEMBERSHIPS - (accounts - heavy) * REGULAR_ORGS);
const heavyEach = heavy ? Math.floor(rest / heavy) : 0;
const heavyExtra = heavy ? rest % heavy : 0;

await withGatehouseDatabase(async (db) => {
  await db.transaction().execute(async (trx) => {
    const { rows: [{ base } = { base: 0 }] } = await sql<{ base: number }>`select coalesce(max(id), 0)::int as base from organizations`.execute(trx);
    // Ids are given, so each organization's parent and path follow from its place in its tree.
    await sql`
      insert into organizations (id, name, slug, parent_id, ancestor_ids) overriding system value
      select s.first + s.pos, 'Bench organization ' || s.label, 'bench-org-' || s.label,
        case when s.depth > 0 then s.first + s.depth - 1 end,
        array(select s.first + g from generate_series(0, s.depth - 1) as g)::bigint[]
      from (
        select ${base}::bigint + t * ${ORGS_PER_TREE}::int + 1 as first, p as pos,
          case when p < ${CHAIN}::int then p else p - ${CHAIN - 1}::int end as depth,
          (t + 1) || '-' || case when p < ${CHAIN}::int then p::text else (p - ${CHAIN - 1}::int) || 'b' end as label
        from generate_series(0, ${ORG_TREES - 1}::int) as t cross join generate_series(0, ${ORGS_PER_TREE - 1}::int) as p
      ) s`.execute(trx);
    await sql`select setval(pg_get_serial_sequence('organizations', 'id'), (select max(id) from organizations))`.execute(trx);
    // k = 0: the home tree's root. k ≥ 1: the j-th organization outside the home tree (the home tree's ids skipped).
    await sql`
      insert into organization_members (organization_id, user_id, org_role_id)
      select ${base}::bigint + 1 + case when m.k = 0 then a.tree * ${ORGS_PER_TREE}::int
          else m.j + case when m.j >= a.tree * ${ORGS_PER_TREE}::int then ${ORGS_PER_TREE}::int else 0 end end,
        a.user_id, r.id
      from (
        select u.id as user_id, u.n, (u.n - 1) % ${ORG_TREES}::int as tree,
          least(case when u.n % 10 = 0 then ${heavyEach}::int + case when u.n / 10 <= ${heavyExtra}::int then 1 else 0 end
            else ${REGULAR_ORGS}::int end, ${others + 1}::int) as c
        from (select id, substring(email from '^bench-user-([0-9]+)@')::int as n from users where email like 'bench-user-%@example.com') u
      ) a
      cross join lateral (select k, (a.n::bigint * 97 + k::bigint * ${STRIDE}::int) % ${others}::int as j
        from generate_series(0, a.c - 1) as k) m
      join org_roles r on r.code = case when m.k = 0 then 'member'
        when (a.n + m.k) % 10 = 0 then 'owner' when (a.n + m.k) % 10 < 3 then 'admin' else 'member' end`.execute(trx);
  });
  // Planner statistics and the visibility map now, as autovacuum would leave them on a serving database: the
  // measured run follows at once, and without the map the member counts' index-only scans visit the table.
  await sql`vacuum analyze organizations, organization_members`.execute(db);
});
process.stdout.write(`seeded ${ORG_TREES * ORGS_PER_TREE} organizations and their memberships\n`);
