import { createHash } from 'node:crypto';
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { embeddedDataDir, type Env } from '../config/load.js';
import { lockHolder } from '../db/lock-file.js';
import type { Runtime } from '../main.js';
import { currentIo, routeStandardStreams, runWithIo } from './context.js';

/**
 * The embedded database can be open in one process only. While `gatehouse serve` or `npm start` holds it, a
 * `gatehouse` command started in another terminal runs inside the server instead, over a Unix socket in the data
 * directory that only the directory's owner can open (docs/cli.md "Beside a running server"). One JSON line asks
 * (`argv`, working directory, standard input); JSON lines answer (`out`/`err` base64 chunks, then `exit`).
 */

/** Long socket paths do not fit `sun_path` (108 bytes on Linux): those live in the temporary directory, named by a hash. */
const MAX_SOCKET_PATH = 100;
const MAX_REQUEST_BYTES = 1 << 20;

export function channelPath(dataDir: string): string {
  const dir = resolve(dataDir);
  const inside = join(dir, 'gatehouse.sock');
  if (inside.length <= MAX_SOCKET_PATH) return inside;
  return join(tmpdir(), `gatehouse-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}.sock`);
}

interface Request { argv: string[]; cwd: string; stdin: string | null; stdoutIsTTY: boolean; stderrIsTTY: boolean }

export type CommandRunner = (argv: string[]) => Promise<void>;

/** Serves commands for callers in other terminals until the process exits. Only for a server on an embedded database. */
export async function openCommandChannel(runtime: Runtime, dataDir: string, run: CommandRunner): Promise<Server> {
  const path = channelPath(dataDir);
  // The data directory's lock is ours: a socket left there belongs to a server that is gone.
  if (existsSync(path)) unlinkSync(path);
  routeStandardStreams();
  const server = createServer((socket) => { serveOne(socket, runtime, run); });
  await new Promise<void>((done, fail) => { server.once('error', fail); server.listen(path, () => { server.off('error', fail); done(); }); });
  chmodSync(path, 0o600);
  server.unref();
  process.once('exit', () => { try { unlinkSync(path); } catch { /* gone */ } });
  return server;
}

function serveOne(socket: Socket, runtime: Runtime, run: CommandRunner): void {
  let buffered = Buffer.alloc(0);
  const send = (message: object) => { if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`); };
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const newline = buffered.indexOf(10);
    if (newline < 0) {
      if (buffered.length > MAX_REQUEST_BYTES) socket.destroy();
      return;
    }
    socket.off('data', onData);
    let request: Request;
    try {
      request = JSON.parse(buffered.subarray(0, newline).toString('utf8')) as Request;
      if (!Array.isArray(request.argv) || typeof request.cwd !== 'string') throw new Error('malformed');
    } catch {
      send({ err: Buffer.from('gatehouse: the server could not read the command\n').toString('base64') });
      send({ exit: 2 });
      socket.end();
      return;
    }
    const stdin = request.stdin === null ? null : Buffer.from(request.stdin, 'base64');
    // The server's own settings (the command uses the server's runtime); the caller's directory, input and output.
    void runWithIo({
      env: process.env, cwd: request.cwd, stdin, stdinIsTTY: false,
      stdoutIsTTY: Boolean(request.stdoutIsTTY), stderrIsTTY: Boolean(request.stderrIsTTY),
      out: (c) => send({ out: Buffer.from(c).toString('base64') }),
      err: (c) => send({ err: Buffer.from(c).toString('base64') }),
    }, () => run(request.argv), runtime).then((exit) => {
      send({ exit });
      socket.end();
    });
  };
  socket.on('data', onData);
  socket.on('error', () => undefined);
}

/** The socket of a live server holding the embedded database these settings name, or null when there is none. */
export function serverChannel(env: Env): string | null {
  const dataDir = embeddedDataDir(env);
  if (dataDir === null || lockHolder(resolve(dataDir)) === undefined) return null;
  const path = channelPath(dataDir);
  return existsSync(path) ? path : null;
}

/**
 * Runs `argv` in the server listening on `path` and answers its exit status; null when nobody answers there (a server
 * killed without cleaning up: the command then runs here, where the stale lock is taken over).
 */
export function runInServer(path: string, argv: string[], stdin: Buffer | null): Promise<number | null> {
  const io = currentIo();
  return new Promise<number | null>((done) => {
    const socket = createConnection(path);
    let connected = false;
    let exit: number | null = null;
    let buffered = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      const request: Request = {
        argv, cwd: io.cwd, stdin: stdin?.toString('base64') ?? null, stdoutIsTTY: io.stdoutIsTTY, stderrIsTTY: io.stderrIsTTY,
      };
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffered.slice(0, newline)) as { out?: string; err?: string; exit?: number };
        buffered = buffered.slice(newline + 1);
        if (message.out !== undefined) io.out(Buffer.from(message.out, 'base64'));
        if (message.err !== undefined) io.err(Buffer.from(message.err, 'base64'));
        if (message.exit !== undefined) exit = message.exit;
      }
    });
    socket.on('error', () => { if (!connected) done(null); });
    socket.on('close', () => {
      if (!connected) return;
      if (exit === null) io.err('gatehouse: the server stopped before the command finished\n');
      done(exit ?? 1);
    });
  });
}
