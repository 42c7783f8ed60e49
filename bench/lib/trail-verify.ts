import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from './children.js';
import { databaseUrl } from './fixtures.js';
import { recreateDatabases } from './postgres.js';
import type { TrailVerifyFigures } from './report.js';
import { ROOT, cleanEnv, tsNode } from './servers.js';
import type { RunContext } from './suites.js';

/**
 * The `trail-verify` scenario (docs/agents.md "The trail": `gatehouse audit verify` checks 1,000,000 rows in under a
 * minute): a root token with TRAIL_ROWS rows seeded into a migrated database of its own (`setup/seed-trail.ts`, which
 * also writes them as an export file), then the built `gatehouse audit verify --token` and `gatehouse audit verify
 * <file>`, each timed from spawn to exit.
 */
export const TRAIL_DATABASE = 'gatehouse_bench_trail';
/** `BENCH_TRAIL_ROWS` changes it. */
export const TRAIL_ROWS = Number(process.env.BENCH_TRAIL_ROWS) || 1_000_000;
export const TRAIL_TARGET_S = 60;

const BIN = join(ROOT, 'bin/gatehouse.js');
const log = (message: string) => process.stderr.write(`${message}\n`);

async function timed(args: string[], env: Record<string, string>, cwd: string): Promise<{ seconds: number; out: string }> {
  const started = performance.now();
  const out = await runCommand(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(env), timeoutMs: 600_000 });
  return { seconds: (performance.now() - started) / 1000, out };
}

export async function runTrailVerify(ctx: RunContext): Promise<void> {
  if (!ctx.opts.only.has('trail-verify') || !ctx.opts.databases.includes('postgres')) return;
  const workDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-trail-'));
  try {
    await recreateDatabases([TRAIL_DATABASE]);
    const env = { SVC_DATABASE_URL: databaseUrl(TRAIL_DATABASE), SVC_DEBUG: 'false', SVC_JWT_SECRET_KEY: 'x'.repeat(48), SVC_LOG_LEVEL: 'warn' };
    await runCommand(process.execPath, [BIN, 'migrate'], { cwd: workDir, env: cleanEnv(env) });
    const file = join(workDir, 'trail.ndjson');
    log(`Agent trail: seeding ${TRAIL_ROWS.toLocaleString('en-US')} rows…`);
    const seeded = await runCommand(process.execPath, tsNode('setup/seed-trail.ts', String(TRAIL_ROWS), file), { cwd: ROOT,
      env: cleanEnv(env), timeoutMs: 1_800_000 });
    const token = seeded.trim().split('\n').pop()!;
    log('  gatehouse audit verify --token…');
    const stored = await timed(['audit', 'verify', '--token', token], env, workDir);
    log(`  ${stored.seconds.toFixed(1)} s; gatehouse audit verify <file>…`);
    const exported = await timed(['audit', 'verify', file], {}, workDir);
    const figures: TrailVerifyFigures = { round: ctx.round, rows: TRAIL_ROWS, file_mib: statSync(file).size / 2 ** 20,
      database_seconds: stored.seconds, file_seconds: exported.seconds };
    (ctx.report.trail_verify ??= []).push(figures);
    for (const [what, r] of [['--token', stored], ['<file>', exported]] as const) {
      if (!/intact/.test(r.out)) ctx.report.failures.push(`trail-verify: audit verify ${what} did not find the chain intact: ${r.out.slice(0, 300)}`);
    }
    log(`  ${exported.seconds.toFixed(1)} s (${figures.file_mib.toFixed(0)} MiB)`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
