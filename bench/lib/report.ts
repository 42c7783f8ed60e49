import type { ServerFigures } from './servers.js';
import type { CpuSnapshot } from '../load/cpu.js';
import type { LoadResult } from './types.js';

export type System = 'baseline' | 'gatehouse-postgres' | 'gatehouse-pglite' | 'better-auth';

export interface ScenarioFigures {
  system: System;
  scenario: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  expected_status: number | null;
  unexpected: number;
  errors: number;
  status_counts: Record<string, number>;
  /** CPU milliseconds per request: server, PostgreSQL, load process (null where not measured). */
  cpu_ms_per_request?: CpuSnapshot | null;
}

export interface RatioFigures {
  name: string;
  value: number | null;
  /** null: a context figure, not a target. */
  target: number | null;
  pass: boolean | null;
}

export interface Report {
  generated_at: string;
  commit: string;
  machine: Record<string, string | number>;
  parameters: Record<string, string | number>;
  scenarios: ScenarioFigures[];
  servers: ServerFigures[];
  ratios: RatioFigures[];
  failures: string[];
}

export const fromLoad = (system: System, scenario: string, r: LoadResult): ScenarioFigures => ({
  system, scenario, rps: r.rps, p50_ms: r.p50, p99_ms: r.p99, requests: r.requests, expected_status: r.expectedStatus,
  unexpected: r.unexpected, errors: r.errors, status_counts: r.statusCounts, cpu_ms_per_request: r.cpuMsPerRequest,
});

/** DESIGN.md §7: each Gatehouse figure over the baseline or peer figure it is held against. */
const RATIOS: Array<{ name: string; num: [System, string]; den: [System, string]; target: number }> = [
  { name: 'login ÷ raw argon2id verify', num: ['gatehouse-postgres', 'login'], den: ['baseline', 'argon2-verify'], target: 0.85 },
  { name: 'me/ ÷ bare primary-key select', num: ['gatehouse-postgres', 'me'], den: ['baseline', 'bare-select'], target: 0.6 },
  { name: 'refresh ÷ bare insert + update', num: ['gatehouse-postgres', 'refresh'], den: ['baseline', 'bare-insert-update'], target: 0.5 },
  { name: 'sign-in: Gatehouse login ÷ better-auth sign-in', num: ['gatehouse-postgres', 'login'], den: ['better-auth', 'better-auth-sign-in'], target: 1 },
  { name: 'session check: Gatehouse me/ ÷ better-auth get-session', num: ['gatehouse-postgres', 'me'], den: ['better-auth', 'better-auth-get-session'], target: 1 },
];

/** Context, not targets: what a bare HTTP route reaches against the raw figure the login target uses. */
const CONTEXT_RATIOS: Array<{ name: string; num: [System, string]; den: [System, string] }> = [
  { name: 'context: bare argon2id route ÷ raw argon2id verify', num: ['baseline', 'bare-argon2-route'], den: ['baseline', 'argon2-verify'] },
  { name: 'context: Gatehouse login ÷ bare argon2id route', num: ['gatehouse-postgres', 'login'], den: ['baseline', 'bare-argon2-route'] },
];

export function computeRatios(scenarios: ScenarioFigures[]): RatioFigures[] {
  const rps = ([system, scenario]: [System, string]) => scenarios.find((s) => s.system === system && s.scenario === scenario)?.rps;
  const ratio = (num: [System, string], den: [System, string]) => {
    const a = rps(num);
    const b = rps(den);
    return a !== undefined && b !== undefined && b > 0 ? a / b : null;
  };
  return [
    ...RATIOS.map(({ name, num, den, target }) => {
      const value = ratio(num, den);
      return { name, value, target, pass: value === null ? null : value >= target };
    }),
    ...CONTEXT_RATIOS.map(({ name, num, den }) => ({ name, value: ratio(num, den), target: null, pass: null })),
  ];
}

const SYSTEM_LABELS: Record<System, string> = {
  baseline: 'baseline', 'gatehouse-postgres': 'Gatehouse · PostgreSQL', 'gatehouse-pglite': 'Gatehouse · PGlite', 'better-auth': 'better-auth · PostgreSQL',
};

const num = (v: number | null, digits: number) => (v === null || !Number.isFinite(v) ? 'n/a' : v.toFixed(digits));

/** The report's tables as header + rows, shared by the terminal and the Markdown renderings. */
export function reportTables(report: Report): Array<{ title: string; head: string[]; rows: string[][] }> {
  return [
    {
      title: 'Throughput and latency',
      head: ['System', 'Scenario', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'unexpected status', 'errors'],
      rows: report.scenarios.map((s) => [SYSTEM_LABELS[s.system], s.scenario, num(s.rps, 1), num(s.p50_ms, 1), num(s.p99_ms, 1),
        String(s.requests), s.expected_status === null ? '–' : `${s.unexpected} (expects ${s.expected_status})`, String(s.errors)]),
    },
    {
      title: 'CPU per request (ms of CPU time in the measured run ÷ requests)',
      head: ['System', 'Scenario', 'server', 'PostgreSQL', 'load generator', 'total'],
      rows: report.scenarios.filter((s) => s.cpu_ms_per_request).map((s) => {
        const c = s.cpu_ms_per_request!;
        const total = c.server === null || c.database === null ? null : c.server + c.database + c.load;
        return [SYSTEM_LABELS[s.system], s.scenario, num(c.server, 3), num(c.database, 3), num(c.load, 3), num(total, 3)];
      }),
    },
    {
      title: 'Servers',
      head: ['Server', 'start-up ms (spawn → ready 200)', 'peak RSS MiB (VmHWM)'],
      rows: report.servers.map((s) => [s.name, String(s.startup_ms), num(s.peak_rss_mib, 1)]),
    },
    {
      title: 'DESIGN.md §7 targets',
      head: ['Ratio (req/s ÷ req/s)', 'value', 'target', 'result'],
      rows: report.ratios.map((r) => [r.name, num(r.value, 2), r.target === null ? '–' : `≥ ${r.target.toFixed(2)}`,
        r.target === null ? '–' : r.pass === null ? 'n/a' : r.pass ? 'PASS' : 'FAIL']),
    },
  ];
}

export function renderText(report: Report): string {
  const out: string[] = [];
  for (const { title, head, rows } of reportTables(report)) {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const numeric = head.map((_, i) => rows.length > 0 && rows.every((r) => /^([\d.]+|n\/a)$/.test(r[i] ?? '')));
    const line = (cells: string[]) => cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
    out.push(`\n${title}`, line(head), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line));
  }
  if (report.failures.length) out.push('\nFailed parts:', ...report.failures.map((f) => `  - ${f.split('\n')[0]}`));
  return `${out.join('\n')}\n`;
}
