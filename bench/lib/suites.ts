import { randomBytes } from 'node:crypto';
import { peakRssMiB, runCommand } from './children.js';
import { startCluster } from './cluster.js';
import {
  BENCH_PASSWORD, CLUSTER_INSTANCES, DASHBOARD_CONNECTIONS, DASHBOARD_DATABASE, DASHBOARD_VIEWERS, DATABASES, HASH_CONCURRENCY, databaseUrl,
} from './fixtures.js';
import { API_PREFIX, startDashboardGatehouse, startGatehouse, type DatabaseKind } from './gatehouse.js';
import { runLoad } from './load.js';
import { CLUSTER_SCENARIOS, DASHBOARD_SCENARIOS, GATEHOUSE_SCENARIOS, type Options } from './options.js';
import { fromLoad, type Report, type System } from './report.js';
import { ROOT, cleanEnv, startServer, stopServer, tsNode, type ServerRun } from './servers.js';
import type { LoadJob, LoadKind } from './types.js';

/** The parts of a run: baselines, Gatehouse on each database, Gatehouse on several instances, the peer. One server (or cluster) at a time. */

export interface RunContext {
  opts: Options;
  report: Report;
  runId: string;
  /** The argon2id hash of BENCH_PASSWORD every seeded account gets. */
  seedHash: string;
  /** The repetition of the whole run in progress (`--rounds`), from 1. */
  round: number;
}

const log = (message: string) => process.stderr.write(`${message}\n`);

function job(ctx: RunContext, kind: LoadKind, run: ServerRun, extra: Partial<LoadJob> = {}): LoadJob {
  const { durationS, warmupS, connections, users } = ctx.opts;
  return { kind, origin: run.origin, userCount: users, password: BENCH_PASSWORD, durationS, warmupS, connections, runId: ctx.runId,
    serverPid: run.child.pid, ...extra };
}

async function measure(ctx: RunContext, system: System, scenario: string, load: LoadJob): Promise<void> {
  log(`  ${scenario}: ${load.warmupS} s warm-up + ${load.durationS} s…`);
  try {
    const figures = fromLoad(system, scenario, await runLoad(load));
    // The server's peak RSS so far: after a system's first scenarios, what that load alone took (the memory target).
    const peak = load.serverPid ? peakRssMiB(load.serverPid) : null;
    ctx.report.scenarios.push({ ...figures, round: ctx.round, ...(peak !== null ? { server_peak_rss_mib: peak } : {}) });
  } catch (err) {
    ctx.report.failures.push(`${system} ${scenario}: ${(err as Error).message}`);
    log(`  ${scenario} failed: ${(err as Error).message}`);
  }
}

/** Runs `body` against a started server, then records the server's start-up and peak RSS and stops it. */
async function withServer(ctx: RunContext, start: () => Promise<ServerRun>, body: (run: ServerRun) => Promise<void>): Promise<void> {
  const run = await start();
  try {
    await body(run);
  } finally {
    ctx.report.servers.push(await stopServer(run));
  }
}

export async function runBaselines(ctx: RunContext): Promise<void> {
  const { opts } = ctx;
  if (opts.only.has('argon2-verify')) {
    log(`Baseline: raw argon2id verify, ${HASH_CONCURRENCY} at a time, ${opts.warmupS} s warm-up + ${opts.durationS} s…`);
    const out = await runCommand(process.execPath, tsNode('baselines/argon2-verify.ts', String(opts.warmupS), String(opts.durationS),
      String(HASH_CONCURRENCY)), { cwd: ROOT, env: cleanEnv({}), timeoutMs: (opts.warmupS + opts.durationS + 60) * 1000 });
    const r = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { rps: number; p50: number; p99: number; count: number; cpuMsPerVerify: number };
    ctx.report.scenarios.push({ system: 'baseline', scenario: 'argon2-verify', round: ctx.round, rps: r.rps, p50_ms: r.p50, p99_ms: r.p99,
      requests: r.count, expected_status: null, unexpected: 0, errors: 0, status_counts: {},
      // The process's own CPU: the verifications in its threads, nothing else runs there (no HTTP, no database).
      cpu_ms_per_request: { server: r.cpuMsPerVerify, database: 0, load: 0 } });
  }
  const bare = [['bare-argon2-route', 'argon2id verify route'], ['bare-select', 'select'], ['bare-insert-update', 'insert + update']] as const;
  for (const [scenario, label] of bare) {
    if (!opts.only.has(scenario)) continue;
    log(`Baseline: bare Fastify, ${label}`);
    await withServer(ctx, () => startServer(`Bare Fastify · ${label}`, tsNode('servers/bare.ts', String(opts.users)),
      { env: { DATABASE_URL: databaseUrl(DATABASES.baseline) }, readyPath: '/health' }),
    (run) => measure(ctx, 'baseline', scenario, job(ctx, scenario, run, { database: DATABASES.baseline })));
  }
}

export async function runGatehouse(ctx: RunContext, kind: DatabaseKind): Promise<void> {
  const scenarios = GATEHOUSE_SCENARIOS.filter((s) => ctx.opts.only.has(s));
  if (!scenarios.length && !ctx.opts.only.has('startup')) return;
  log(`Gatehouse on ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}: preparing (migrate, seed, ${ctx.opts.users} accounts, organizations)…`);
  const gatehouse = await startGatehouse(kind, ctx.opts.users, ctx.seedHash);
  ctx.report.servers.push(...gatehouse.stopped);
  const system: System = `gatehouse-${kind}`;
  const creds = { apiPrefix: API_PREFIX, accessKey: gatehouse.accessKey, accessSecret: gatehouse.accessSecret, oauth: gatehouse.oauth,
    ...(kind === 'postgres' ? { database: DATABASES.gatehouse } : {}) };
  try {
    await withServer(ctx, async () => gatehouse.run, async (run) => {
      for (const scenario of scenarios) await measure(ctx, system, scenario, job(ctx, `gatehouse-${scenario}`, run, creds));
      await measurePaced(ctx, system, run, creds);
    });
  } finally {
    gatehouse.cleanup();
  }
}

