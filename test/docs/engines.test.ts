import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

// `semver` comes with fastify, a production dependency (it has no types of its own: the three calls used are declared).
const semver = createRequire(import.meta.url)('semver') as {
  validRange(range: string): string | null;
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string; major: number } | null;
};

// The README, `engines` and the Dockerfile promise a Node version; every installed production dependency must run
// on it, so that a dependency update that drops it fails here rather than on an operator's machine.

const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const manifestAt = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Where Node finds `name` required from `dir`: the nearest `node_modules` up the tree, as the installer laid them out. */
function resolveFrom(dir: string, name: string): string | undefined {
  for (let d = dir; d.startsWith(ROOT); d = dirname(d)) {
    const candidate = join(d, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

/** Every installed package the production dependencies pull in (optional ones only when installed). */
function productionPackages(): Map<string, Manifest> {
  const found = new Map<string, Manifest>();
  const visit = (dir: string, manifest: Manifest, isRoot: boolean) => {
    const required = Object.keys(manifest.dependencies ?? {});
    const optional = Object.keys(manifest.optionalDependencies ?? {});
    for (const name of [...required, ...optional]) {
      const at = resolveFrom(dir, name);
      if (!at) {
        assert.ok(optional.includes(name), `${name}, required by ${isRoot ? 'the package' : manifest.name}, is not installed`);
        continue;
      }
      if (found.has(at)) continue;
      const dependency = manifestAt(at);
      found.set(at, dependency);
      visit(at, dependency, false);
    }
  };
  visit(ROOT, manifestAt(ROOT), true);
  return found;
}

describe('the Node version the package promises', () => {
  const promised = manifestAt(ROOT).engines?.node;

  it('is declared, and the README and the Dockerfile say the same', () => {
    assert.equal(promised, '>=20.19');
    assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /Node(\.js)? (≥ ?|>= ?)20\.19/);
    const images = [...readFileSync(join(ROOT, 'Dockerfile'), 'utf8').matchAll(/^FROM node:(\d+)/gm)].map((m) => Number(m[1]));
    assert.ok(images.length > 0 && images.every((major) => major === semver.minVersion(promised!)!.major), `FROM node:${images.join(', ')}`);
  });

  it('is accepted by every installed production dependency that declares engines.node', () => {
    const lowest = semver.minVersion(promised!)!.version;
    const packages = productionPackages();
    assert.ok(packages.size > 50, `only ${packages.size} production packages found under node_modules`);
    const refusing = [...packages.values()]
      .filter((m) => m.engines?.node && semver.validRange(m.engines.node) && !semver.satisfies(lowest, m.engines.node))
      .map((m) => `${m.name}@${m.version} (engines.node ${m.engines!.node})`);
    assert.deepEqual(refusing, [], `these need a newer Node than ${lowest}; pin a version that supports it (package.json `
      + '"overrides") or raise engines, the README and the Dockerfile together');
  });
});
