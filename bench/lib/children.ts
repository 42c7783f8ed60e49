import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Every process the benchmark starts is tracked here and stopped at the end, on failure and on SIGINT/SIGTERM:
 * each by its own pid, SIGTERM first, SIGKILL after a grace period.
 */
const live = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => { if (!exited(child)) child.kill('SIGKILL'); }, graceMs);
  await gone;
  clearTimeout(timer);
}

export const stopAll = () => Promise.all([...live].map((c) => stop(c, 5_000)));

/** Last resort on exit: synchronous, so it runs even when the orchestrator dies abruptly. */
function killRemaining() {
  for (const child of live) if (!exited(child)) child.kill('SIGKILL');
}

export function installSignalHandlers(): void {
  process.once('exit', killRemaining);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the benchmark's processes…\n`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

/** Spawns a tracked process; its output is kept (last 64 kB) for error messages and, if asked, echoed. */
export function launch(command: string, args: string[], opts: SpawnOptions & { echo?: boolean } = {}) {
  const child = track(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts }));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-65_536);
    if (opts.echo) process.stderr.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

/** Runs a command to completion within `timeoutMs` (echoing its output with `echo`); rejects with its output on failure. Resolves with stdout. */
export function runCommand(command: string, args: string[], opts: SpawnOptions & { timeoutMs?: number; echo?: boolean } = {}): Promise<string> {
  const { child, output } = launch(command, args, opts);
  let stdout = '';
  child.stdout?.on('data', (c: Buffer) => { stdout += c.toString(); });
  const timeoutMs = opts.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { void stop(child, 2_000); }, timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${[command, ...args].join(' ')} failed (${signal ?? `exit ${code}`}):\n${output().slice(-4000)}`));
    });
  });
}

/** A port the OS says is free now (the race with another process taking it meanwhile is accepted). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` every 20 ms until it answers 200; returns the milliseconds since `since`. */
export async function waitReady(url: string, child: ChildProcess, since: number, timeoutMs = 120_000): Promise<number> {
  const deadline = since + timeoutMs;
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return Date.now() - since;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

/** Peak resident set size (VmHWM) of a live process, in MiB. */
export function peakRssMiB(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
