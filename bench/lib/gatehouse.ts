import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from './children.js';
import {
  AGENT_PERMISSION, DASHBOARD_DATABASE, DATABASES, HASH_CONCURRENCY, OAUTH_REDIRECT, OAUTH_RESOURCE, POOL_SIZE, SEED_MARK, databaseUrl,
} from './fixtures.js';
import { databaseComment, recreateDatabases } from './postgres.js';
import { ROOT, cleanEnv, startServer, stopServer, tsNode, type ServerFigures, type ServerRun } from './servers.js';
import type { OauthFixture } from './types.js';

/** Starts Gatehouse (built, through its `gatehouse` bin) on PostgreSQL or PGlite, prepared for the scenarios. */

export type DatabaseKind = 'postgres' | 'pglite';
export const API_PREFIX = '/api/v1/auth/';
/** The one-instance server on PostgreSQL, as the report names it. */
export const POSTGRES_SERVER_NAME = 'Gatehouse · PostgreSQL, migrated database';
const BIN = join(ROOT, 'bin/gatehouse.js');

export interface Gatehouse {
  run: ServerRun;
  accessKey: string;
  accessSecret: string;
  /** The OAuth scenarios' client and resource (`seedScenarioData`). */
  oauth?: OauthFixture;
  /** Servers started and stopped on the way (PGlite: the start-up on a fresh data dir). */
  stopped: ServerFigures[];
  /** Removes the scratch directory (and the PGlite data dir in it); call after the server stopped. */
  cleanup(): void;
}

/**
 * The `medium` preset (refresh rotation on), with what would distort a load test switched off, and organizations
 * on for `org-detail` (the other scenarios send no organization header).
 */
export function settings(kind: DatabaseKind, workDir: string, database: string = DATABASES.gatehouse): Record<string, string> {
  return {
    SVC_SHORTCUT_SECURE_MODE: 'medium',
    SVC_DEBUG: 'false',
    SVC_JWT_SECRET_KEY: randomBytes(48).toString('base64url'),
    SVC_RATE_LIMITING_ENABLED: 'false',
    SVC_BREACH_CHECK_ENABLED: 'false',
    SVC_LOG_LEVEL: 'warn',
    SVC_ORGANIZATIONS_ENABLED: 'true',
    // The OAuth scenarios: the authorization server, and grants whose rate breaker no run reaches (it still runs).
    SVC_OAUTH_ENABLED: 'true',
    SVC_OAUTH_GRANT_MAX_REQUESTS_PER_MINUTE: '1000000000',
    SVC_PASSWORD_HASH_CONCURRENCY: String(HASH_CONCURRENCY),
    SVC_DATABASE_POOL_SIZE: String(POOL_SIZE),
    ...(kind === 'postgres' ? { SVC_DATABASE_URL: databaseUrl(database) } : { SVC_DATA_DIR: join(workDir, 'data') }),
    ...extraSettings(),
  };
}

/**
 * `BENCH_GATEHOUSE_SETTINGS="SVC_METRICS_ENABLED=false SVC_AIRS_ENABLED=false"`: settings added to every Gatehouse the
 * bench starts, to measure what one feature costs (bench/README.md "Where the time goes").
 */
