/**
 * Renders the README's settings table from `src/config/settings.ts` and the presets, so it never drifts.
 *
 *   tsx scripts/settings-table.ts            print the table
 *   tsx scripts/settings-table.ts --write    replace the table between the markers in README.md
 *   tsx scripts/settings-table.ts --check    exit 1 when README.md's table is out of date
 *
 * A path after the flag names another README (the default is the repository's README.md).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeAccepted } from '../src/config/load.js';
import { PRESETS } from '../src/config/presets.js';
import { PRESET_NAMES, SETTINGS, envName, type PresetName, type SettingDef, type SettingKey } from '../src/config/settings.js';

export const START_MARKER = '<!-- settings:start -->';
export const END_MARKER = '<!-- settings:end -->';
export const DEFAULT_README = fileURLToPath(new URL('../README.md', import.meta.url));

const NONE = '–';

const cell = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
const code = (text: string): string => `\`${text}\``;

/** A value as the README shows it: in code, `–` when there is none. */
function formatValue(def: SettingDef, value: unknown): string {
  if (value === null || value === undefined || value === '') return NONE;
  if (def.kind === 'list') {
    const items = value as readonly string[];
    return items.length ? code(items.join(',')) : NONE;
  }
  return code(String(value));
}

function settingName(key: string, def: SettingDef): string {
  return [envName(key as SettingKey), ...(def.aliases ?? [])].map(code).join(', ');
}

/** The Markdown table of every setting, its accepted values, default and preset values. */
export function renderSettingsTable(
  settings: Readonly<Record<string, SettingDef>> = SETTINGS,
  presets: Readonly<Record<PresetName, Readonly<Record<string, unknown>>>> = PRESETS,
): string {
  const header = ['Setting', 'Accepts', 'Default', ...PRESET_NAMES, 'Description'];
  const rows = Object.entries(settings).map(([key, def]) => [
    settingName(key, def),
    describeAccepted(def),
    def.defaultLabel ?? formatValue(def, def.default),
    ...PRESET_NAMES.map((preset) => (key in presets[preset] ? formatValue(def, presets[preset][key]) : '')),
    def.description,
  ]);
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

function markerBounds(readme: string): { start: number; end: number } {
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`README has no settings table markers: add the lines ${START_MARKER} and ${END_MARKER} where the table belongs`);
  }
  return { start: start + START_MARKER.length, end };
}

/** The table currently between the markers, without surrounding blank lines. */
export function extractSettingsTable(readme: string): string {
  const { start, end } = markerBounds(readme);
  return readme.slice(start, end).trim();
}

/** `readme` with the text between the markers replaced by `table`. */
export function replaceSettingsTable(readme: string, table: string): string {
  const { start, end } = markerBounds(readme);
  return `${readme.slice(0, start)}\n${table}\n${readme.slice(end)}`;
}

function main(args: string[]): number {
  const mode = args.find((a) => a.startsWith('--'));
  const path = resolve(args.find((a) => !a.startsWith('--')) ?? DEFAULT_README);
  const table = renderSettingsTable();
  if (mode === undefined) {
    process.stdout.write(`${table}\n`);
    return 0;
  }
  if (mode !== '--write' && mode !== '--check') {
    process.stderr.write(`Unknown option ${mode}: use --write, --check or no option\n`);
    return 2;
  }
  if (!existsSync(path)) {
    process.stderr.write(`${path} does not exist\n`);
    return 1;
  }
  const readme = readFileSync(path, 'utf8');
  try {
    if (mode === '--check') {
      if (extractSettingsTable(readme) === table) return 0;
      process.stderr.write(`The settings table in ${path} is out of date: run npm run docs:settings\n`);
      return 1;
    }
    const updated = replaceSettingsTable(readme, table);
    if (updated !== readme) writeFileSync(path, updated);
    process.stdout.write(`${updated === readme ? 'Already up to date' : 'Updated'}: ${path}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message} (${path})\n`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
