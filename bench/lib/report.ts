import type { ServerFigures } from './servers.js';
import type { CpuSnapshot } from '../load/cpu.js';
import { CLUSTER_INSTANCES } from './fixtures.js';
import type { LoadResult } from './types.js';

/** `gatehouse-cluster`: CLUSTER_INSTANCES instances on one PostgreSQL database and Redis, the load split over them. */
export type System = 'baseline' | 'gatehouse-postgres' | 'gatehouse-pglite' | 'gatehouse-cluster' | 'better-auth';

export interface ScenarioFigures {
  system: System;
  scenario: string;
  /** Which repetition of the whole run (`--rounds`) measured it, from 1. */
  round?: number;
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
  /** The server's peak RSS (VmHWM) read right after this scenario: what it and the scenarios before it took. */
  server_peak_rss_mib?: number;
}

export interface RatioFigures {
  name: string;
  value: number | null;
  /** null: a context figure, not a target. */
  target: number | null;
  /** The target is a ceiling (a CPU cost), not a floor (a rate). */
  at_most?: true;
  pass: boolean | null;
  /** The ratio of each round, when there were several; `value` is their median. */
  rounds?: Array<number | null>;
}

/** One run of the `user-import` scenario (`lib/user-import.ts`): a whole file through `gatehouse users import`. */
export interface ImportFigures {
  round: number;
  rows: number;
  file_mib: number;
  created: number;
  /** Spawn to exit of the command. */
  seconds: number;
  rows_per_s: number;
  /** The same file again: every line unchanged. */
  rerun_unchanged: number;
  rerun_seconds: number;
}

/** One run of the `trail-verify` scenario (`lib/trail-verify.ts`): `gatehouse audit verify` over a long chain. */
export interface TrailVerifyFigures {
  round: number;
  rows: number;
  file_mib: number;
  /** `audit verify --token`, spawn to exit. */
  database_seconds: number;
  /** `audit verify <file>`, spawn to exit. */
  file_seconds: number;
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
  imports?: ImportFigures[];
  trail_verify?: TrailVerifyFigures[];
}

export const fromLoad = (system: System, scenario: string, r: LoadResult): ScenarioFigures => ({
  system, scenario, rps: r.rps, p50_ms: r.p50, p99_ms: r.p99, requests: r.requests, expected_status: r.expectedStatus,
  unexpected: r.unexpected, errors: r.errors, status_counts: r.statusCounts, cpu_ms_per_request: r.cpuMsPerRequest,
});

/**
 * DESIGN.md §7: each Gatehouse figure over the baseline or peer figure it is held against; an organization's detail
 * and the agent requests (`ai/authorize/`, `roles/` with `AgentBearer`) are held against `me/`, the cheapest
 * authenticated request, on the same server.
 */
const RATIOS: Array<{ name: string; num: [System, string]; den: [System, string]; target: number }> = [
  { name: 'login ÷ raw argon2id verify', num: ['gatehouse-postgres', 'login'], den: ['baseline', 'argon2-verify'], target: 0.85 },
  { name: 'me/ ÷ bare primary-key select', num: ['gatehouse-postgres', 'me'], den: ['baseline', 'bare-select'], target: 0.7 },
  { name: 'refresh ÷ bare insert + update', num: ['gatehouse-postgres', 'refresh'], den: ['baseline', 'bare-insert-update'], target: 0.6 },
  { name: 'sign-in: Gatehouse login ÷ better-auth sign-in', num: ['gatehouse-postgres', 'login'], den: ['better-auth', 'better-auth-sign-in'], target: 1.1 },
  { name: 'session check: Gatehouse me/ ÷ better-auth get-session', num: ['gatehouse-postgres', 'me'], den: ['better-auth', 'better-auth-get-session'], target: 4 },
  { name: 'org detail (depth 5, inherited role) ÷ me/', num: ['gatehouse-postgres', 'org-detail'], den: ['gatehouse-postgres', 'me'], target: 0.5 },
  { name: 'agent: ai/authorize/ ÷ me/', num: ['gatehouse-postgres', 'authorize'], den: ['gatehouse-postgres', 'me'], target: 0.6 },
  // docs/agents.md "Delegation": a depth-3 child's call checks and counts the whole chain, within 15 % of a root's.
  { name: 'agent: ai/authorize/ by a depth-3 child ÷ by a root token', num: ['gatehouse-postgres', 'authorize-child'],
    den: ['gatehouse-postgres', 'authorize'], target: 0.85 },
  // docs/oauth.md: a resource introspecting a JWT, and ai/authorize/ with a grant's token against the same with an agent token.
  { name: 'OAuth: introspection ÷ me/', num: ['gatehouse-postgres', 'oauth-introspect'], den: ['gatehouse-postgres', 'me'], target: 0.6 },
  { name: 'OAuth: ai/authorize/ with an OAuth token ÷ with AgentBearer', num: ['gatehouse-postgres', 'oauth-authorize'],
    den: ['gatehouse-postgres', 'authorize'], target: 0.9 },
];

