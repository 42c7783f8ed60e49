/**
 * `npm run bench`: measures Gatehouse against the baselines and the peer of DESIGN.md §7 on this machine, prints
 * the tables and writes bench/results/latest.{json,md}. See bench/README.md.
 */
import { loadavg } from 'node:os';
import { hash } from '@node-rs/argon2';
import { buildIfNeeded } from './lib/build.js';
import { installSignalHandlers, stopAll } from './lib/children.js';
import { ARGON2, BENCH_PASSWORD, DATABASES, HASH_CONCURRENCY, POOL_SIZE } from './lib/fixtures.js';
import { clusterTables } from './lib/cluster-report.js';
import { BASELINES, CLUSTER_GROUP, CLUSTER_SCENARIOS, GATEHOUSE_SCENARIOS, PEER_SCENARIOS, USAGE, parseOptions, type Options } from './lib/options.js';
import { ensurePostgres, postgresVersion, recreateDatabases } from './lib/postgres.js';
import { computeRatios, renderText, reportTables, type Report } from './lib/report.js';
import { commitId, machine, writeResults } from './lib/results.js';
import { runBaselines, runCluster, runDashboard, runGatehouse, runPeer, type RunContext } from './lib/suites.js';
import { runTrailVerify } from './lib/trail-verify.js';
import { runUserImport } from './lib/user-import.js';

/** The databases the selected parts use (the dashboard keeps its own seeded one), so a partial run drops no other. */
function databasesFor(opts: Options): string[] {
  const any = (names: readonly string[]) => names.some((n) => opts.only.has(n));
  return [
    ...(opts.databases.includes('postgres') && (any(GATEHOUSE_SCENARIOS) || opts.only.has('startup')) ? [DATABASES.gatehouse] : []),
    ...(opts.databases.includes('postgres') && any(CLUSTER_SCENARIOS) ? [DATABASES.cluster] : []),
    ...(any(PEER_SCENARIOS) ? [DATABASES.betterAuth] : []),
    ...(any(BASELINES) ? [DATABASES.baseline] : []),
  ];
}

async function main(): Promise<number> {
  const loadAtStart = loadavg()[0] ?? 0;
  const opts = parseOptions(process.argv.slice(2));
  if (!opts) {
    process.stdout.write(USAGE);
    return 0;
  }
  installSignalHandlers();
  if (opts.build) await buildIfNeeded();
  await ensurePostgres();
  const report: Report = {
    generated_at: new Date().toISOString(),
    commit: commitId(),
    machine: machine(await postgresVersion(), loadAtStart),
    parameters: {
      rounds: opts.rounds, duration_s: opts.durationS, warmup_s: opts.warmupS, connections: opts.connections, seeded_accounts: opts.users,
      argon2id: `m=${ARGON2.memoryCost} KiB, t=${ARGON2.timeCost}, p=${ARGON2.parallelism}`, hash_concurrency: HASH_CONCURRENCY,
      db_pool: POOL_SIZE, preset: 'medium (rate limits and breach check off)',
    },
    scenarios: [], servers: [], ratios: [], failures: [],
  };
  const ctx: RunContext = { opts, report, runId: Date.now().toString(36), seedHash: await hash(BENCH_PASSWORD, ARGON2), round: 1 };
  const part = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      report.failures.push(`${name}: ${(err as Error).message}`);
      process.stderr.write(`${name} failed: ${(err as Error).message}\n`);
    }
  };
  for (let round = 1; round <= opts.rounds; round++) {
    if (opts.rounds > 1) process.stderr.write(`Round ${round} of ${opts.rounds}\n`);
    ctx.round = round;
    ctx.runId = `${Date.now().toString(36)}r${round}`;
    await recreateDatabases(databasesFor(opts));
    await part('baselines', () => runBaselines(ctx));
    for (const kind of opts.databases) await part(`Gatehouse on ${kind}`, () => runGatehouse(ctx, kind));
    if (opts.databases.includes('postgres')) await part('Gatehouse on several instances', () => runCluster(ctx));
    await part('better-auth', () => runPeer(ctx));
    if (opts.databases.includes('postgres')) await part('dashboard', () => runDashboard(ctx));
    await part('user import', () => runUserImport(ctx));
    await part('agent trail verification', () => runTrailVerify(ctx));
  }

  report.ratios = computeRatios(report.scenarios);
  process.stdout.write(renderText(report, [...reportTables(report), ...clusterTables(report)]));
  // A run of the cluster group alone refreshes only the README's multi-instance section, not the full results.
  const clusterOnly = [...opts.only].every((s) => (CLUSTER_GROUP as readonly string[]).includes(s));
  for (const file of writeResults(report, { write: opts.writeReadme, clusterOnly })) process.stdout.write(`wrote ${file}\n`);
  return report.failures.length ? 1 : 0;
}

main()
  .then((code) => { process.exitCode = code; })
  .catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
