import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { JSONWebKeySet } from 'jose';
import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { verifyExport } from '../../modules/agents/trail-verify.js';
import { currentIo, setExitCode } from '../context.js';
import { print, printError, UsageError } from '../output.js';
import { createProgressBar, type ProgressBar } from '../progress.js';
import { withRuntime } from './database.js';

const count = (n: number) => n.toLocaleString('en-US');

/** A progress bar on standard error when it is a terminal: rows checked so far, of how many when known. */
function progress(): { bar: ProgressBar | null; update: (rows: number, of?: number) => void } {
  const io = currentIo();
  let state = { rows: 0, of: 0 };
  const stderr = { write: (chunk: string) => io.err(chunk), get columns() { return io.columns; } };
  const bar = io.stderrIsTTY ? createProgressBar(stderr, () => ({ fraction: state.of ? state.rows / state.of : 0,
    text: `${count(state.rows)} rows checked` })) : null;
  return { bar, update: (rows, of = 0) => { state = { rows, of }; } };
}

/**
 * `gatehouse audit verify --token <id>` (docs/agents.md "The trail"): the stored chain of the token's root, every row
 * recomputed and linked, then its last row against the root's head. Exit 0 when intact; 1 naming the first row that is not.
 */
export async function auditVerifyTokenCommand(env: Env, opts: { token: string }): Promise<void> {
  if (!/^[1-9][0-9]*$/.test(opts.token)) throw new UsageError(`audit verify: --token takes an agent token id, not ${opts.token}`);
  await withRuntime(env, async ({ container }) => {
    await migrateToLatest(container.db);
    const { bar, update } = progress();
    const report = await container.services.agentTrail.verifyStored(Number(opts.token), update).finally(() => bar?.stop());
    if (!report) throw new UsageError(`audit verify: no agent token ${opts.token}`);
    if (report.intact) {
      print(`Trail of root token ${report.root}: intact, ${count(report.seq)} rows, head seq ${report.seq} hash ${report.hash ?? '(none)'}`);
      return;
    }
    printError(`seq ${report.seq}: ${report.reason} (trail of root token ${report.root})`);
    setExitCode(1);
  });
}

/** The JWKS to check a checkpoint with: a file, or an http(s) URL (the issuer's /.well-known/jwks.json). */
async function loadJwks(where: string): Promise<JSONWebKeySet> {
  let text: string;
  try {
    if (/^https?:\/\//.test(where)) {
      const res = await fetch(where, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    } else {
      text = await readFile(where, 'utf8');
    }
  } catch (err) {
    throw new UsageError(`audit verify: cannot read the JWKS at ${where}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const jwks = (() => { try { return JSON.parse(text) as JSONWebKeySet; } catch { return null; } })();
  if (!jwks || !Array.isArray(jwks.keys)) throw new UsageError(`audit verify: ${where} is not a JWKS (no "keys" array)`);
  return jwks;
}

/**
 * `gatehouse audit verify <file> [--jwks <file|url>]`: an exported trail, offline. Exit 0 when intact (saying whether
 * the checkpoint's signature was checked); 1 naming the first line that does not verify.
 */
export async function auditVerifyFileCommand(opts: { file: string; jwks?: string }): Promise<void> {
  const jwks = opts.jwks ? await loadJwks(opts.jwks) : undefined;
  const stream = createReadStream(opts.file, 'utf8');
  const opened = new Promise<void>((resolve, reject) => { stream.once('ready', resolve); stream.once('error', reject); });
  await opened.catch((err: NodeJS.ErrnoException) => { throw new UsageError(`audit verify: cannot read ${opts.file}: ${err.code ?? err.message}`); });
  const { bar, update } = progress();
  const report = await verifyExport(createInterface({ input: stream, crlfDelay: Infinity }), { jwks, onRow: (rows) => update(rows) })
    .finally(() => bar?.stop());
  if (!report.intact) {
    printError(`line ${report.line}${report.seq === null ? '' : `, seq ${report.seq}`}: ${report.reason}`);
    setExitCode(1);
    return;
  }
  print(`Trail of root token ${report.root}: intact, ${count(report.rows)} rows, head seq ${report.head.seq} hash ${report.head.hash ?? '(none)'}`);
  print(report.signature === 'verified' ? `Checkpoint signature verified (kid ${report.kid}).`
    : 'Checkpoint signature not checked: pass --jwks <file|url> with the issuer\'s key set to check it.');
}
