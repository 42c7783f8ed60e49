import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { freePort, startServer, type RunningServer } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECTION = '## First ten minutes';

/** The `sh` blocks of the README's "First ten minutes", in order: what a newcomer pastes in the second terminal. */
function shellBlocks(readme: string): string[] {
  const start = readme.indexOf(`\n${SECTION}\n`);
  assert.ok(start >= 0, `README.md has no "${SECTION}" section`);
  const end = readme.indexOf('\n## ', start + SECTION.length + 2);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/\n```sh\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
}

/** Runs `script` with bash in the clone, as the second terminal would, with only what a shell passes on. */
function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('README "First ten minutes" runs as written against a live server', () => {
  let server: RunningServer | undefined;
  let dataDir: string;
  let port: number;

  before(async () => {
    // `npx gatehouse` runs the build (bin/gatehouse.js → dist), as it does on a fresh clone after `npm ci`.
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}\n${build.stderr}`);
    dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-readme-'));
    port = await freePort();
    server = await startServer({ port, env: { SVC_DATA_DIR: dataDir } }, ['start']);
    await server.waitForOutput('Gatehouse is serving');
  });
  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every block succeeds, and each shows what its comments promise', async () => {
    const blocks = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    assert.ok(blocks.length >= 5, `expected the README's shell blocks, found ${blocks.length}`);
    const script = ['set -euo pipefail', ...blocks].join('\n');
    const env = {
      PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG,
      SVC_PORT: String(port), SVC_DATA_DIR: dataDir,
    };
    const result = await runBash(script, env);
    assert.equal(result.code, 0, `the README's blocks failed:\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
    const out = result.stdout;
    assert.match(out, /^ann@example\.com$/m, 'me/ answers the registered address');
    assert.match(out, /^TOKEN_BLACKLISTED$/m, 'the access token is refused after logout');
    assert.match(out, /^whsec_/m, 'the webhook secret is shown once');
    assert.match(out, /"type":"webhook\.test"/, 'the loopback receiver got the test event');
    assert.match(out, /^AGENT_PERMISSION_DENIED$/m, 'the agent is refused what it was not granted');
    assert.equal((out.match(/^ann@example\.com$/gm) ?? []).length, 2, 'the agent lists Ann through admin/users/');
  });
});
