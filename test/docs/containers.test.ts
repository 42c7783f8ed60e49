import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { before, describe, it } from 'node:test';
// `yaml` comes with @fastify/swagger, a production dependency.
import { parse as parseYaml } from 'yaml';
import { HELP } from '../../src/cli/usage.js';
import { ConfigError, loadConfig, type Env } from '../../src/config/load.js';
import { SETTINGS, type SettingDef, type SettingKey } from '../../src/config/settings.js';
import { useTestApp } from '../helpers/test-app.js';

// The Dockerfile and compose.yaml cannot be built or run here (no container runtime or registry): these tests check
// what can drift from the code — setting names, routes, commands, the settings an instance starts with.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Stage { from: string; name: string | undefined; lines: Array<{ op: string; args: string }> }

/** Instructions by stage; continuation lines joined, comments dropped. */
function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const op = line.split(/\s/, 1)[0]!;
    const args = line.slice(op.length).trim();
    if (op.toUpperCase() === 'FROM') {
      const [from = '', as, name] = args.split(/\s+/);
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, lines: [] });
    } else stages.at(-1)?.lines.push({ op: op.toUpperCase(), args });
  }
  return stages;
}

const dockerfile = parseDockerfile(read('Dockerfile'));
const runtime = dockerfile.at(-1)!;
const argsOf = (op: string) => runtime.lines.filter((l) => l.op === op).map((l) => l.args);
/** `ENV A=1 B=2` lines of the runtime stage (values without spaces). */
const imageEnv: Env = Object.fromEntries(argsOf('ENV').flatMap((a) => a.split(/\s+/))
  .map((kv) => kv.split('=', 2) as [string, string]));
