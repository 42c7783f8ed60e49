import { createReadStream } from 'node:fs';
import { access, constants, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Env } from '../../config/load.js';
import { migrateToLatest } from '../../db/migrator.js';
import { seed } from '../../db/seed/seed.js';
import { MAX_LINE_BYTES } from '../../modules/users/import-line.js';
import { ImportInterruptedError, type ImportReporter, type ImportSummary } from '../../modules/users/import.service.js';
import { callerPath, currentIo, servedRuntime, setExitCode } from '../context.js';
import { print, printError, UsageError } from '../output.js';
import { createProgressBar, type ProgressBar } from '../progress.js';
import { USERS_IMPORT_USAGE } from '../usage.js';
import { withRuntime } from './database.js';

export interface UsersImportOptions {
  file?: string;
  format?: string;
  dryRun: boolean;
  update: boolean;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The file's lines (LF or CRLF), read as they are asked for, counting the bytes read (for the progress bar). Pulled
 * from the stream's own iterator: nothing is read ahead while the import waits on the database, so no line is lost or
 * buffered beyond a chunk. A line that grows past the limit is not kept: a stand-in of the limit's length takes its place,
 * which the import reports as too long.
 */
async function* readLines(path: string, progress: { bytes: number }): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let overlong = false;
  const emit = (line: string) => (overlong ? 'x'.repeat(MAX_LINE_BYTES + 1) : line.endsWith('\r') ? line.slice(0, -1) : line);
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    progress.bytes += chunk.length;
    const parts = (pending + decoder.write(chunk)).split('\n');
    pending = parts.pop()!;
    for (const line of parts) {
      yield emit(line);
      overlong = false;
    }
    if (pending.length > MAX_LINE_BYTES) {
      overlong = true;
      pending = '';
    }
  }
  pending += decoder.end();
  if (pending || overlong) yield emit(pending);
}

function summaryLines(file: string, s: ImportSummary, opts: UsersImportOptions, seconds: number): string[] {
  const reasons = Object.entries(s.skippedBy).map(([code, n]) => `${code} ${count(n!)}`).join(', ');
  const differing = s.differing
    ? ` (${count(s.differing)} differ${s.differing === 1 ? 's' : ''} from the file; --update applies the differences)` : '';
  return [
    `${opts.dryRun ? 'Dry run of' : 'Imported'} ${file}: ${count(s.lines)} line(s) in ${seconds.toFixed(1)} s`
      + `${opts.dryRun ? '; nothing was written, the figures are what the import would do' : ''}.`,
    `  created:   ${count(s.created)}`,
    `  updated:   ${count(s.updated)}`,
    `  unchanged: ${count(s.unchanged)}${differing}`,
    `  skipped:   ${count(s.skipped)}${reasons ? ` (${reasons})` : ''}`,
  ];
}

/**
 * `gatehouse users import FILE [--format jsonl] [--dry-run] [--update]`. Skipped lines go to stderr as they are found
 * (`line N: reason`), updated accounts to stdout, then the summary. On a terminal a progress bar runs on stderr. A
 * password hash never appears in any of it. Exit code 1 when a line was skipped (the others are imported).
 */
export async function usersImportCommand(env: Env, opts: UsersImportOptions): Promise<void> {
  if (!opts.file) throw new UsageError(`users import: name the file to import (usage: gatehouse ${USERS_IMPORT_USAGE})`);
  if ((opts.format ?? 'jsonl') !== 'jsonl') throw new UsageError(`users import: unknown --format "${opts.format}" (only jsonl)`);
  // Read from the command's working directory; named as given, or in full when the command runs inside a server for a
  // caller (whose directory the server does not share).
  const path = callerPath(opts.file);
  const file = servedRuntime() ? path : opts.file;
  let size: number;
  try {
    await access(path, constants.R_OK);
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a regular file');
    size = info.size;
  } catch (err) {
    throw new UsageError(`users import: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }

  await withRuntime(env, async ({ database, container }) => {
    await migrateToLatest(database.db);
    await seed(database.db);
    const { clock } = container;
    const started = clock.now().getTime();
    const read = { bytes: 0 };
    let latest: ImportSummary | undefined;
    const io = currentIo();
    const stderr = { write: (chunk: string) => io.err(chunk), get columns() { return io.columns; } };
    const stdout = { write: (chunk: string) => io.out(chunk) };
    const bar: ProgressBar | null = io.stderrIsTTY ? createProgressBar(stderr, () => {
      const s = latest;
      const rate = s ? Math.round(s.lines / Math.max(0.001, (clock.now().getTime() - started) / 1000)) : 0;
      const text = s ? `${count(s.lines)} lines · ${count(s.created)} created · ${count(s.updated)} updated · ${count(s.skipped)} skipped`
        + ` · ${count(rate)} lines/s` : 'starting…';
      return { fraction: size ? Math.min(1, read.bytes / size) : 1, text };
    }) : null;
    const err = (line: string) => (bar ? bar.above(line) : printError(line));
    const out = (line: string) => (bar ? bar.above(line, stdout) : print(line));
    const reporter: ImportReporter = {
      problem: (p) => err(`line ${p.line}: ${p.message}`),
      updated: (line, email, changes) => out(`line ${line}: ${email}: ${opts.dryRun ? 'would update' : 'updated'} ${changes.join(', ')}`),
      progress: (s) => { latest = s; bar?.draw(); },
    };

    let summary: ImportSummary;
    try {
      summary = await container.services.userImport.run(readLines(path, read), opts, reporter);
    } catch (e) {
      bar?.stop();
      if (!(e instanceof ImportInterruptedError)) throw e;
      for (const line of summaryLines(basename(file), e.summary, opts, (clock.now().getTime() - started) / 1000)) print(line);
      printError(`gatehouse: users import ${e.message}; every line up to it is settled, and running the same`
        + ' import again carries on (it is idempotent)');
      setExitCode(1);
      return;
    }
    bar?.stop();
    for (const line of summaryLines(basename(file), summary, opts, (clock.now().getTime() - started) / 1000)) print(line);
    if (summary.skipped) {
      printError(`gatehouse: ${count(summary.skipped)} line(s) skipped (see above); the other lines were ${opts.dryRun
        ? 'checked' : 'imported'}`);
      setExitCode(1);
    }
  });
}
