import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routeStandardStreams } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';
import type { Env } from '../../src/config/load.js';

/**
 * Runs the `gatehouse` command: from source in this process by default (`main` with a world of the test's making), or
 * as a real child process (`subprocess`), for what only a process of its own shows: signals, exit, a second process
 * beside this one — from the build when the test runner made it current, else from source. `serve` and `start` keep
 * running once they listen: they always get a process of their own.
 */
const ENTRY = fileURLToPath(new URL('./cli-entry.ts', import.meta.url));
// Resolved here, so the loader is found whatever the child's working directory.
const TSX = import.meta.resolve('tsx');
/**
 * The test runner (scripts/run-tests.mjs) brings the build up to date and says so: children then run the built
 * `bin/gatehouse.js`, as an installation does, instead of compiling every source file as they load it.
 */
const BUILT = fileURLToPath(new URL('../../bin/gatehouse.js', import.meta.url));
const childCommand = (args: string[]) => (process.env.GATEHOUSE_TEST_COMMANDS_FROM === 'build' ? [BUILT, ...args]
  : ['--import', TSX, ENTRY, ...args]);
/** First start of PGlite in a fresh directory takes seconds on a small machine; leave plenty of room. */
const COMMAND_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 60_000;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Added to the base environment; `undefined` removes a variable (for example `SVC_DEBUG`). */
  env?: Env;
  cwd?: string;
  /** Written to the command's standard input (a password for `--password-stdin`); none (not a terminal) otherwise. */
  input?: string;
  /** A child process of its own, as a shell would run it. */
  subprocess?: boolean;
  /**
   * In this process: a fresh embedded data directory starts from the suite's prepared (migrated, seeded) database,
   * which saves creating and migrating it, for a test whose subject is not what a command does on an empty one.
   */
  template?: boolean;
}

const children = new Set<ChildProcess>();
// Commands run in an empty directory unless a test chooses one, so no `.env` is picked up by accident.
const neutralCwd = mkdtempSync(join(tmpdir(), 'gatehouse-cli-cwd-'));
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(neutralCwd, { recursive: true, force: true });
});

/**
 * Only what a shell would pass on, so no `SVC_*`, `DATABASE_URL` or `PORT` of the test process leaks in.
 * Debug mode and quiet logs unless the test says otherwise; the breach check, if a preset turns it on, gets a
 * refused connection on loopback instead of reaching out.
 */
function childEnv(extra: Env = {}): NodeJS.ProcessEnv {
  const base: Env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, LANG: process.env.LANG };
  const merged: Env = { ...base, SVC_DEBUG: 'true', SVC_LOG_LEVEL: 'warn', SVC_BREACH_CHECK_API_URL: 'http://127.0.0.1:9', ...extra };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
}

