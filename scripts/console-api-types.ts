/**
 * Generates the console's API types, console/src/api-types.ts, from the server's OpenAPI document: the app is built
 * in-process on an embedded database held in memory, and `app.swagger()` gives the document that
 * `<prefix>docs/schema/` serves. The console calls the API relative to its prefix, so the paths are written relative
 * to it (`admin/users/{id}/`), and the routes outside the API are left out.
 *
 *   tsx scripts/console-api-types.ts            print the types
 *   tsx scripts/console-api-types.ts --write    write console/src/api-types.ts (npm run console:api-types)
 *   tsx scripts/console-api-types.ts --check    exit 1 when console/src/api-types.ts is out of date
 *
 * A path after the flag names another file (the default is the console's).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig, type Env } from '../src/config/load.js';
import { buildContainer } from '../src/container.js';
import { openDatabase } from '../src/db/create-db.js';
import { createArgon2Hasher } from '../src/security/password-hash.js';

export const DEFAULT_TYPES = fileURLToPath(new URL('../console/src/api-types.ts', import.meta.url));

/** The settings the document is made with: the defaults, and what a server needs to start without a file. */
const ENV: Env = {
  SVC_DATA_DIR: 'memory://',
  SVC_LOG_LEVEL: 'silent',
  SVC_JWT_SECRET_KEY: 'api-types-secret-key-that-is-at-least-32-bytes-long',
};

const HEADER = `/**
 * The API's paths, relative to its prefix, with their parameters, bodies and answers, generated from the server's
 * OpenAPI document by scripts/console-api-types.ts: do not edit, run \`npm run console:api-types\` (docs/console.md).
 */
`;

/** The server's OpenAPI document, as `<prefix>docs/schema/` serves it with the default settings. */
export async function openApiDocument(): Promise<{ prefix: string; document: OpenAPI3 }> {
  const { config } = loadConfig(ENV);
  const database = await openDatabase(config);
  try {
    // Nothing is hashed: the cheapest parameters keep the start-up short.
    const hasher = await createArgon2Hasher({ memoryCost: 256, timeCost: 1, parallelism: 1 }, 1);
    const container = await buildContainer({ config, database, hasher });
    const app = await buildApp(container, { logStream: false });
    try {
      await app.ready();
      return { prefix: config.API_PREFIX, document: structuredClone(app.swagger()) as OpenAPI3 };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/** `document` with only the API's paths, written relative to `prefix`. */
export function relativeToPrefix(document: OpenAPI3, prefix: string): OpenAPI3 {
  const paths = Object.fromEntries(Object.entries(document.paths ?? {})
    .filter(([path]) => path.startsWith(prefix))
    .map(([path, item]) => [path.slice(prefix.length), item]));
  return { ...document, paths };
}

/** The TypeScript module of the document's types. */
export async function renderApiTypes(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { alphabetize: true });
  const body = astToString(ast).replace(/^\/\*\*[\s\S]*?\*\/\n+/, '');
  return `${HEADER}\n${body}`;
}

/** The types the console should have now. */
export async function currentApiTypes(): Promise<string> {
  const { prefix, document } = await openApiDocument();
  return renderApiTypes(relativeToPrefix(document, prefix));
}

async function main(args: string[]): Promise<number> {
  const mode = args.find((a) => a.startsWith('--'));
  const path = resolve(args.find((a) => !a.startsWith('--')) ?? DEFAULT_TYPES);
  const types = await currentApiTypes();
  if (mode === '--write') {
    writeFileSync(path, types);
    process.stdout.write(`Wrote ${path}\n`);
    return 0;
  }
  if (mode === '--check') {
    let written = '';
    try { written = readFileSync(path, 'utf8'); } catch { /* a missing file is out of date too */ }
    if (written === types) return 0;
    process.stderr.write(`${path} is out of date: run npm run console:api-types\n`);
    return 1;
  }
  if (mode) {
    process.stderr.write(`unknown option ${mode}: use --write or --check\n`);
    return 2;
  }
  process.stdout.write(types);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
