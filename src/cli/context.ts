import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { embeddedDataDir, type Env } from '../config/load.js';
import type { Runtime } from '../main.js';

/**
 * Everything a command gets from the world it runs in. `bin/gatehouse.js` passes this process's (`processIo`); a
 * server running a command for a caller in another terminal passes the caller's (docs/cli.md "Beside a running
 * server"); a test passes its own, so commands run in the test's process. The command path reads none of
 * `process.env`, `process.argv`, `process.cwd()` or the standard streams itself.
 */
export interface CommandIo {
  /** The environment, which `.env` in `cwd` completes (a variable set here wins over the file). */
  env: Env;
  /** Relative paths of the command line and of the settings are taken from here. */
  cwd: string;
  /** Standard input: all of it (read before the command started), a stream to read, or none. */
  stdin: Buffer | NodeJS.ReadStream | null;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  out(chunk: Buffer | string): void;
  err(chunk: Buffer | string): void;
  /** Terminal width, for a progress bar. */
  columns?: number;
  /**
   * A migrated data directory (a PGlite `dumpDataDir` tarball) that a fresh embedded database starts from instead of
   * being created and migrated: the test suite's prepared database. Never set by `gatehouse` itself.
   */
  pgliteTemplate?: Blob;
  /** This process's own standard streams (`processIo`): nothing to route (see `routeStandardStreams`). */
  standard?: boolean;
}

export interface CommandContext extends CommandIo {
  /** Set when the command runs inside a server for a caller: the server's runtime, which outlives the command. */
  runtime?: Runtime;
  exitCode: number;
}

export const commandContext = new AsyncLocalStorage<CommandContext>();

/** This process's world, for the `gatehouse` executable. */
export function processIo(): CommandIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    out: (chunk) => { process.stdout.write(chunk); },
    err: (chunk) => { process.stderr.write(chunk); },
    get columns() { return process.stderr.columns; },
    standard: true,
  };
}

/**
 * The running command's world. Outside any command (never the case on a command's path) this process's, so a line
 * printed there is not lost.
 */
export const currentIo = (): CommandIo => commandContext.getStore() ?? processIo();

/** Commands running in a world of their own (a caller's, a test's) right now. */
let carried = 0;

/**
 * Runs `fn` as a command in `io`; answers its exit status.
 *
 * While a store is in use, Node tracks every promise of the process to carry it (an async hook on each): a server
 * started in a store would pay that on every request. So this process's own world, which `currentIo()` answers
 * outside any command, is not carried at all (`serve` and `start` from a shell run outside the store), and the store is
 * switched off again once no command of another world is running.
 */
export async function runWithIo(io: CommandIo, fn: () => Promise<void>, runtime?: Runtime): Promise<number> {
  if (io.standard && !runtime) {
    await fn();
    return Number(process.exitCode ?? 0);
  }
  const ctx: CommandContext = { ...io, ...(runtime ? { runtime } : {}), exitCode: 0 };
  // Getters (a terminal's width) keep reading the stream.
  Object.defineProperty(ctx, 'columns', { get: () => io.columns });
  carried++;
  try {
    await commandContext.run(ctx, fn);
  } finally {
    if (--carried === 0) commandContext.disable();
  }
  return ctx.exitCode;
}

/** The server's runtime when the command runs inside one for a caller. */
export const servedRuntime = (): Runtime | undefined => commandContext.getStore()?.runtime;

/** A path given on the command line, from the command's working directory. */
export const callerPath = (path: string) => resolve(currentIo().cwd, path);

/** The command's exit status: the caller's when run for one, this process's otherwise. */
export function setExitCode(code: number): void {
  const ctx = commandContext.getStore();
  if (ctx) ctx.exitCode = code;
  else process.exitCode = code;
}

/** Standard input as text: all of it. */
export async function readStdin(): Promise<string> {
  const { stdin } = currentIo();
  if (stdin === null) return '';
  if (Buffer.isBuffer(stdin)) return stdin.toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The command's settings: its environment completed by `.env` in its working directory. A relative data directory
 * (the default `./data` included) is made absolute from that directory, which is where the process that ran the
 * command from a shell would have resolved it.
 */
export function commandEnvironment(io: CommandIo = currentIo()): Env {
  const file = join(io.cwd, '.env');
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  const env: Env = { ...fromFile, ...io.env };
  const dataDir = embeddedDataDir(env);
  if (dataDir !== null && !isAbsolute(dataDir)) env.SVC_DATA_DIR = resolve(io.cwd, dataDir);
  return env;
}

type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;

/**
 * Sends what is written on this process's stdout and stderr while a command runs in another world than this process's
 * (a caller's, through a server) to that command's output: the warnings and notices that code shared with the server
 * writes there. Every other write (the server's own) is untouched. Installed once, by the server that accepts commands.
 */
let routed = false;

export function routeStandardStreams(): void {
  if (routed) return;
  routed = true;
  const route = (stream: NodeJS.WriteStream, pick: (ctx: CommandContext) => (chunk: Buffer) => void,
    tty: (ctx: CommandContext) => boolean) => {
    const original = stream.write.bind(stream) as Write;
    stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      const ctx = commandContext.getStore();
      if (!ctx || ctx.standard) return original(chunk, encoding, callback);
      pick(ctx)(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding as BufferEncoding : 'utf8')
        : Buffer.from(chunk as Uint8Array));
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as typeof stream.write;
    const ownTTY = stream.isTTY;
    Object.defineProperty(stream, 'isTTY', {
      configurable: true,
      get: () => { const ctx = commandContext.getStore(); return ctx && !ctx.standard ? tty(ctx) : ownTTY; },
    });
  };
  route(process.stdout, (ctx) => (c) => ctx.out(c), (ctx) => ctx.stdoutIsTTY);
  route(process.stderr, (ctx) => (c) => ctx.err(c), (ctx) => ctx.stderrIsTTY);
}
