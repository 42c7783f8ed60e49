/**
 * The load generator: a child process of the orchestrator, never the server's. It receives one LoadJob over IPC,
 * prepares the scenario (sign-ins for tokens or cookies), runs a warm-up, then the measured run, and replies with
 * a LoadResult.
 */
import autocannon, { type Result } from 'autocannon';
import type { LoadJob, LoadResult, WorkerMessage } from '../lib/types.js';
import { cpuPerRequest, cpuSnapshot } from './cpu.js';
import { SCENARIOS, type Scenario } from './scenarios.js';

function fire(job: LoadJob, scenario: Scenario, durationS: number): Promise<Result> {
  const origins = job.origins?.length ? job.origins : [job.origin];
  return autocannon({
    // Several URLs: autocannon opens connection i to the (i mod n)-th, so the load is split evenly with no proxy.
    url: origins.map((origin) => `${origin}${scenario.path}`),
    method: scenario.method,
    headers: scenario.headers,
    connections: job.connections,
    duration: durationS,
    timeout: 10,
    requests: scenario.steps ?? [scenario.request],
    ...(job.rate ? { overallRate: job.rate } : {}),
  });
}

function summarize(result: Result, expectedStatus: number, stepStatus?: number): LoadResult {
  const statusCounts: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = Number(count);
  // A sequence's earlier steps answer `stepStatus`: neither what is counted nor unexpected.
  const steps = stepStatus === undefined ? 0 : statusCounts[String(stepStatus)] ?? 0;
  const responses = Object.values(statusCounts).reduce((a, b) => a + b, 0) - steps;
  const expected = statusCounts[String(expectedStatus)] ?? 0;
  return {
    rps: result.duration > 0 ? expected / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: responses + result.errors,
    expectedStatus,
    unexpected: responses - expected,
    errors: result.errors,
    statusCounts,
    durationS: result.duration,
    cpuMsPerRequest: null,
  };
}

async function run(job: LoadJob): Promise<LoadResult> {
  const scenario = await SCENARIOS[job.kind](job);
  if (job.warmupS > 0) await fire(job, scenario, job.warmupS);
  const pids = job.serverPids ?? (job.serverPid ? [job.serverPid] : []);
  const before = cpuSnapshot(pids, job.database);
  const result = summarize(await fire(job, scenario, job.durationS), scenario.expectedStatus, scenario.stepStatus);
  return { ...result, cpuMsPerRequest: cpuPerRequest(before, cpuSnapshot(pids, job.database), result.requests) };
}

const reply = (message: WorkerMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

// Bounded: the orchestrator kills this process if it outlives the job; this is the process's own backstop.
process.once('message', (job: LoadJob) => {
  const backstop = setTimeout(() => process.exit(3), (job.warmupS + job.durationS + 180) * 1000);
  backstop.unref();
  run(job)
    .then((result) => reply({ ok: true, result }))
    .catch((err: unknown) => reply({ ok: false, error: err instanceof Error ? err.message : String(err) }))
    .finally(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
