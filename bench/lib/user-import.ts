import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from './children.js';
import { POOL_SIZE, databaseUrl } from './fixtures.js';
import { recreateDatabases } from './postgres.js';
import type { ImportFigures } from './report.js';
import { ROOT, cleanEnv, tsNode } from './servers.js';
import type { RunContext } from './suites.js';

/**
 * The `user-import` scenario (issue 19: 100,000 users in under 2 minutes on PostgreSQL): a file of IMPORT_ROWS lines
 * (`setup/import-file.ts`) imported by the built `gatehouse users import` into an empty, migrated and seeded database of
 * its own, timed from spawn to exit (process start, reading, checking, writing, committing). Then the same file again:
 * every line found unchanged, the idempotent re-run.
 */

export const IMPORT_DATABASE = 'gatehouse_bench_import';
/** `BENCH_IMPORT_ROWS` changes it (a quick look at a smaller file). */
export const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS) || 100_000;
/** The target for 100,000 rows, in seconds. */
export const IMPORT_TARGET_S = 120;

const BIN = join(ROOT, 'bin/gatehouse.js');
const log = (message: string) => process.stderr.write(`${message}\n`);

/** `created: 99,000` and the like from the command's summary. */
const figure = (out: string, label: string) =>
  Number((new RegExp(`^ {2}${label}: +([\\d,]+)`, 'm').exec(out)?.[1] ?? 'NaN').replace(/,/g, ''));

async function timedImport(env: Record<string, string>, cwd: string, file: string): Promise<{ seconds: number; out: string }> {
  const started = performance.now();
  let out: string;
  try {
    out = await runCommand(process.execPath, [BIN, 'users', 'import', file], { cwd, env: cleanEnv(env), timeoutMs: 600_000 });
  } catch (err) {
    // Exit 1 means some lines were skipped; the bench's file has none, so that is a failure too.
    throw new Error(`users import failed: ${(err as Error).message.slice(0, 2000)}`);
  }
  return { seconds: (performance.now() - started) / 1000, out };
}

export async function runUserImport(ctx: RunContext): Promise<void> {
  if (!ctx.opts.only.has('user-import') || !ctx.opts.databases.includes('postgres')) return;
  const workDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-import-'));
  try {
    const file = join(workDir, 'users.jsonl');
    log(`User import on PostgreSQL: writing ${IMPORT_ROWS.toLocaleString('en-US')} lines…`);
    await runCommand(process.execPath, tsNode('setup/import-file.ts', String(IMPORT_ROWS), file), { cwd: ROOT, env: cleanEnv({}),
      timeoutMs: 300_000 });
    await recreateDatabases([IMPORT_DATABASE]);
    const env = { SVC_DATABASE_URL: databaseUrl(IMPORT_DATABASE), SVC_DEBUG: 'false', SVC_JWT_SECRET_KEY: 'x'.repeat(48),
      SVC_LOG_LEVEL: 'warn', SVC_DATABASE_POOL_SIZE: String(POOL_SIZE) };
    await runCommand(process.execPath, [BIN, 'migrate'], { cwd: workDir, env: cleanEnv(env) });
    await runCommand(process.execPath, [BIN, 'seed'], { cwd: workDir, env: cleanEnv(env) });
    log('  importing…');
    const first = await timedImport(env, workDir, file);
    log(`  ${first.seconds.toFixed(1)} s; importing the same file again…`);
    const again = await timedImport(env, workDir, file);
    const figures: ImportFigures = {
      round: ctx.round, rows: IMPORT_ROWS, file_mib: statSync(file).size / 2 ** 20,
      created: figure(first.out, 'created'), seconds: first.seconds, rows_per_s: IMPORT_ROWS / first.seconds,
      rerun_unchanged: figure(again.out, 'unchanged'), rerun_seconds: again.seconds,
    };
    (ctx.report.imports ??= []).push(figures);
    if (figures.created !== IMPORT_ROWS) ctx.report.failures.push(`user-import: created ${figures.created} of ${IMPORT_ROWS} rows`);
    log(`  created ${figures.created}: ${figures.rows_per_s.toFixed(0)} rows/s; re-run ${again.seconds.toFixed(1)} s`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