/**
 * Latency at the same load (the agent target of DESIGN.md §7: `ai/authorize/` at most 2 ms above `me/` at p99): both
 * at one fixed rate, half of what `ai/authorize/` reached flat out in this round, so neither answers from a queue.
 */
export const PACED_SCENARIOS = ['me', 'authorize'] as const;
async function measurePaced(ctx: RunContext, system: System, run: ServerRun, creds: Partial<LoadJob>): Promise<void> {
  const flatOut = ctx.report.scenarios.find((s) => s.system === system && s.scenario === 'authorize' && s.round === ctx.round);
  if (!flatOut || !ctx.opts.only.has('me') || flatOut.rps <= 0) return;
  const rate = Math.max(1, Math.floor(flatOut.rps / 2));
  for (const scenario of PACED_SCENARIOS) {
    await measure(ctx, system, `${scenario}@paced`, job(ctx, `gatehouse-${scenario}`, run, { ...creds, rate }));
  }
}

/**
 * `login` and `me/` against CLUSTER_INSTANCES instances on one PostgreSQL database and Redis, the load generator's
 * connections split evenly over them (autocannon addresses each instance directly, no proxy in between). Recorded
 * as the same scenarios of system `gatehouse-cluster`, compared with the one-instance figures of the same round.
 */
export async function runCluster(ctx: RunContext): Promise<void> {
  const scenarios = CLUSTER_SCENARIOS.filter((s) => ctx.opts.only.has(s));
  if (!scenarios.length) return;
  log(`Gatehouse ×${CLUSTER_INSTANCES} on one PostgreSQL database + Redis: preparing (migrate, seed, ${ctx.opts.users} accounts, organizations)…`);
  const cluster = await startCluster(ctx.opts.users, ctx.seedHash, ctx.runId);
  try {
    const split: Partial<LoadJob> = {
      apiPrefix: API_PREFIX, accessKey: cluster.accessKey, accessSecret: cluster.accessSecret,
      origins: cluster.runs.map((r) => r.origin), serverPids: cluster.runs.map((r) => r.child.pid ?? 0), database: DATABASES.cluster,
      // Each instance compiles and warms up on its own, on its share of the requests: a warm-up as many times longer
      // gives each as many warm-up requests as the one instance had. With 1 s of warm-up and 5 s runs, two instances
      // spent 0.19 ms of server CPU per me/ against 0.10 ms for one; with 5 s and 10 s, 0.10 ms against 0.095 ms.
      warmupS: ctx.opts.warmupS * CLUSTER_INSTANCES,
    };
    for (const scenario of scenarios) {
      const base = scenario === 'cluster-login' ? 'login' : 'me';
      await measure(ctx, 'gatehouse-cluster', base, job(ctx, `gatehouse-${base}`, cluster.runs[0]!, split));
    }
  } finally {
    ctx.report.servers.push(...await cluster.stop());
  }
}

export async function runPeer(ctx: RunContext): Promise<void> {
  const scenarios = (['better-auth-sign-in', 'better-auth-get-session'] as const).filter((s) => ctx.opts.only.has(s));
  if (!scenarios.length) return;
  log(`better-auth on PostgreSQL: preparing (its migrations, ${ctx.opts.users} accounts)…`);
  const env = { DATABASE_URL: databaseUrl(DATABASES.betterAuth), BETTER_AUTH_SECRET: randomBytes(32).toString('base64url') };
  await runCommand(process.execPath, tsNode('servers/better-auth.ts', 'prepare', String(ctx.opts.users), ctx.seedHash),
    { cwd: ROOT, env: cleanEnv(env), timeoutMs: 120_000 });
  await withServer(ctx, () => startServer('better-auth · PostgreSQL', tsNode('servers/better-auth.ts', 'serve'), { env, readyPath: '/health' }),
    async (run) => {
      for (const scenario of scenarios) await measure(ctx, 'better-auth', scenario, job(ctx, scenario, run, { database: DATABASES.betterAuth }));
    });
}

/**
 * The dashboard's figures at scale: `GET dashboard/stats/?period=90d` and `GET dashboard/auth/` from DASHBOARD_CONNECTIONS
 * callers at once, each signed in as an account holding `dashboard.view`, on the seeded million-account database.
 */
export async function runDashboard(ctx: RunContext): Promise<void> {
  const scenarios = DASHBOARD_SCENARIOS.filter((s) => ctx.opts.only.has(s));
  if (!scenarios.length) return;
  log('Gatehouse on PostgreSQL, dashboard database: preparing…');
  const gatehouse = await startDashboardGatehouse(ctx.seedHash, ctx.opts.reseed && ctx.round === 1);
  const creds = { apiPrefix: API_PREFIX, accessKey: gatehouse.accessKey, accessSecret: gatehouse.accessSecret, database: DASHBOARD_DATABASE };
  try {
    await withServer(ctx, async () => gatehouse.run, async (run) => {
      for (const scenario of scenarios) {
        await measure(ctx, 'gatehouse-postgres', scenario,
          job(ctx, `gatehouse-${scenario}`, run, { ...creds, connections: DASHBOARD_CONNECTIONS, userCount: DASHBOARD_VIEWERS }));
      }
    });
  } finally {
    gatehouse.cleanup();
  }
}