function extraSettings(): Record<string, string> {
  const given = process.env.BENCH_GATEHOUSE_SETTINGS?.split(/\s+/).filter(Boolean) ?? [];
  return Object.fromEntries(given.map((pair) => {
    const at = pair.indexOf('=');
    if (!/^SVC_[A-Z0-9_]+$/.test(pair.slice(0, at))) throw new Error(`BENCH_GATEHOUSE_SETTINGS: expected SVC_NAME=value, got "${pair}"`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
}

/** The working directory is a scratch directory, so a developer's `.env` does not change what is measured. */
const cli = (env: Record<string, string>, cwd: string, ...args: string[]) =>
  runCommand(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(env), timeoutMs: 120_000 });

export const serve = (name: string, env: Record<string, string>, cwd: string) =>
  startServer(name, [BIN, 'serve'], { env, cwd, readyPath: '/health/ready' });

/** The last JSON object a command printed. */
const lastJson = <T>(out: string): Partial<T> => JSON.parse(out.trim().split('\n').filter((l) => l.startsWith('{')).at(-1) ?? '{}') as Partial<T>;

async function createApp(env: Record<string, string>, cwd: string, ...extra: string[]) {
  const out = await cli(env, cwd, 'app', 'create', '--name', 'Benchmark', ...extra, '--json');
  const app = lastJson<{ access_key: string; access_secret: string }>(out);
  if (!app.access_key || !app.access_secret) throw new Error(`app create printed no credentials:\n${out}`);
  return { accessKey: app.access_key, accessSecret: app.access_secret };
}

/**
 * The OAuth scenarios' fixture: a confidential application as the client (its redirect an https address nothing
 * serves: the flow reads the redirect) and a registered resource accepting AGENT_PERMISSION.
 */
async function createOauthFixture(env: Record<string, string>, cwd: string): Promise<OauthFixture> {
  const app = await createApp(env, cwd, '--redirect-uri', OAUTH_REDIRECT);
  const out = await cli(env, cwd, 'resource', 'create', '--uri', OAUTH_RESOURCE, '--name', 'Bench API', '--scope', AGENT_PERMISSION, '--json');
  const resource = lastJson<{ client_id: string; client_secret: string }>(out);
  if (!resource.client_id || !resource.client_secret) throw new Error(`resource create printed no credentials:\n${out}`);
  return { clientId: app.accessKey, clientSecret: app.accessSecret, redirectUri: OAUTH_REDIRECT, resource: OAUTH_RESOURCE,
    resourceClientId: resource.client_id, resourceClientSecret: resource.client_secret };
}

const seed = (env: Record<string, string>, script: string, ...args: string[]) =>
  runCommand(process.execPath, tsNode(`setup/${script}`, ...args), { cwd: ROOT, env: cleanEnv(env), timeoutMs: 300_000 });

/** Creates the application and seeds the accounts, the organizations and the agent tokens: what every scenario's database holds. */
async function seedScenarioData(env: Record<string, string>, workDir: string, userCount: number, hash: string) {
  const app = await createApp(env, workDir);
  await seed(env, 'seed-users.ts', String(userCount), hash);
  await seed(env, 'seed-organizations.ts', String(userCount));
  await seed(env, 'seed-agent-tokens.ts', String(userCount));
  return { ...app, oauth: await createOauthFixture(env, workDir) };
}

/** Migrates and seeds an empty PostgreSQL database through the CLI, then seeds the scenarios' data; returns the application's keys. */
export async function preparePostgres(env: Record<string, string>, workDir: string, userCount: number, hash: string) {
  await cli(env, workDir, 'migrate');
  await cli(env, workDir, 'seed');
  return seedScenarioData(env, workDir, userCount, hash);
}

/**
 * PostgreSQL: migrate, seed and create the application through the CLI, seed the accounts, the organizations and
 * the agent tokens, then serve. PGlite: serve on an empty data dir (fresh start-up, migrations included), stop,
 * create the application and seed the same, serve again on the same dir (existing start-up). The database must
 * exist and be empty.
 */
export async function startGatehouse(kind: DatabaseKind, userCount: number, hash: string): Promise<Gatehouse> {
  const workDir = mkdtempSync(join(tmpdir(), `gatehouse-bench-${kind}-`));
  const cleanup = () => rmSync(workDir, { recursive: true, force: true });
  const env = settings(kind, workDir);
  const stopped: ServerFigures[] = [];
  try {
    let app: { accessKey: string; accessSecret: string; oauth?: OauthFixture };
    if (kind === 'postgres') {
      app = await preparePostgres(env, workDir, userCount, hash);
    } else {
      stopped.push(await stopServer(await serve('Gatehouse · PGlite, fresh data dir (migrates)', env, workDir)));
      app = await seedScenarioData(env, workDir, userCount, hash);
    }
    const run = await serve(kind === 'postgres' ? POSTGRES_SERVER_NAME : 'Gatehouse · PGlite, existing data dir', env, workDir);
    return { run, ...app, stopped, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/**
 * Gatehouse on the dashboard scenarios' PostgreSQL database (a million accounts, `setup/seed-dashboard.ts`). Seeding
 * takes minutes, so a database whose comment says a seed completed is kept from run to run (`--reseed` starts over);
 * `serve` applies any newer migration to it. Each run adds its own application.
 */
export async function startDashboardGatehouse(hash: string, reseed: boolean): Promise<Gatehouse> {
  const workDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-dashboard-'));
  const cleanup = () => rmSync(workDir, { recursive: true, force: true });
  const env = settings('postgres', workDir, DASHBOARD_DATABASE);
  try {
    const comment = await databaseComment(DASHBOARD_DATABASE);
    if (reseed || !comment?.startsWith(SEED_MARK)) {
      process.stderr.write(`  seeding ${DASHBOARD_DATABASE} (a few minutes; kept for the next runs)…\n`);
      await recreateDatabases([DASHBOARD_DATABASE]);
      await cli(env, workDir, 'migrate');
      await cli(env, workDir, 'seed');
      await runCommand(process.execPath, tsNode('setup/seed-dashboard.ts', hash),
        { cwd: ROOT, env: cleanEnv(env), timeoutMs: 900_000, echo: true });
    } else {
      process.stderr.write(`  reusing ${DASHBOARD_DATABASE}: ${comment}\n`);
    }
    // What `serve` does every 15 minutes: count the ended hours (on a fresh seed, the whole history) before measuring.
    await cli(env, workDir, 'jobs', 'run', 'dashboard-counts');
    const app = await createApp(env, workDir);
    const run = await serve('Gatehouse · PostgreSQL, dashboard database (1,000,000 accounts)', env, workDir);
    return { run, ...app, stopped: [], cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}
