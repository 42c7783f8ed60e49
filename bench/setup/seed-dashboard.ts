/**
 * Fills a migrated and seeded PostgreSQL database with what the dashboard counts, at the scale of the dashboard
 * scenarios: DASHBOARD_USERS accounts (1,000,000) and DASHBOARD_LOGIN_ATTEMPTS sign-in attempts (5,000,000) spread
 * over the last 180 days, with sessions, refresh tokens, blacklisted access tokens, audit events, deletion requests
 * and organizations in proportion. Each table is one `insert … select … from generate_series` statement; the big
 * tables' secondary indexes are dropped for the load and rebuilt from their own definitions after it, and foreign
 * keys are not checked row by row (the rows are consistent by construction). Then `vacuum analyze`, as autovacuum
 * would leave a serving database: planner statistics, and the visibility map the index-only counts rely on.
 *
 * Accounts are `bench-user-<n>@example.com` (n from 1), all with the given password hash; the first
 * DASHBOARD_VIEWERS hold `dashboard.view` directly and can sign in (active, no 2FA, not banned or locked).
 *
 * Usage: node --import tsx bench/setup/seed-dashboard.ts <argon2id hash>
 * with SVC_DATABASE_URL naming an empty database that `gatehouse migrate` and `gatehouse seed` prepared.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { DASHBOARD_LOGIN_ATTEMPTS, DASHBOARD_USERS, DASHBOARD_VIEWERS, SEED_MARK } from '../lib/fixtures.js';
import { withGatehouseDatabase } from './database.js';

const hash = process.argv[2];
if (!hash?.startsWith('$argon2id$') || !process.env.SVC_DATABASE_URL) {
  process.stderr.write('usage: SVC_DATABASE_URL=postgres://… seed-dashboard.ts <argon2id hash>\n');
  process.exit(2);
}

const USERS = DASHBOARD_USERS;
const ATTEMPTS = DASHBOARD_LOGIN_ATTEMPTS;
const SUCCESS_SHARE = 0.85;
/** One session per successful sign-in of the last 30 days (the cleanup job removes sessions ended longer ago). */
const SESSIONS = Math.round(((ATTEMPTS * SUCCESS_SHARE) / 180) * 30);
/** An audit event per attempt's worth: sign-ins, refreshes, sign-outs and the rest. */
const AUDIT_EVENTS = ATTEMPTS;
const BLACKLISTED = 20_000;
const DELETION_REQUESTS = 3_000;
const ORGANIZATIONS = 200;
const MEMBERS_PER_ORGANIZATION = 100;
const APPLICATIONS = 4;
const BIG_TABLES = ['users', 'login_attempts', 'sessions', 'refresh_tokens', 'audit_events', 'token_blacklist'];

/**
 * The `n`-th of `count` rows spread evenly over the last `days` days, oldest first, a few seconds of jitter apart:
 * rows are inserted in the order they would have been written, as an append-only table holds them.
 */
const spread = (n: RawBuilder<unknown>, count: number, days: number) =>
  sql`now() - ((${count}::int - ${n})::float8 / ${count}::int) * interval '1 day' * ${days}::int - random() * interval '3 seconds'`;

const started = Date.now();
const say = (message: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);

async function step(db: Db, label: string, statement: RawBuilder<unknown>) {
  say(`${label}…`);
  const result = await statement.execute(db);
  const rows = result.numAffectedRows;
  say(`${label}: done${rows !== undefined ? ` (${Number(rows).toLocaleString('en')} rows)` : ''}`);
}

