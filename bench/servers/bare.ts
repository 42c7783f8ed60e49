/**
 * The baselines for `me/` and refresh: a bare Fastify server (no logging, no hooks, no schemas) over a `pg` pool
 * of the same size as Gatehouse's, doing only the database work the endpoint cannot avoid.
 *   GET  /select/:id      one primary-key select of a user-shaped row
 *   POST /insert-update   one insert and one update in a transaction, as a refresh-token rotation needs
 *   POST /verify          one argon2id verify at Gatehouse's parameters and hash concurrency, and nothing else:
 *                         what any HTTP login can reach on this machine (context for the login target)
 * Creates and fills its own tables on start-up in the database given by DATABASE_URL; listens on 127.0.0.1:PORT.
 *
 * Usage: node --import tsx bench/servers/bare.ts <rows>
 */
import Fastify from 'fastify';
import pg from 'pg';
import { hash, verify } from '@node-rs/argon2';
import { ARGON2, BENCH_PASSWORD, HASH_CONCURRENCY, POOL_SIZE } from '../lib/fixtures.js';
import { createLimiter } from '../lib/limit.js';

const rows = Number(process.argv[2] ?? 1000);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });

await pool.query(`
  create table if not exists bare_users (
    id bigint generated always as identity primary key, email text not null, first_name text not null default '',
    last_name text not null default '', is_active boolean not null default true, created_at timestamptz not null default now())`);
await pool.query(`
  create table if not exists bare_sessions (
    id bigint generated always as identity primary key, last_used_at timestamptz not null default now())`);
await pool.query(`
  create table if not exists bare_tokens (
    id bigint generated always as identity primary key, session_id bigint not null references bare_sessions (id),
    token_hash text not null unique, created_at timestamptz not null, expires_at timestamptz not null)`);
await pool.query(`insert into bare_users (email) select 'bare-' || g || '@example.com' from generate_series(1, $1::int) g
  where not exists (select 1 from bare_users)`, [rows]);
await pool.query(`insert into bare_sessions (last_used_at) select now() from generate_series(1, $1::int)
  where not exists (select 1 from bare_sessions)`, [rows]);

const app = Fastify({ logger: false });
let tokenSeq = 0;

app.get('/health', async () => ({ status: 'ok' }));

const encoded = await hash(BENCH_PASSWORD, ARGON2);
const hashing = createLimiter(HASH_CONCURRENCY);
app.post<{ Body: { password: string } }>('/verify', async (req, reply) =>
  (await hashing(() => verify(encoded, req.body.password)) ? { ok: true } : reply.code(401).send({ ok: false })));

app.get<{ Params: { id: string } }>('/select/:id', async (req, reply) => {
  const { rows: found } = await pool.query(
    'select id, email, first_name, last_name, is_active, created_at from bare_users where id = $1', [Number(req.params.id)]);
  return found[0] ?? reply.code(404).send({ error: 'not found' });
});

app.post<{ Body: { id: number } }>('/insert-update', async (req) => {
  const sessionId = req.body.id;
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows: inserted } = await client.query(
      `insert into bare_tokens (session_id, token_hash, created_at, expires_at)
       values ($1, $2, now(), now() + interval '7 days') returning id`, [sessionId, `${process.pid}-${++tokenSeq}`]);
    await client.query('update bare_sessions set last_used_at = now() where id = $1', [sessionId]);
    await client.query('commit');
    return { id: inserted[0].id };
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
});

const close = async () => { await app.close(); await pool.end(); process.exit(0); };
process.once('SIGTERM', close);
process.once('SIGINT', close);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
