#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('gatehouse: the build is missing; run `npm run build` (npm ci runs it) first\n');
  process.exit(1);
}
const { main, processIo } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2), processIo());
