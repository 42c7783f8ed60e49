import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import type { Runtime } from '../main.js';

/**
 * A command run inside the server on behalf of `gatehouse` in another terminal (docs/cli.md "Beside a running
 * server"): it uses the server's runtime, its output goes back to the caller, its paths are the caller's.
 */
export interface CommandContext {
  runtime: Runtime;
  cwd: string;
  stdin: Buffer | null;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  out(chunk: Buffer): void;
  err(chunk: Buffer): void;
  exitCode: number;
}

export const commandContext = new AsyncLocalStorage<CommandContext>();

/** A path given on the command line, from the caller's working directory. */
export const callerPath = (path: string) => resolve(commandContext.getStore()?.cwd ?? process.cwd(), path);

/** The command's exit status: the caller's when run for one, this process's otherwise. */
export function setExitCode(code: number): void {
  const ctx = commandContext.getStore();
  if (ctx) ctx.exitCode = code;
  else process.exitCode = code;
}

/** Standard input as text: what the caller sent when run for one (all of it, read before the command started). */
export async function readStdin(): Promise<string> {
  const ctx = commandContext.getStore();
  if (ctx) return ctx.stdin?.toString('utf8') ?? '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;

/**
 * Sends what a command run for a caller writes on stdout and stderr to that caller; every other write (the server's
 * own) is untouched. Installed once, by the server that accepts commands.
 */
export function routeStandardStreams(): void {
  const route = (stream: NodeJS.WriteStream, pick: (ctx: CommandContext) => (chunk: Buffer) => void,
    tty: (ctx: CommandContext) => boolean) => {
    const original = stream.write.bind(stream) as Write;
    stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      const ctx = commandContext.getStore();
      if (!ctx) return original(chunk, encoding, callback);
      pick(ctx)(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding as BufferEncoding : 'utf8')
        : Buffer.from(chunk as Uint8Array));
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as typeof stream.write;
    const ownTTY = stream.isTTY;
    Object.defineProperty(stream, 'isTTY', {
      configurable: true,
      get: () => { const ctx = commandContext.getStore(); return ctx ? tty(ctx) : ownTTY; },
    });
  };
  route(process.stdout, (ctx) => ctx.out, (ctx) => ctx.stdoutIsTTY);
  route(process.stderr, (ctx) => ctx.err, (ctx) => ctx.stderrIsTTY);
}
