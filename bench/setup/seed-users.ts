/**
 * Seeds `bench-user-1..N@example.com` straight into Gatehouse's tables in two statements, all with one argon2id
 * hash made at the production parameters (hashing N passwords one by one would take minutes), and gives each the
 * default roles as `gatehouse user create` would. Opens the database the way the server does, so the PGlite
 * directory lock and layout are the server's.
 *
 * Usage: node --import tsx bench/setup/seed-users.ts <count> <argon2id hash>
 * with SVC_DATABASE_URL (PostgreSQL) or SVC_DATA_DIR (PGlite) set.
 */
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/create-db.js';

const [countArg, hash] = process.argv.slice(2);
const count = Number(countArg);
if (!Number.isInteger(count) || count < 1 || !hash?.startsWith('$argon2id$')) {
  process.stderr.write('usage: seed-users.ts <count> <argon2id hash>\n');
  process.exit(2);
}

const database = await openDatabase({
  DATABASE_URL: process.env.SVC_DATABASE_URL || null,
  DATA_DIR: process.env.SVC_DATA_DIR ?? './data',
  DATABASE_POOL_SIZE: 2,
  DATABASE_PREPARED_STATEMENTS: false,
});
try {
  await database.db.transaction().execute(async (trx) => {
    await sql`
      insert into users (email, password_hash, is_email_verified)
      select 'bench-user-' || g || '@example.com', ${hash}, true from generate_series(1, ${count}::int) as g`.execute(trx);
    await sql`
      insert into user_roles (user_id, role_id)
      select u.id, r.id from users u cross join roles r
      where r.is_default and u.email like 'bench-user-%@example.com'`.execute(trx);
  });
  process.stdout.write(`seeded ${count} users\n`);
} finally {
  await database.close();
}