const healthcheck = JSON.parse(argsOf('HEALTHCHECK')[0]!.replace(/^.*?\bCMD\s+/, '')) as string[];
const healthcheckPath = /https?:\/\/[^/]+(\/[^`'"\s]*)/.exec(healthcheck.join(' '))?.[1];

interface Service {
  image?: string; build?: unknown; command?: string[]; entrypoint?: string[]; environment?: Record<string, unknown>;
  env_file?: string | string[]; depends_on?: Record<string, { condition: string }>; volumes?: string[]; ports?: string[];
  networks?: string[] | Record<string, { ipv4_address?: string } | null>; healthcheck?: { test: string[] };
}
const compose = parseYaml(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
const services = Object.entries(compose.services);
const named = (pred: (s: Service) => boolean) => services.filter(([, s]) => pred(s)).map(([n]) => n);
const gatehouse = named((s) => s.build !== undefined);
const instances = named((s) => s.build !== undefined && (s.command ?? []).includes('serve'));
const migrations = gatehouse.filter((n) => !instances.includes(n));
const [lbName] = named((s) => s.build === undefined && (s.ports ?? []).length > 0);
const lb = compose.services[lbName ?? '']!;
const lbAddress = Object.values(lb.networks ?? {})
  .map((n) => (typeof n === 'object' && n !== null ? n.ipv4_address : undefined)).find(Boolean);
const lbConfigPath = lb.volumes?.map((v) => v.split(':')[0]!).find((p) => /\.cfg$|\.conf$/.test(p));
const lbConfig = read(lbConfigPath ?? '');
const envOf = (name: string): Env => Object.fromEntries(Object.entries(compose.services[name]?.environment ?? {})
  .map(([k, v]) => [k, String(v)]));

describe('Dockerfile', () => {
  it('builds in stages on node:20-slim and runs the compiled code', () => {
    assert.ok(dockerfile.length >= 2, 'a build stage and a runtime stage');
    for (const stage of dockerfile) assert.equal(stage.from, 'node:20-slim');
    const build = dockerfile[0]!;
    assert.ok(build.lines.some((l) => l.op === 'RUN' && /\bnpm run build\b/.test(l.args)), 'the build stage compiles');
    assert.ok(argsOf('COPY').some((a) => a.startsWith(`--from=${build.name} /app/dist`)), 'dist/ comes from the build stage');
    assert.deepEqual(JSON.parse(argsOf('ENTRYPOINT')[0]!), ['node', 'bin/gatehouse.js']);
    assert.deepEqual(JSON.parse(argsOf('CMD')[0]!), ['serve']);
  });

  it('installs only production dependencies in the runtime stage', () => {
    const installs = argsOf('RUN').filter((a) => /\bnpm (ci|install)\b/.test(a));
    assert.ok(installs.length > 0);
    for (const a of installs) assert.match(a, /npm ci --omit=dev --ignore-scripts/);
  });

  it('runs as a non-root user', () => {
    const user = argsOf('USER').at(-1);
    assert.ok(user, 'a USER in the runtime stage');
    assert.ok(!['root', '0'].includes(user.split(':')[0]!), `USER ${user}`);
    const userAt = runtime.lines.findIndex((l) => l.op === 'USER');
    assert.ok(runtime.lines.slice(userAt).some((l) => l.op === 'CMD'), 'USER comes before the command');
  });

  it('listens on every interface, on the port it exposes', () => {
    assert.equal(imageEnv.SVC_HOST, '0.0.0.0');
    assert.deepEqual(argsOf('EXPOSE'), [imageEnv.SVC_PORT]);
  });
});

describe('health checks', () => {
  const t = useTestApp({ reset: false });
  let port: number;
  before(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });

  /** Runs the image's HEALTHCHECK command with Node against `target`; answers its exit code. */
  const runHealthcheck = (target: number) => new Promise<number>((resolve) => {
    const [command, ...args] = healthcheck;
    assert.equal(command, 'node');
    execFile(process.execPath, args, { env: { PATH: process.env.PATH, SVC_PORT: String(target) }, timeout: 30_000 },
      (err) => resolve(err ? Number(err.code ?? 1) || 1 : 0));
  });

  it('asks for a route the app serves, with 200 when ready', async () => {
    assert.equal(healthcheckPath, '/health/ready');
    assert.equal((await t.app.inject({ method: 'GET', url: healthcheckPath })).statusCode, 200);
  });

  it('the HEALTHCHECK command passes against a running Gatehouse', async () => {
    assert.equal(await runHealthcheck(port), 0);
  });

  it('the HEALTHCHECK command fails on a 503 and on a closed port', async () => {
    const unavailable = createServer((_req, res) => { res.writeHead(503).end(); });
    await new Promise<void>((resolve) => unavailable.listen(0, '127.0.0.1', resolve));
    const busyPort = (unavailable.address() as AddressInfo).port;
    try {
      assert.notEqual(await runHealthcheck(busyPort), 0);
    } finally {
      await new Promise((resolve) => unavailable.close(resolve));
    }
    assert.notEqual(await runHealthcheck(busyPort), 0, 'nothing listens there any more');
  });

  it("the load balancer's check asks for a route the app serves", async () => {
    const path = /http-check send meth GET uri (\S+)/.exec(lbConfig)?.[1];
    assert.equal(path, healthcheckPath);
    assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 200);
  });
});

describe('compose.yaml', () => {
  it('runs PostgreSQL 16 and Redis 7, PostgreSQL with a health check', () => {
    const [postgres] = named((s) => /^postgres:16\b/.test(s.image ?? ''));
    assert.ok(postgres, 'a postgres:16 service');
    assert.ok(compose.services[postgres]!.healthcheck, 'PostgreSQL has a health check');
    assert.equal(named((s) => /^redis:7\b/.test(s.image ?? '')).length, 1, 'a redis:7 service');
  });

  it('migrates once, then starts two instances with serve --no-migrate', () => {
    assert.deepEqual(instances, ['gatehouse-1', 'gatehouse-2']);
    assert.equal(migrations.length, 1);
    const migrate = compose.services[migrations[0]!]!;
    const script = [...(migrate.entrypoint ?? []), ...(migrate.command ?? [])].join(' ');
    assert.match(script, /gatehouse\.js migrate\b.*gatehouse\.js seed\b/);
    assert.ok(Object.values(migrate.depends_on ?? {}).some((d) => d.condition === 'service_healthy'));
    for (const name of instances) {
      const s = compose.services[name]!;
      assert.deepEqual(s.command, ['serve', '--no-migrate']);
      assert.equal(s.depends_on?.[migrations[0]!]?.condition, 'service_completed_successfully', name);
    }
  });

  it('uses only commands and options the gatehouse command has', () => {
    for (const command of ['serve [--no-migrate]', 'migrate', 'seed']) {
      assert.match(HELP, new RegExp(`^  ${command.replace(/[[\]-]/g, '\\$&')}\\s`, 'm'), command);
    }
  });

  it('has a load balancer whose configuration points at both instances on the image port', () => {
    assert.ok(lbName && lbConfigPath, 'a load balancer with its configuration mounted');
    const servers = [...lbConfig.matchAll(/^\s*server\s+\S+\s+([^:\s]+):(\d+)/gm)];
    assert.deepEqual(servers.map((m) => m[1]).sort(), instances);
    for (const m of servers) assert.equal(m[2], imageEnv.SVC_PORT);
  });

  it('trusts exactly the load balancer, which replaces the forwarded scheme and host', () => {
    assert.ok(lbAddress, 'the load balancer has a fixed address');
    for (const name of instances) assert.equal(envOf(name).SVC_TRUSTED_PROXIES, lbAddress);
    assert.match(lbConfig, /^\s*option forwardfor\b/m);
    assert.match(lbConfig, /http-request set-header X-Forwarded-Proto /);
    assert.match(lbConfig, /http-request set-header X-Forwarded-Host /);
  });

  it('keeps secrets out of the file', () => {
    const secretNames = new Set(['SVC_DATABASE_URL', 'POSTGRES_PASSWORD', ...Object.entries(SETTINGS)
      .filter(([, d]) => (d as SettingDef).kind === 'secret').map(([k]) => `SVC_${k}`)]);
    for (const [name] of services) {
      for (const key of Object.keys(envOf(name))) assert.ok(!secretNames.has(key), `${name} sets ${key} in compose.yaml`);
    }
  });
});

describe('settings in the container files', () => {
  const deployFiles = (dir: string): string[] => readdirSync(join(ROOT, dir)).flatMap((f) =>
    (statSync(join(ROOT, dir, f)).isDirectory() ? deployFiles(join(dir, f)) : [join(dir, f)]));

  it('names only settings of settings.ts', () => {
    const known = new Set(Object.keys(SETTINGS).map((k) => `SVC_${k}`));
    const used = new Set(['Dockerfile', 'compose.yaml', ...deployFiles('deploy')]
      .flatMap((f) => read(f).match(/\bSVC_[A-Z0-9_]+\b/g) ?? []));
    assert.ok(used.size >= 8, `found ${[...used].join(', ')}`);
    for (const name of used) assert.ok(known.has(name), `${name} is not a setting`);
  });

  const envFile = [compose.services[instances[0]!]!.env_file].flat()[0]!;
  const example = parseEnv(read(`${envFile}.example`)) as Env;
  const empty = Object.keys(example).filter((k) => example[k] === '');
  const sample = (name: string): string => {
    const def = SETTINGS[name.slice(4) as SettingKey] as SettingDef;
    if (def.kind === 'secret') return randomBytes(48).toString('base64');
    return def.kind === 'url' ? `${def.protocols.at(-1)}//gatehouse.example.test` : 'gatehouse.example.test';
  };
  const filled = Object.fromEntries(empty.map((k) => [k, sample(k)]));
  /** What an instance starts with: image ENV ← env_file ← compose environment, as Docker resolves it. */
  const instanceEnv = (values: Env): Env => ({ ...imageEnv, ...example, ...values, ...envOf(instances[0]!) });

  it('refuse to start as shipped, naming each required value left empty', () => {
    assert.throws(() => loadConfig(instanceEnv({})), ConfigError);
    for (const name of ['SVC_DATABASE_URL', 'SVC_JWT_SECRET_KEY', 'SVC_PUBLIC_URL']) {
      assert.ok(empty.includes(name), `${name} is an empty placeholder`);
      assert.throws(() => loadConfig(instanceEnv({ ...filled, [name]: '' })),
        (e: Error) => e instanceof ConfigError && e.message.includes(name), name);
    }
  });

  it('start outside debug, behind the load balancer, once the empty values are filled in', () => {
    const { config, preset } = loadConfig(instanceEnv(filled));
    assert.equal(config.DEBUG, false);
    assert.notEqual(preset, 'development');
    assert.equal(config.HOST, '0.0.0.0');
    assert.deepEqual(config.TRUSTED_PROXIES, [lbAddress]);
    assert.ok(config.REDIS_URL?.startsWith('redis://'));
    assert.notEqual(config.EMAIL_BACKEND, 'console');
  });
});