/**
 * Latency ceilings, in milliseconds rather than a ratio: an agent request's p99 at most `slackMs` above `me/`'s at the
 * same load on the same server — both sent at one fixed rate (`@paced`: half of what `ai/authorize/` reached flat
 * out), since flat out each answers from the queue its own rate leaves. The value is the difference of the two p99s.
 */
const LATENCY_TARGETS: Array<{ name: string; num: [System, string]; den: [System, string]; slackMs: number }> = [
  { name: 'agent: ai/authorize/ p99 − me/ p99 at the same rate (ms)', num: ['gatehouse-postgres', 'authorize@paced'],
    den: ['gatehouse-postgres', 'me@paced'], slackMs: 2 },
];

/** Latency ceilings on one scenario's median: the dashboard's figures read by four callers at once on a million accounts. */
const P50_CEILINGS: Array<{ name: string; scenario: [System, string]; ceilingMs: number }> = [
  { name: 'dashboard: GET dashboard/stats/?period=90d p50, 4 callers, 1M accounts (ms)', scenario: ['gatehouse-postgres', 'dashboard-stats'],
    ceilingMs: 300 },
  { name: 'dashboard: GET dashboard/auth/ p50, 4 callers, 1M accounts (ms)', scenario: ['gatehouse-postgres', 'dashboard-auth'], ceilingMs: 300 },
];

/**
 * Targets on CPU time rather than rates: what a request costs the server's process whatever else shares the cores
 * (PostgreSQL, the load generator), so the figure holds wherever PostgreSQL runs.
 */
const CPU_RATIOS: Array<{ name: string; num: [System, string]; den: [System, string]; target: number }> = [
  { name: 'server CPU per login ÷ CPU per raw argon2id verify', num: ['gatehouse-postgres', 'login'], den: ['baseline', 'argon2-verify'], target: 1.1 },
];

/**
 * Memory under the same load: each server's peak RSS read right after its sign-in and session-check scenarios, which
 * each runs first (Gatehouse `login` then `me`, better-auth sign-in then get-session), before any other.
 */
const RSS_RATIOS: Array<{ name: string; num: [System, string]; den: [System, string]; target: number }> = [
  { name: 'memory: peak RSS after login and me/ ÷ better-auth\'s after sign-in and get-session', num: ['gatehouse-postgres', 'me'],
    den: ['better-auth', 'better-auth-get-session'], target: 1 },
];

/** The same scenario on several instances sharing one PostgreSQL (and Redis) against one instance, in the same round. */
export const CLUSTER_MEASURED = ['login', 'me'] as const;
export const clusterRatioName = (scenario: (typeof CLUSTER_MEASURED)[number]) =>
  `context: ${scenario === 'me' ? 'me/' : scenario} on ${CLUSTER_INSTANCES} instances ÷ one instance`;

