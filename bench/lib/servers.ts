import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, launch, peakRssMiB, stop, waitReady } from './children.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `node --import tsx <bench file>`: one process (no tsx wrapper), so its pid is the one measured. */
export const tsNode = (file: string, ...args: string[]) => ['--import', 'tsx', `${ROOT}bench/${file}`, ...args];

/** The environment of a child without the caller's service settings, so nothing from the shell leaks in. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('SVC_') && !['DATABASE_URL', 'PORT', 'REDIS_URL', 'NODE_OPTIONS'].includes(k)) env[k] = v;
  }
  return { ...env, NODE_ENV: 'production', ...extra };
}

export interface ServerRun {
  name: string;
  origin: string;
  child: ChildProcess;
  /** Spawn to the readiness URL's first 200. */
  startupMs: number;
  output(): string;
}

export interface ServerFigures {
  name: string;
  startup_ms: number;
  peak_rss_mib: number | null;
}

/** Starts a server on a free 127.0.0.1 port (given as `PORT` and `SVC_PORT`) and waits for `readyPath`. */
export async function startServer(name: string, args: string[], opts: { env: Record<string, string>; cwd?: string; readyPath: string }): Promise<ServerRun> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const { child, output } = launch(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...args], {
    cwd: opts.cwd ?? ROOT,
    // SVC_PUBLIC_URL: the issuer Gatehouse's authorization server names (the OAuth scenarios); the other servers ignore it.
    env: cleanEnv({ ...opts.env, PORT: String(port), SVC_PORT: String(port), SVC_HOST: '127.0.0.1', SVC_PUBLIC_URL: origin }),
  });
  try {
    const startupMs = await waitReady(`${origin}${opts.readyPath}`, child, started);
    return { name, origin, child, startupMs, output };
  } catch (err) {
    await stop(child);
    throw new Error(`${name}: ${(err as Error).message}\n${output().slice(-4000)}`);
  }
}

/** Reads the peak RSS while the process is still alive, then stops it. */
export async function stopServer(run: ServerRun): Promise<ServerFigures> {
  const peak = peakRssMiB(run.child.pid);
  await stop(run.child);
  return { name: run.name, startup_ms: run.startupMs, peak_rss_mib: peak };
}
