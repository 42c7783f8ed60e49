import { fork } from 'node:child_process';
import { stop, track } from './children.js';
import { ROOT, cleanEnv } from './servers.js';
import type { LoadJob, LoadResult, WorkerMessage } from './types.js';

/** Runs one scenario in a fresh load child (bench/load/worker.ts) and returns its figures. */
export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const child = track(fork(`${ROOT}bench/load/worker.ts`, [], {
    cwd: ROOT, execArgv: ['--import', 'tsx'], env: cleanEnv({}), stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  }));
  const limitMs = (job.warmupS + job.durationS + 240) * 1000;
  try {
    const message = await new Promise<WorkerMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`load child for ${job.kind} did not finish within ${limitMs / 1000} s`)), limitMs);
      child.once('message', (m: WorkerMessage) => { clearTimeout(timer); resolve(m); });
      child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`load child for ${job.kind} exited (${code}) without a result`)); });
      child.once('error', reject);
      child.send(job);
    });
    if (!message.ok) throw new Error(`${job.kind}: ${message.error}`);
    return message.result;
  } finally {
    await stop(child, 5_000);
  }
}