function spawnCli(args: string[], opts: CliOptions): ChildProcess {
  const child = spawn(process.execPath, childCommand(args), {
    cwd: opts.cwd ?? neutralCwd,
    env: childEnv(opts.env),
    stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

let template: Blob | null | undefined;
/** The test runner's prepared database (scripts/run-tests.mjs), read once; none with TEST_DATABASE_URL. */
function preparedTemplate(): Blob | undefined {
  if (template === undefined) {
    const path = process.env.GATEHOUSE_TEST_PGLITE_TEMPLATE;
    template = path && existsSync(path) ? new Blob([readFileSync(path)]) : null;
  }
  return template ?? undefined;
}

/** Commands that keep running once they listen: they get a process of their own. */
const SERVING = new Set(['serve', 'start']);

/**
 * Runs `gatehouse <args>` to completion, in this process unless `subprocess` (or `serve`/`start`). A command that does
 * not finish fails the test (a child is killed).
 */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  if (opts.subprocess || SERVING.has(args[0] ?? '')) return runCliProcess(args, opts);
  // What the command writes on this process's stdout and stderr by other means than its output (notices of the
  // console notifier, warnings) is its output too, as it would be in a process of its own.
  routeStandardStreams();
  let stdout = '';
  let stderr = '';
  const text = (chunk: Buffer | string) => (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  const pgliteTemplate = opts.template ? preparedTemplate() : undefined;
  const run = main(args, {
    env: childEnv(opts.env),
    cwd: opts.cwd ?? neutralCwd,
    stdin: opts.input === undefined ? null : Buffer.from(opts.input, 'utf8'),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    out: (chunk) => { stdout += text(chunk); },
    err: (chunk) => { stderr += text(chunk); },
    ...(pgliteTemplate ? { pgliteTemplate } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gatehouse ${args.join(' ')} did not finish\nstdout: ${stdout}\nstderr: ${stderr}`)),
      COMMAND_TIMEOUT_MS);
  });
  return Promise.race([run, timeout])
    .then((code) => ({ code, signal: null, stdout, stderr }))
    .finally(() => clearTimeout(timer));
}

/** Runs `gatehouse <args>` to completion in a child process. A command that does not finish is killed and fails the test. */
export function runCliProcess(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const child = spawnCli(args, opts);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gatehouse ${args.join(' ')} did not finish\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, COMMAND_TIMEOUT_MS);
    child.once('error', (err) => { clearTimeout(timer); reject(err); });
    child.once('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }); });
  });
}

/** Non-empty lines of an output. */
export const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

/** A port nothing listens on right now: bind port 0, read the port, release it. */
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

export interface RunningServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `http://127.0.0.1:<port>/api/v1/auth/` */
  apiUrl: string;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves once `text` appears on stdout (the server's JSON logs and start-up lines). */
  waitForOutput(text: string): Promise<void>;
  /** Settles when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits for the exit (after a signal the test sent itself); SIGKILL after a minute. */
  waitForExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGTERM by default) and waits for the exit; SIGKILL after a minute. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process if it still runs (for `after`/`finally`). */
  kill(): Promise<void>;
}

export interface ServeOptions extends CliOptions {
  /** Listen port; a free one by default. Passed as `SVC_PORT` unless `env` sets `SVC_PORT` itself. */
  port?: number;
}

/** Starts `gatehouse <args>` (`serve` by default) in the background and waits until `/health/live` answers. */
export async function startServer(opts: ServeOptions = {}, args: string[] = ['serve']): Promise<RunningServer> {
  const port = opts.port ?? await freePort();
  const child = spawnCli(args, { ...opts, env: { SVC_HOST: '127.0.0.1', SVC_PORT: String(port), ...opts.env } });
  let stdout = '';
  let stderr = '';
  const watchers: Array<{ text: string; resolve: () => void }> = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (const w of [...watchers]) if (stdout.includes(w.text)) { watchers.splice(watchers.indexOf(w), 1); w.resolve(); }
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  let hasExited = false;
  void exited.then(() => { hasExited = true; });

  // A server that does not exit must not outlive the test: after a minute it is killed, which the exit status shows.
  const waitForExit = async () => {
    const escalate = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    try { return await exited; } finally { clearTimeout(escalate); }
  };
  const origin = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    port,
    origin,
    apiUrl: `${origin}/api/v1/auth/`,
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForOutput: (text) => new Promise<void>((resolve, reject) => {
      if (stdout.includes(text)) return resolve();
      const fail = (why: string) => reject(new Error(`${why} ${JSON.stringify(text)}\nstdout: ${stdout}\nstderr: ${stderr}`));
      const timer = setTimeout(() => fail('the server did not print'), COMMAND_TIMEOUT_MS);
      watchers.push({ text, resolve: () => { clearTimeout(timer); resolve(); } });
      void exited.then(() => { clearTimeout(timer); fail('the server exited before printing'); });
    }),
    waitForExit,
    stop: async (signal = 'SIGTERM') => {
      if (!hasExited) child.kill(signal);
      return waitForExit();
    },
    kill: async () => {
      if (!hasExited) child.kill('SIGKILL');
      await exited;
    },
  };

  const deadline = Date.now() + COMMAND_TIMEOUT_MS;
  for (;;) {
    if (hasExited) {
      throw new Error(`gatehouse ${args.join(' ')} exited before serving\nstdout: ${stdout}\nstderr: ${stderr}`);
    }
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`gatehouse ${args.join(' ')} did not start serving\nstdout: ${stdout}\nstderr: ${stderr}`);
    }
    try {
      const res = await fetch(`${origin}/health/live`);
      if (res.status === 200) return server;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
}
