import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import type { Env } from './load.js';

/**
 * The process environment, completed by `.env` in the working directory when present.
 * A variable set in the real environment always wins over the file.
 */
export function readEnvironment(cwd = process.cwd(), overrides: Env = {}): Env {
  const file = resolve(cwd, '.env');
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  return { ...fromFile, ...process.env, ...overrides };
}