await withGatehouseDatabase((pool) => pool.connection().execute(async (db) => {
  // One connection for the whole load: the session settings below apply to every statement.
  await sql`set synchronous_commit = off`.execute(db);
  await sql`set maintenance_work_mem = '512MB'`.execute(db);
  await sql`set max_parallel_maintenance_workers = 2`.execute(db);
  // Foreign keys are enforced by triggers; `replica` skips them for this session's bulk load.
  await sql`set session_replication_role = replica`.execute(db);
  await sql`select setseed(0.5)`.execute(db);

  const { rows: [state] } = await sql<{ users: number; base: number; now: Date }>`
    select count(*)::int as users, coalesce(max(id), 0)::int as base, now() as now from users`.execute(db);
  if (state!.users > 0) throw new Error(`the database already holds ${state!.users} accounts: seed an empty one`);
  const base = state!.base;

  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
    where i.schemaname = current_schema() and i.tablename in (${sql.join(BIG_TABLES)})
      and not exists (select 1 from pg_constraint c where c.conindid = (quote_ident(i.indexname))::regclass)`.execute(db);
  say(`dropping ${indexes.length} secondary indexes for the load`);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);

  const { rows: apps } = await sql<{ id: number }>`
    insert into applications (name, access_key, secret_hash)
    select 'Dashboard bench ' || g, 'dashboard-bench-app-' || g, md5('dashboard-bench-app-' || g)
    from generate_series(1, ${APPLICATIONS}::int) as g returning id`.execute(db);
  const appIds = sql`array[${sql.join(apps.map((a) => sql`${a.id}::bigint`))}]`;
  const appOf = (n: RawBuilder<unknown>) => sql`(${appIds})[1 + (${n}) % ${APPLICATIONS}::int]`;

  // Accounts: created over the last year; four in five signed in since (recent sign-ins more likely); one in seven
  // with 2FA, one in a hundred inactive, a few banned, locked or deleted. The first DASHBOARD_VIEWERS are plain.
  await step(db, `${USERS.toLocaleString('en')} accounts`, sql`
    insert into users (id, email, phone, password_hash, is_email_verified, is_phone_verified, is_2fa_enabled, is_active,
      is_banned, banned_at, locked_until, deleted_at, created_at, updated_at, last_login) overriding system value
    select ${base}::bigint + g, 'bench-user-' || g || '@example.com',
      case when g % 10 = 3 then '+1555' || lpad(g::text, 7, '0') end, ${hash}, true, g % 10 = 3,
      plain is false and g % 7 = 0,
      not (plain is false and g % 97 = 1),
      plain is false and g % 331 = 2, case when plain is false and g % 331 = 2 then least(created_at + interval '1 day', now()) end,
      case when plain is false and g % 1009 = 5 then now() + interval '20 minutes' end,
      case when plain is false and g % 499 = 7 then least(created_at + interval '2 days', now()) end,
      created_at, created_at,
      case when g % 5 <> 0 then now() - power(random(), 3) * (now() - created_at) end
    from (select g, g <= ${DASHBOARD_VIEWERS}::int as plain, ${spread(sql`g`, USERS, 365)} as created_at
      from generate_series(1, ${USERS}::int) as g) u`);
  await sql`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`.execute(db);
  await step(db, 'default roles and dashboard.view for the viewers', sql`
    with viewers as (select id from users where id <= ${base}::bigint + ${DASHBOARD_VIEWERS}::int),
    defaults as (insert into user_roles (user_id, role_id) select v.id, r.id from viewers v cross join roles r where r.is_default)
    insert into user_permissions (user_id, permission_id)
    select v.id, p.id from viewers v cross join permissions p where p.code = 'dashboard.view'`);

  // Sign-in attempts: 85 % successful; methods and failure reasons in fixed shares; one failure in five from a
  // few dozen addresses (the top offenders), one in thirty for an unknown identifier. Accounts are not equally busy:
  // the lower an account's number, the more often it signs in (the n-th in proportion to 1/√n).
  await step(db, `${ATTEMPTS.toLocaleString('en')} login attempts over 180 days`, sql`
    insert into login_attempts (identifier, method, user_id, ip_address, application_id, success, failure_reason, created_at)
    select
      case when unknown then 'nobody-' || g || '@example.com'
        when m >= 0.62 and m < 0.80 then '+1555' || lpad(u::text, 7, '0') else 'bench-user-' || u || '@example.com' end,
      case when m < 0.72 then 'password' when m < 0.80 then 'otp' when m < 0.90 then 'magic_link' when m < 0.95 then 'passkey'
        when m < 0.97 then 'social_provider_a' when m < 0.985 then 'social_provider_b' when m < 0.995 then 'social_provider_c'
        else 'social_provider_d' end,
      case when unknown then null else ${base}::bigint + u end,
      case when not ok and f < 0.2 then '203.0.113.' || (g % 40) else '10.' || (u % 200) || '.' || (u / 200 % 250) || '.' || (u % 7) end,
      ${appOf(sql`g`)}, ok,
      case when ok then null when unknown then 'invalid_credentials' when f < 0.60 then 'invalid_credentials'
        when f < 0.70 then 'invalid_2fa_code' when f < 0.78 then '2fa_required' when f < 0.88 then 'account_locked'
        when f < 0.94 then 'invalid_code' when f < 0.97 then 'banned' when f < 0.99 then 'inactive' else 'link_already_used' end,
      ${spread(sql`g`, ATTEMPTS, 180)}
    from (select g, random() as m, random() as f, s < ${SUCCESS_SHARE} as ok,
        s >= ${SUCCESS_SHARE} and s < ${SUCCESS_SHARE + 0.005} as unknown, 1 + floor(power(random(), 2) * ${USERS}::int)::int as u
      from (select g, random() as s from generate_series(1, ${ATTEMPTS}::int) as g) x) a`);

  // Sessions of the last 30 days, refreshed for up to a week past the refresh lifetime; one in five revoked. Each has
  // its live refresh token and up to three rotated ones.
  await step(db, `${SESSIONS.toLocaleString('en')} sessions`, sql`
    insert into sessions (user_id, application_id, device_id, device_info, ip_address, created_at, last_used_at, expires_at,
      revoked_at, revoke_reason)
    select ${base}::bigint + u, ${appOf(sql`g`)}, md5(u::text || '-' || (g % 3)), 'v=1|os=linux', '10.' || (u % 200) || '.0.1',
      created_at, created_at, expires_at,
      case when g % 5 = 0 then created_at + random() * (least(expires_at, now()) - created_at) end,
      case when g % 5 = 0 then 'logout' end
    from (select g, u, created_at, created_at + interval '7 days' + random() * interval '7 days' as expires_at
      from (select g, 1 + floor(power(random(), 2) * ${USERS}::int)::int as u, ${spread(sql`g`, SESSIONS, 30)} as created_at
        from generate_series(1, ${SESSIONS}::int) as g) x) s`);
  await step(db, 'live refresh tokens (one per session)', sql`
    insert into refresh_tokens (session_id, user_id, application_id, token_hash, created_at, expires_at, revoked_at)
    select id, user_id, application_id, md5('live-' || id), created_at, expires_at, revoked_at from sessions`);
  await step(db, 'rotated refresh tokens (0 to 3 per session)', sql`
    insert into refresh_tokens (session_id, user_id, application_id, token_hash, created_at, expires_at, rotated_at)
    select s.id, s.user_id, s.application_id, md5('rotated-' || s.id || '-' || k), s.created_at + (k - 1) * interval '1 hour',
      s.created_at + (k - 1) * interval '1 hour' + interval '7 days', s.created_at + k * interval '1 hour'
    from sessions s cross join lateral generate_series(1, (s.id % 4)::int) as k`);
  await step(db, `${BLACKLISTED.toLocaleString('en')} blacklisted access tokens (last two days)`, sql`
    insert into token_blacklist (jti, user_id, reason, blacklisted_at, expires_at)
    select 'dashboard-bench-jti-' || g, ${base}::bigint + 1 + (g * 7919) % ${USERS}::int, 'logout', at, at + interval '15 minutes'
    from (select g, ${spread(sql`g`, BLACKLISTED, 2)} as at from generate_series(1, ${BLACKLISTED}::int) as g) b`);

  // Audit events: one per attempt's worth, mostly sign-ins and refreshes, a few security events.
  await step(db, `${AUDIT_EVENTS.toLocaleString('en')} audit events over 180 days`, sql`
    insert into audit_events (event_type, severity, user_id, application_id, ip_address, details, created_at)
    select t.event_type, t.severity, ${base}::bigint + u, ${appOf(sql`u`)},
      case when t.event_type in ('login_failed', 'account_locked') and u % 5 = 0 then '203.0.113.' || (u % 40) else '10.' || (u % 200) || '.0.1' end,
      '{}', ${spread(sql`g`, AUDIT_EVENTS, 180)}
    from (select g, random() as e, 1 + floor(random() * ${USERS}::int)::int as u
      from generate_series(1, ${AUDIT_EVENTS}::int) as g) a
    cross join lateral (select
      case when e < 0.55 then 'login' when e < 0.64 then 'login_failed' when e < 0.89 then 'token_refresh'
        when e < 0.93 then 'logout' when e < 0.95 then 'register' when e < 0.96 then 'password_change'
        when e < 0.965 then '2fa_enabled' when e < 0.975 then 'account_locked' when e < 0.9755 then 'refresh_token_reuse'
        when e < 0.976 then 'user_banned' when e < 0.977 then 'data_exported' when e < 0.979 then '2fa_disabled'
        else 'agent_action' end as event_type,
      case when e >= 0.975 and e < 0.9755 then 'critical'
        when (e >= 0.965 and e < 0.975) or (e >= 0.9755 and e < 0.976) or (e >= 0.977 and e < 0.979) then 'warning'
        else 'info' end as severity) t`);

  await step(db, `${DELETION_REQUESTS.toLocaleString('en')} account deletion requests`, sql`
    insert into account_deletion_requests (user_id, user_email, status, reason, cancellation_token, requested_at, confirmed_at,
      grace_period_ends_at, completed_at, cancelled_at)
    select ${base}::bigint + 1 + (g * 331) % ${USERS}::int, case when st <> 'completed' then 'bench-user@example.com' end, st,
      'no longer needed', 'dashboard-bench-cancel-' || g, at, case when st in ('confirmed', 'completed') then at + interval '1 hour' end,
      at + interval '30 days', case when st = 'completed' then at + interval '30 days' end,
      case when st = 'cancelled' then at + interval '2 days' end
    from (select g, case when g % 10 = 0 then 'pending' when g % 10 = 1 then 'confirmation_sent' when g % 10 < 5 then 'confirmed'
        when g % 10 < 9 then 'completed' else 'cancelled' end as st,
        now() - case when g % 10 between 2 and 4 then random() * interval '30 days' else random() * interval '120 days' end as at
      from generate_series(${DASHBOARD_VIEWERS + 1}::int, ${DASHBOARD_VIEWERS + DELETION_REQUESTS}::int) as g) d`);

  await step(db, `${ORGANIZATIONS} organizations with ${MEMBERS_PER_ORGANIZATION} members each`, sql`
    with orgs as (
      insert into organizations (name, slug)
      select 'Dashboard bench ' || g, 'dashboard-bench-' || g from generate_series(1, ${ORGANIZATIONS}::int) as g
      returning id)
    insert into organization_members (organization_id, user_id, org_role_id, status)
    select o.id, ${base}::bigint + 1 + (o.id * 7919 + k * 104729) % ${USERS}::int, r.id, case when k % 20 = 0 then 'inactive' else 'active' end
    from orgs o cross join generate_series(0, ${MEMBERS_PER_ORGANIZATION - 1}::int) as k
    join org_roles r on r.code = case when k = 0 then 'owner' when k < 5 then 'admin' else 'member' end`);

  await sql`set session_replication_role = origin`.execute(db);
  for (const index of indexes) {
    say(`rebuilding ${index.name}…`);
    await sql.raw(index.definition).execute(db);
  }
  say('vacuum analyze…');
  await sql`vacuum analyze ${sql.join(BIG_TABLES.map((t) => sql.table(t)))}, account_deletion_requests, organizations, organization_members,
    applications, user_permissions, user_roles`.execute(db);
  // The bench reads this mark to reuse a seeded database instead of seeding it again.
  const { rows: [named] } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  await sql`comment on database ${sql.id(named!.name)} is ${sql.lit(`${SEED_MARK} ${state!.now.toISOString()}`)}`.execute(db);
}));
say('seeded');
