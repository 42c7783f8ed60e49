// A second reporter for the test runner (scripts/run-tests.mjs adds it): after the run, the files that took longest,
// each with the sum of its top-level tests' durations, so the suite's time budget can be watched from CI's output.
import { relative } from 'node:path';

const SHOWN = 15;

export default async function* durations(source) {
  const perFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const file = relative(process.cwd(), event.data.file);
      perFile.set(file, (perFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...perFile].filter(([file]) => !file.includes('gatehouse-test-shards')).sort((a, b) => b[1] - a[1]);
  if (rows.length === 0) return;
  yield `\nSlowest test files (sum of their top-level tests):\n`;
  for (const [file, ms] of rows.slice(0, SHOWN)) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
}
