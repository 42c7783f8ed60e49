import { parseArgs } from 'node:util';
import type { DatabaseKind } from './gatehouse.js';

export const GATEHOUSE_SCENARIOS = ['login', 'me', 'refresh', 'login-failed', 'register', 'org-detail', 'authorize', 'authorize-child',
  'agent-roles',
  'oauth-authorize', 'oauth-introspect', 'oauth-code'] as const;
export const BASELINES = ['argon2-verify', 'bare-argon2-route', 'bare-select', 'bare-insert-update'] as const;
export const PEER_SCENARIOS = ['better-auth-sign-in', 'better-auth-get-session'] as const;
/** On PostgreSQL only, against their own seeded database of a million accounts (`setup/seed-dashboard.ts`). */
export const DASHBOARD_SCENARIOS = ['dashboard-stats', 'dashboard-auth'] as const;
/**
 * `login` and `me` on CLUSTER_INSTANCES instances sharing one PostgreSQL database and Redis (`lib/cluster.ts`), the
 * load split evenly over them; their group also runs the one-instance `login` and `me` they are compared with.
 */
export const CLUSTER_SCENARIOS = ['cluster-login', 'cluster-me'] as const;
/** `startup` alone starts each selected Gatehouse and measures its start-up, without load. */
/** `user-import`: a 100,000-line file through `gatehouse users import` on PostgreSQL (`lib/user-import.ts`). */
/** `trail-verify`: `gatehouse audit verify` over a chain of 1,000,000 rows, in the database and exported (`lib/trail-verify.ts`). */
const ALL = [...BASELINES, ...GATEHOUSE_SCENARIOS, ...CLUSTER_SCENARIOS, ...PEER_SCENARIOS, ...DASHBOARD_SCENARIOS, 'startup',
  'user-import', 'trail-verify'] as const;
export const CLUSTER_GROUP = ['login', 'me', ...CLUSTER_SCENARIOS] as const;
/**
 * `--quick`: what a change to a hot path (authentication, sign-in, refresh, agent checks, the organization context)
 * runs before it lands: those scenarios and the baselines their targets divide by, on PostgreSQL, one round of 5 s
 * after 1 s of warm-up (docs/architecture.md "SQL on the hot paths").
 */
export const QUICK_SCENARIOS = ['argon2-verify', 'bare-select', 'bare-insert-update', 'login', 'me', 'refresh', 'org-detail', 'authorize',
  'authorize-child',
  'oauth-authorize', 'oauth-introspect'] as const;
const GROUPS: Record<string, readonly string[]> = {
  baselines: BASELINES, gatehouse: GATEHOUSE_SCENARIOS, cluster: CLUSTER_GROUP, 'better-auth': PEER_SCENARIOS, dashboard: DASHBOARD_SCENARIOS,
};

export const USAGE = `Usage: npm run bench -- [options]

  --duration <s>       measured seconds per scenario (default 10)
  --warmup <s>         unmeasured seconds before each scenario (default 2)
  --connections <n>    concurrent connections of the load generator (default 16)
  --users <n>          seeded accounts per system (default 1000)
  --rounds <n>         repeat the whole run n times; figures and ratios are medians over the rounds (default 1)
  --db <list>          Gatehouse databases: postgres,pglite (default both)
  --quick              the hot paths and their baselines on PostgreSQL, 5 s after 1 s of warm-up, one round: what a
                       change to a hot path runs before it lands (--only, --db, --duration, --warmup still apply)
  --only <list>        scenarios or groups, comma-separated (default all):
                       ${ALL.join(', ')};
                       groups: ${Object.keys(GROUPS).join(', ')}
  --reseed             seed the dashboard scenarios' database again even when it holds a complete seed
  --write-readme       also replace the results section of bench/README.md
  --no-build           do not rebuild dist/ even when it is older than src/
  -h, --help           this text
`;

export interface Options {
  durationS: number;
  warmupS: number;
  connections: number;
  users: number;
  rounds: number;
  databases: DatabaseKind[];
  only: Set<string>;
  writeReadme: boolean;
  build: boolean;
  reseed: boolean;
}

function positiveInt(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export function parseOptions(argv: string[]): Options | null {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      duration: { type: 'string' }, warmup: { type: 'string' }, connections: { type: 'string' }, users: { type: 'string' },
      rounds: { type: 'string' },
      db: { type: 'string' }, only: { type: 'string' }, 'write-readme': { type: 'boolean' }, 'no-build': { type: 'boolean' },
      reseed: { type: 'boolean' }, quick: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  const quick = Boolean(values.quick);
  if (quick && values['write-readme']) throw new Error('--quick: a quick run does not replace the results section (drop --write-readme)');
  if (quick && values.rounds !== undefined && values.rounds !== '1') throw new Error('--quick runs one round');
  const databases = values.db ? list(values.db) : quick ? ['postgres'] : ['postgres', 'pglite'];
  for (const db of databases) if (db !== 'postgres' && db !== 'pglite') throw new Error(`--db: unknown database "${db}"`);
  const only = new Set<string>();
  for (const name of values.only ? list(values.only) : quick ? QUICK_SCENARIOS : ALL) {
    const group = GROUPS[name];
    if (group) group.forEach((s) => only.add(s));
    else if ((ALL as readonly string[]).includes(name)) only.add(name);
    else throw new Error(`--only: unknown scenario or group "${name}"`);
  }
  return {
    durationS: positiveInt('duration', values.duration, quick ? 5 : 10, 1),
    warmupS: positiveInt('warmup', values.warmup, quick ? 1 : 2, 0),
    connections: positiveInt('connections', values.connections, 16, 1),
    users: positiveInt('users', values.users, 1000, 1),
    rounds: positiveInt('rounds', values.rounds, 1, 1),
    databases: databases as DatabaseKind[],
    only,
    writeReadme: Boolean(values['write-readme']),
    build: !values['no-build'],
    reseed: Boolean(values.reseed),
  };
}
