/**
 * The login baseline: how many argon2id verifications per second this machine does at Gatehouse's parameters and
 * hash concurrency, with nothing else in the process. Runs `concurrency` verifications at a time for the warm-up,
 * then for the measured duration, and prints one JSON line: { rps, p50, p99, count, durationS, cpuMsPerVerify }.
 * `cpuMsPerVerify` is the process's CPU time (user + system, every thread) in the measured run ÷ verifications: what
 * one verification costs, however busy the machine.
 *
 * Usage: node --import tsx bench/baselines/argon2-verify.ts <warmup s> <duration s> <concurrency>
 */
import { hash, verify } from '@node-rs/argon2';
import { ARGON2, BENCH_PASSWORD } from '../lib/fixtures.js';

const [warmupS, durationS, concurrency] = process.argv.slice(2).map(Number) as [number, number, number];
const encoded = await hash(BENCH_PASSWORD, ARGON2);

/** `concurrency` loops verifying until the deadline; returns each verification's duration in ms. */
async function runFor(seconds: number): Promise<{ times: number[]; elapsedMs: number }> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const times: number[] = [];
  const loop = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      if (!(await verify(encoded, BENCH_PASSWORD))) throw new Error('verify returned false');
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { times, elapsedMs: performance.now() - started };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

if (warmupS > 0) await runFor(warmupS);
const cpuBefore = process.cpuUsage();
const { times, elapsedMs } = await runFor(durationS);
const cpu = process.cpuUsage(cpuBefore);
const sorted = [...times].sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({
  rps: times.length / (elapsedMs / 1000), p50: percentile(sorted, 50), p99: percentile(sorted, 99),
  count: times.length, durationS: elapsedMs / 1000, cpuMsPerVerify: (cpu.user + cpu.system) / 1000 / times.length,
})}\n`);
