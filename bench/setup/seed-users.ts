/**
 * Seeds `bench-user-1..N@example.com` straight into Gatehouse's tables in two statements, all with one argon2id
 * hash made at the production parameters (hashing N passwords one by one would take minutes), and gives each the
 * default roles as `gatehouse user create` would.
 *
 * Usage: node --import tsx bench/setup/seed-users.ts <count> <argon2id hash>
 * with SVC_DATABASE_URL (PostgreSQL) or SVC_DATA_DIR (PGlite) set.
 */
import { sql } from 'kysely';
import { withGatehouseDatabase } from './database.js';

const [countArg, hash] = process.argv.slice(2);
const count = Number(countArg);
if (!Number.isInteger(count) || count < 1 || !hash?.startsWith('$argon2id$')) {
  process.stderr.write('usage: seed-users.ts <count> <argon2id hash>\n');
  process.exit(2);
}

await withGatehouseDatabase((db) => db.transaction().execute(async (trx) => {
  await sql`
    insert into users (email, password_hash, is_email_verified)
    select 'bench-user-' || g || '@example.com', ${hash}, true from generate_series(1, ${count}::int) as g`.execute(trx);
  await sql`
    insert into user_roles (user_id, role_id)
    select u.id, r.id from users u cross join roles r
    where r.is_default and u.email like 'bench-user-%@example.com'`.execute(trx);
}));
process.stdout.write(`seeded ${count} users\n`);
