import { CLUSTER_SERVER_PREFIX } from './cluster.js';
import { CLUSTER_INSTANCES } from './fixtures.js';
import { POSTGRES_SERVER_NAME } from './gatehouse.js';
import { CLUSTER_MEASURED, aggregateScenarios, clusterRatioName, num, reportTables, type Report, type Table } from './report.js';

/**
 * The multi-instance table: each scenario's rate on CLUSTER_INSTANCES instances against one instance measured in the
 * same run, and where the CPU went in each case, so the ratio can be read against what bounds it. On a machine with
 * fewer cores than the processes that want them, the instances, PostgreSQL and the load generator share the same
 * cores: a rate is then about (busy cores × 1000) ÷ (total CPU ms per request), whatever the number of instances.
 */
export function clusterTables(report: Report): Table[] {
  const scenarios = aggregateScenarios(report.scenarios);
  const find = (system: string, scenario: string) => scenarios.find((s) => s.system === system && s.scenario === scenario);
  const n = CLUSTER_INSTANCES;
  const rows: string[][] = [];
  for (const scenario of CLUSTER_MEASURED) {
    const one = find('gatehouse-postgres', scenario);
    const many = find('gatehouse-cluster', scenario);
    if (!many) continue;
    const ratio = report.ratios.find((r) => r.name === clusterRatioName(scenario));
    const c1 = one?.cpu_ms_per_request;
    const cn = many.cpu_ms_per_request;
    const total = (c: typeof cn, extra = 0) => (c && c.server !== null && c.database !== null ? c.server + c.database + c.load + extra : null);
    const totalOne = total(c1);
    const totalMany = total(cn, cn?.redis ?? 0);
    // CPU-seconds per second of the processes measured: how many of the machine's cores the scenario kept busy.
    const busy = (rps: number | undefined, ms: number | null) => (rps === undefined || ms === null ? null : (rps * ms) / 1000);
    const pair = (a: number | null | undefined, b: number | null | undefined, digits: number) => `${num(a, digits)} · ${num(b, digits)}`;
    rows.push([
      scenario === 'me' ? 'me/' : scenario,
      num(one?.rps, 1), num(many.rps, 1),
      `${num(ratio?.value, 2)}${ratio?.rounds ? ` (${ratio.rounds.map((v) => num(v, 2)).join(' · ')})` : ''}`,
      num(c1?.server, 3), (cn?.servers ?? []).map((v) => num(v, 3)).join(' · ') || 'n/a', num(cn?.server, 3),
      pair(c1?.database, cn?.database, 3), num(cn?.redis, 3), pair(c1?.load, cn?.load, 3), pair(totalOne, totalMany, 3),
      pair(busy(one?.rps, totalOne), busy(many.rps, totalMany), 2),
    ]);
  }
  if (!rows.length) return [];
  return [{
    title: `${n} instances against 1 (gatehouse serve ×${n} on one PostgreSQL database + Redis, the load split evenly over them; `
      + `CPU in ms per request, "1 · ${n}" pairs the one-instance figure with the ${n} instances')`,
    head: ['Scenario', 'req/s: 1 instance', `req/s: ${n} instances`, `${n} ÷ 1`, 'server CPU: 1 instance', `server CPU: each of ${n}`,
      `server CPU: all ${n}`, `PostgreSQL: 1 · ${n}`, `Redis: ${n}`, `load generator: 1 · ${n}`, `total: 1 · ${n}`, `cores busy: 1 · ${n}`],
    rows,
  }];
}

/**
 * The multi-instance section of bench/README.md: the table above, then the throughput, CPU and server tables of the
 * run narrowed to the scenarios and servers it compares (one instance's `login` and `me/`, the instances').
 */
export function clusterSectionTables(report: Report): Table[] {
  const main = clusterTables(report);
  if (!main.length) return [];
  const compared = (system: string, scenario: string) =>
    (system === 'gatehouse-postgres' || system === 'gatehouse-cluster') && (CLUSTER_MEASURED as readonly string[]).includes(scenario);
  const narrowed: Report = {
    ...report,
    scenarios: report.scenarios.filter((s) => compared(s.system, s.scenario)),
    servers: report.servers.filter((s) => s.name === POSTGRES_SERVER_NAME || s.name.startsWith(CLUSTER_SERVER_PREFIX)),
    ratios: [],
    imports: [],
  };
  const wanted = ['Throughput', 'CPU per request', 'Servers'];
  return [...main, ...reportTables(narrowed).filter((t) => wanted.some((w) => t.title.startsWith(w)))];
}
