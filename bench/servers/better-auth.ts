/**
 * The peer: better-auth with its PostgreSQL support (a `pg` Pool of Gatehouse's size), email and password,
 * argon2id through @node-rs/argon2 at Gatehouse's parameters and hash concurrency, served by Node's `http` with
 * better-auth's own Node handler. Rate limiting is off, as it is for Gatehouse in the benchmark.
 *
 * Usage (DATABASE_URL, PORT and BETTER_AUTH_SECRET in the environment):
 *   node --import tsx bench/servers/better-auth.ts prepare <count> <argon2id hash>   migrate, seed accounts, exit
 *   node --import tsx bench/servers/better-auth.ts serve                             listen on 127.0.0.1:PORT
 */
import { createServer } from 'node:http';
import { hash, verify } from '@node-rs/argon2';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import pg from 'pg';
import { ARGON2, HASH_CONCURRENCY, POOL_SIZE } from '../lib/fixtures.js';
import { createLimiter } from '../lib/limit.js';

const [mode, countArg, seedHash] = process.argv.slice(2);
const origin = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
const hashing = createLimiter(HASH_CONCURRENCY);

const options = {
  baseURL: origin,
  secret: process.env.BETTER_AUTH_SECRET,
  database: pool,
  emailAndPassword: {
    enabled: true,
    password: {
      hash: (password: string) => hashing(() => hash(password, ARGON2)),
      verify: ({ hash: encoded, password }: { hash: string; password: string }) =>
        hashing(() => verify(encoded, password).catch(() => false)),
    },
  },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
};

/** better-auth's own migration API, then the accounts in two statements with one precomputed hash. */
async function prepare(count: number, encoded: string) {
  const { runMigrations } = await getMigrations(options);
  await runMigrations();
  await pool.query(`
    insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
    select 'bench-user-' || g, 'Bench User ' || g, 'bench-user-' || g || '@example.com', true, now(), now()
    from generate_series(1, $1::int) g`, [count]);
  await pool.query(`
    insert into account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
    select 'bench-account-' || g, 'bench-user-' || g, 'credential', 'bench-user-' || g, $2, now(), now()
    from generate_series(1, $1::int) g`, [count, encoded]);
  await pool.end();
}

async function serve() {
  const auth = betterAuth(options);
  const handler = toNodeHandler(auth);
  const server = createServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    void handler(req, res);
  });
  const close = () => server.close(() => { void pool.end().finally(() => process.exit(0)); });
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  server.listen(Number(process.env.PORT), '127.0.0.1');
}

if (mode === 'prepare') await prepare(Number(countArg), seedHash ?? '');
else if (mode === 'serve') await serve();
else {
  process.stderr.write('usage: better-auth.ts prepare <count> <hash> | serve\n');
  process.exit(2);
}