/** Context, not targets: what a bare HTTP route reaches against the raw figure the login target uses. */
const CONTEXT_RATIOS: Array<{ name: string; num: [System, string]; den: [System, string]; cpu?: true }> = [
  { name: 'context: bare argon2id route ÷ raw argon2id verify', num: ['baseline', 'bare-argon2-route'], den: ['baseline', 'argon2-verify'] },
  { name: 'context: server CPU per bare argon2id route request ÷ CPU per raw verify', num: ['baseline', 'bare-argon2-route'],
    den: ['baseline', 'argon2-verify'], cpu: true },
  { name: 'context: Gatehouse login ÷ bare argon2id route', num: ['gatehouse-postgres', 'login'], den: ['baseline', 'bare-argon2-route'] },
  { name: 'context: roles/ with AgentBearer ÷ me/', num: ['gatehouse-postgres', 'agent-roles'], den: ['gatehouse-postgres', 'me'] },
  { name: 'context: OAuth code flow (authorization + exchange) ÷ me/', num: ['gatehouse-postgres', 'oauth-code'], den: ['gatehouse-postgres', 'me'] },
  ...CLUSTER_MEASURED.map((scenario) => ({ name: clusterRatioName(scenario),
    num: ['gatehouse-cluster', scenario] as [System, string], den: ['gatehouse-postgres', scenario] as [System, string] })),
];

export const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const roundsOf = (scenarios: ScenarioFigures[]) => [...new Set(scenarios.map((s) => s.round ?? 1))].sort((a, b) => a - b);

/**
 * Each ratio from the figures of one round, then the median over the rounds: a numerator and its denominator
 * are measured minutes apart within a round, and the machine's speed drifts more between rounds than within one.
 */
export function computeRatios(scenarios: ScenarioFigures[]): RatioFigures[] {
  const rounds = roundsOf(scenarios);
  type Figure = (s: ScenarioFigures) => number | null | undefined;
  const rate: Figure = (s) => s.rps;
  const serverCpu: Figure = (s) => s.cpu_ms_per_request?.server;
  const p99: Figure = (s) => s.p99_ms;
  const p50: Figure = (s) => s.p50_ms;
  const peakRss: Figure = (s) => s.server_peak_rss_mib;
  type Combine = (a: number, b: number) => number | null;
  const divide: Combine = (a, b) => (b > 0 ? a / b : null);
  const ratioIn = (round: number, num: [System, string], den: [System, string], figure: Figure, combine: Combine) => {
    const find = ([system, scenario]: [System, string]) => {
      const found = scenarios.find((s) => s.system === system && s.scenario === scenario && (s.round ?? 1) === round);
      return found ? figure(found) ?? undefined : undefined;
    };
    const a = find(num);
    const b = find(den);
    return a !== undefined && b !== undefined ? combine(a, b) : null;
  };
  const ratio = (num: [System, string], den: [System, string], figure = rate, combine = divide) => {
    const perRound = rounds.map((r) => ratioIn(r, num, den, figure, combine));
    const value = median(perRound.filter((v): v is number => v !== null));
    return { value, ...(rounds.length > 1 ? { rounds: perRound } : {}) };
  };
  return [
    ...RATIOS.map(({ name, num, den, target }) => {
      const { value, ...rest } = ratio(num, den);
      return { name, value, target, pass: value === null ? null : value >= target, ...rest };
    }),
    ...CPU_RATIOS.map(({ name, num, den, target }) => {
      const { value, ...rest } = ratio(num, den, serverCpu);
      return { name, value, target, at_most: true as const, pass: value === null ? null : value <= target, ...rest };
    }),
    ...RSS_RATIOS.map(({ name, num, den, target }) => {
      const { value, ...rest } = ratio(num, den, peakRss);
      return { name, value, target, at_most: true as const, pass: value === null ? null : value <= target, ...rest };
    }),
    ...LATENCY_TARGETS.map(({ name, num, den, slackMs }) => {
      const { value, ...rest } = ratio(num, den, p99, (a, b) => a - b);
      return { name, value, target: slackMs, at_most: true as const, pass: value === null ? null : value <= slackMs, ...rest };
    }),
    ...P50_CEILINGS.map(({ name, scenario, ceilingMs }) => {
      const { value, ...rest } = ratio(scenario, scenario, p50, (a) => a);
      return { name, value, target: ceilingMs, at_most: true as const, pass: value === null ? null : value <= ceilingMs, ...rest };
    }),
    ...CONTEXT_RATIOS.map(({ name, num, den, cpu }) => ({ name, ...ratio(num, den, cpu ? serverCpu : rate), target: null, pass: null })),
  ];
}

