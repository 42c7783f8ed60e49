import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { clusterSectionTables, clusterTables } from './cluster-report.js';
import { reportTables, type Report, type Table } from './report.js';
import { ROOT } from './servers.js';

export const RESULTS_DIR = join(ROOT, 'bench/results');
const README = join(ROOT, 'bench/README.md');
export const README_START = '<!-- bench:results:start -->';
export const README_END = '<!-- bench:results:end -->';
/** The multi-instance figures have a section of their own, so a run of the `cluster` group alone can refresh them. */
export const README_CLUSTER_START = '<!-- bench:cluster:start -->';
export const README_CLUSTER_END = '<!-- bench:cluster:end -->';

/** The short commit, marked when the work tree has uncommitted changes (read-only git commands only). */
export function commitId(): string {
  const git = (...args: string[]) => execFileSync('git', ['--no-optional-locks', ...args], { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    const sha = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

export function machine(postgres: string, loadAtStart: number): Record<string, string | number> {
  const cpu = cpus();
  return {
    cpu: `${cpu[0]?.model.trim() ?? 'unknown'}`,
    cores: cpu.length,
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    postgresql: postgres,
    // Other work on the machine skews every figure; the 1-minute load average at the start says how much there was.
    load_average_at_start: loadAtStart.toFixed(2),
  };
}

function renderMarkdown(report: Report, tables: Table[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const kv = (o: Record<string, string | number>) => Object.entries(o).map(([k, v]) => `\`${k}\` ${v}`).join(' · ');
  const parts = [
    `Run ${report.generated_at} at commit \`${report.commit}\`.`,
    '',
    `**Machine:** ${kv(report.machine)}`,
    '',
    `**Parameters:** ${kv(report.parameters)}`,
  ];
  for (const { title, head, rows } of tables) {
    parts.push('', `**${title}**`, '', `| ${head.map(cell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`,
      ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`));
  }
  if (report.failures.length) parts.push('', '**Failed parts:**', '', ...report.failures.map((f) => `- ${cell(f.split('\n')[0]!)}`));
  return `${parts.join('\n')}\n`;
}

/** `text` with what lies between the two markers replaced by `content`. */
function replaceSection(text: string, startMark: string, endMark: string, content: string): string {
  const start = text.indexOf(startMark);
  const end = text.indexOf(endMark);
  if (start < 0 || end < start) throw new Error(`bench/README.md has no ${startMark} … ${endMark} section`);
  return `${text.slice(0, start + startMark.length)}\n${content}${text.slice(end)}`;
}

/**
 * bench/results/latest.json and latest.md (every table); with `readme`, the marked sections of bench/README.md too:
 * the results section unless the run measured only the `cluster` group, the multi-instance section when the run
 * measured the instances.
 */
export function writeResults(report: Report, readme: { write: boolean; clusterOnly: boolean }): string[] {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const cluster = clusterTables(report);
  const main = renderMarkdown(report, reportTables(report));
  const written = [join(RESULTS_DIR, 'latest.json'), join(RESULTS_DIR, 'latest.md')];
  writeFileSync(written[0]!, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(written[1]!, `# Latest benchmark run\n\n${renderMarkdown(report, [...reportTables(report), ...cluster])}`);
  if (readme.write) {
    let text = readFileSync(README, 'utf8');
    if (!readme.clusterOnly) text = replaceSection(text, README_START, README_END, main);
    if (cluster.length) text = replaceSection(text, README_CLUSTER_START, README_CLUSTER_END, renderMarkdown(report, clusterSectionTables(report)));
    writeFileSync(README, text);
    written.push(README);
  }
  return written;
}
