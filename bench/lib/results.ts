import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { reportTables, type Report } from './report.js';
import { ROOT } from './servers.js';

export const RESULTS_DIR = join(ROOT, 'bench/results');
const README = join(ROOT, 'bench/README.md');
export const README_START = '<!-- bench:results:start -->';
export const README_END = '<!-- bench:results:end -->';

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

function renderMarkdown(report: Report): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const kv = (o: Record<string, string | number>) => Object.entries(o).map(([k, v]) => `\`${k}\` ${v}`).join(' · ');
  const parts = [
    `Run ${report.generated_at} at commit \`${report.commit}\`.`,
    '',
    `**Machine:** ${kv(report.machine)}`,
    '',
    `**Parameters:** ${kv(report.parameters)}`,
  ];
  for (const { title, head, rows } of reportTables(report)) {
    parts.push('', `**${title}**`, '', `| ${head.map(cell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`,
      ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`));
  }
  if (report.failures.length) parts.push('', '**Failed parts:**', '', ...report.failures.map((f) => `- ${cell(f.split('\n')[0]!)}`));
  return `${parts.join('\n')}\n`;
}

/** bench/results/latest.json and latest.md; with `writeReadme`, the marked section of bench/README.md too. */
export function writeResults(report: Report, writeReadme: boolean): string[] {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const markdown = renderMarkdown(report);
  const written = [join(RESULTS_DIR, 'latest.json'), join(RESULTS_DIR, 'latest.md')];
  writeFileSync(written[0]!, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(written[1]!, `# Latest benchmark run\n\n${markdown}`);
  if (writeReadme) {
    const text = readFileSync(README, 'utf8');
    const start = text.indexOf(README_START);
    const end = text.indexOf(README_END);
    if (start < 0 || end < start) throw new Error(`bench/README.md has no ${README_START} … ${README_END} section`);
    writeFileSync(README, `${text.slice(0, start + README_START.length)}\n${markdown}${text.slice(end)}`);
    written.push(README);
  }
  return written;
}