/** One row per system and scenario over all rounds: medians of the rates, latencies and CPU, sums of the counts. */
export function aggregateScenarios(scenarios: ScenarioFigures[]): Array<ScenarioFigures & { per_round: number[] }> {
  const groups = new Map<string, ScenarioFigures[]>();
  for (const s of scenarios) {
    const key = `${s.system}\u0000${s.scenario}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()].map((runs) => {
    const first = runs[0]!;
    const med = (pick: (s: ScenarioFigures) => number | null | undefined) =>
      median(runs.map(pick).filter((v): v is number => typeof v === 'number')) ;
    const cpuRuns = runs.filter((r) => r.cpu_ms_per_request);
    const status_counts: Record<string, number> = {};
    for (const r of runs) for (const [k, v] of Object.entries(r.status_counts)) status_counts[k] = (status_counts[k] ?? 0) + v;
    return {
      system: first.system, scenario: first.scenario, rps: med((r) => r.rps) ?? 0, p50_ms: med((r) => r.p50_ms) ?? 0,
      p99_ms: med((r) => r.p99_ms) ?? 0, requests: runs.reduce((a, r) => a + r.requests, 0), expected_status: first.expected_status,
      unexpected: runs.reduce((a, r) => a + r.unexpected, 0), errors: runs.reduce((a, r) => a + r.errors, 0), status_counts,
      cpu_ms_per_request: cpuRuns.length ? {
        server: med((r) => r.cpu_ms_per_request?.server), serverMain: med((r) => r.cpu_ms_per_request?.serverMain),
        ...(first.cpu_ms_per_request?.servers
          ? { servers: first.cpu_ms_per_request.servers.map((_, i) => med((r) => r.cpu_ms_per_request?.servers?.[i])) } : {}),
        database: med((r) => r.cpu_ms_per_request?.database), redis: med((r) => r.cpu_ms_per_request?.redis),
        load: med((r) => r.cpu_ms_per_request?.load) ?? 0,
      } : null,
      per_round: runs.map((r) => r.rps),
    };
  });
}

/** Servers by name over all rounds: the median start-up and the highest peak RSS. */
function aggregateServers(servers: ServerFigures[]): ServerFigures[] {
  const names = [...new Set(servers.map((s) => s.name))];
  return names.map((name) => {
    const runs = servers.filter((s) => s.name === name);
    const peaks = runs.map((r) => r.peak_rss_mib).filter((v): v is number => v !== null);
    return { name, startup_ms: Math.round(median(runs.map((r) => r.startup_ms)) ?? 0), peak_rss_mib: peaks.length ? Math.max(...peaks) : null };
  });
}

const SYSTEM_LABELS: Record<System, string> = {
  baseline: 'baseline', 'gatehouse-postgres': 'Gatehouse · PostgreSQL', 'gatehouse-pglite': 'Gatehouse · PGlite',
  'gatehouse-cluster': `Gatehouse ×${CLUSTER_INSTANCES} · PostgreSQL + Redis`, 'better-auth': 'better-auth · PostgreSQL',
};

export const num = (v: number | null | undefined, digits: number) => (v == null || !Number.isFinite(v) ? 'n/a' : v.toFixed(digits));

export interface Table { title: string; head: string[]; rows: string[][] }

/** The report's tables as header + rows, shared by the terminal and the Markdown renderings. */
export function reportTables(report: Report): Table[] {
  const scenarios = aggregateScenarios(report.scenarios);
  const several = roundsOf(report.scenarios).length > 1;
  const ratioRounds = (r: RatioFigures) => (r.rounds ?? []).map((v) => num(v, 2)).join(' · ');
  return [
    {
      title: several ? 'Throughput and latency (medians over the rounds)' : 'Throughput and latency',
      head: ['System', 'Scenario', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'unexpected status', 'errors', ...(several ? ['req/s per round'] : [])],
      rows: scenarios.map((s) => [SYSTEM_LABELS[s.system], s.scenario, num(s.rps, 1), num(s.p50_ms, 1), num(s.p99_ms, 1),
        String(s.requests), s.expected_status === null ? '–' : `${s.unexpected} (expects ${s.expected_status})`, String(s.errors),
        ...(several ? [s.per_round.map((v) => num(v, 1)).join(' · ')] : [])]),
    },
    {
      title: 'CPU per request (ms of CPU time in the measured run ÷ requests)',
      head: ['System', 'Scenario', 'server', 'of which event loop', 'PostgreSQL', 'load generator', 'total'],
      rows: scenarios.filter((s) => s.cpu_ms_per_request).map((s) => {
        const c = s.cpu_ms_per_request!;
        const total = c.server === null || c.database === null ? null : c.server + c.database + c.load;
        return [SYSTEM_LABELS[s.system], s.scenario, num(c.server, 3), c.serverMain == null ? '–' : num(c.serverMain, 3),
          num(c.database, 3), num(c.load, 3), num(total, 3)];
      }),
    },
    ...(report.imports?.length ? [{
      title: 'User import on PostgreSQL (gatehouse users import, spawn to exit; target: 100,000 rows in under 120 s)',
      head: ['Round', 'rows', 'file MiB', 'created', 'seconds', 'rows/s', 're-run unchanged', 're-run seconds'],
      rows: report.imports.map((i) => [String(i.round), String(i.rows), num(i.file_mib, 1), String(i.created), num(i.seconds, 1),
        num(i.rows_per_s, 0), String(i.rerun_unchanged), num(i.rerun_seconds, 1)]),
    }] : []),
    ...(report.trail_verify?.length ? [{
      title: 'gatehouse audit verify (spawn to exit; target: 1,000,000 rows in under 60 s)',
      head: ['Round', 'rows', 'file MiB', '--token seconds', '<file> seconds'],
      rows: report.trail_verify.map((v) => [String(v.round), String(v.rows), num(v.file_mib, 1), num(v.database_seconds, 1),
        num(v.file_seconds, 1)]),
    }] : []),
    {
      title: 'Servers',
      head: ['Server', 'start-up ms (spawn → ready 200)', 'peak RSS MiB (VmHWM)'],
      rows: aggregateServers(report.servers).map((s) => [s.name, String(s.startup_ms), num(s.peak_rss_mib, 1)]),
    },
    {
      title: several ? 'DESIGN.md §7 targets (median of the rounds\' ratios)' : 'DESIGN.md §7 targets',
      head: ['Ratio', 'value', 'target', 'result', ...(several ? ['per round'] : [])],
      rows: report.ratios.map((r) => [r.name, num(r.value, 2), r.target === null ? '–' : `${r.at_most ? '≤' : '≥'} ${r.target.toFixed(2)}`,
        r.target === null ? '–' : r.pass === null ? 'n/a' : r.pass ? 'PASS' : 'FAIL', ...(several ? [ratioRounds(r)] : [])]),
    },
  ];
}

export function renderText(report: Report, tables: Table[]): string {
  const out: string[] = [];
  for (const { title, head, rows } of tables) {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const numeric = head.map((_, i) => rows.length > 0 && rows.every((r) => /^([\d.]+|n\/a)$/.test(r[i] ?? '')));
    const line = (cells: string[]) => cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
    out.push(`\n${title}`, line(head), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line));
  }
  if (report.failures.length) out.push('\nFailed parts:', ...report.failures.map((f) => `  - ${f.split('\n')[0]}`));
  return `${out.join('\n')}\n`;
}
