import { createHmac } from 'node:crypto';
import { defaultHashConcurrency } from '../../src/security/password-hash.js';

/** Values every part of the benchmark agrees on: the seeded accounts and the password-hash parameters. */

/** docs/security.md: argon2id m=19456 KiB, t=2, p=1; the same for Gatehouse, the raw baseline and the peer. */
export const ARGON2 = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Hashes computed at once everywhere: `SVC_PASSWORD_HASH_CONCURRENCY`'s default on this machine (one per core, at
 * most one fewer than libuv's pool of 4), given to Gatehouse explicitly so every system is held to the same figure.
 */
export const HASH_CONCURRENCY = defaultHashConcurrency();

/** `SVC_DATABASE_POOL_SIZE`'s default: the bare baselines and the peer get the same pool. */
export const POOL_SIZE = 10;

/** Long enough for the `medium` preset's 12-character minimum. */
export const BENCH_PASSWORD = 'bench-password-2024';

/** The seeded accounts are `bench-user-1@example.com` … `bench-user-N@example.com`. */
export const userEmail = (i: number): string => `bench-user-${i}@example.com`;

export const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export const databaseUrl = (name: string): string => `postgres://postgres@127.0.0.1:5432/${name}`;

/** One database per system under test, dropped and recreated on every run (`cluster`: the instances of `lib/cluster.ts`). */
export const DATABASES = {
  gatehouse: 'gatehouse_bench', cluster: 'gatehouse_bench_cluster', betterAuth: 'betterauth_bench', baseline: 'baseline_bench',
} as const;

/** The multi-instance scenarios: this many `gatehouse serve` processes on one database, sharing the local Redis. */
export const CLUSTER_INSTANCES = 2;
export const REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * The seeded organizations (`setup/seed-organizations.ts`): trees of ten, each a chain from its root down to depth 5
 * (`bench-org-<tree>-0` … `-5`) with one more organization beside the chain at depths 1 to 4 (`-1b` … `-4b`).
 */
export const ORG_TREES = 1000;
export const ORGS_PER_TREE = 10;
export const ORG_MEMBERSHIPS = 100_000;

/** The tree (1-based) whose root account `i` belongs to, and only its root there: its role below is inherited. */
export const homeTreeOf = (i: number): number => ((i - 1) % ORG_TREES) + 1;

/** The depth-5 leaf of account `i`'s home tree. */
export const homeLeafSlug = (i: number): string => `bench-org-${homeTreeOf(i)}-5`;

/**
 * The seeded agent tokens (`setup/seed-agent-tokens.ts`): token `i` is delegated by account `i` and granted
 * AGENT_PERMISSION, which the account holds directly, with limits no scenario reaches (the breakers still run).
 */
export const AGENT_TOKENS = 64;
export const AGENT_PERMISSION = 'roles.view';

/**
 * The OAuth scenarios: the client application's redirect (an https address nothing serves, so a covered grant skips
 * consent and the flow reads the code from the redirect) and the registered resource its tokens are for.
 */
export const OAUTH_REDIRECT = 'https://client.bench.example/callback';
export const OAUTH_RESOURCE = 'https://api.bench.example';

/**
 * The secret of agent token `i`: `gha_` and 43 base64url characters, derived from `i` so that the seed script (which
 * stores only its SHA-256) and the load generator agree without passing secrets between processes. Bench-only: the
 * database is dropped on every run.
 */
export const agentToken = (i: number): string =>
  `gha_${createHmac('sha256', 'gatehouse-bench-agent-tokens').update(String(i)).digest('base64url')}`;

/** The secret of agent token `i`'s grandchild: depth 3 of a delegation chain (docs/agents.md "Delegation"). */
export const agentGrandchildToken = (i: number): string =>
  `gha_${createHmac('sha256', 'gatehouse-bench-agent-grandchildren').update(String(i)).digest('base64url')}`;

/**
 * The dashboard scenarios' database (`setup/seed-dashboard.ts`): a million accounts and five million sign-in attempts,
 * seeded once (a few minutes) and kept between runs; its comment starts with SEED_MARK once the seed completed.
 */
export const DASHBOARD_DATABASE = 'gatehouse_bench_dashboard';
export const DASHBOARD_USERS = 1_000_000;
export const DASHBOARD_LOGIN_ATTEMPTS = 5_000_000;
/** Accounts `bench-user-1..DASHBOARD_VIEWERS` hold `dashboard.view` and sign in for the dashboard scenarios. */
export const DASHBOARD_VIEWERS = 16;
/** The dashboard scenarios' concurrent callers (the issue's target: p50 under 300 ms with four). */
export const DASHBOARD_CONNECTIONS = 4;
export const SEED_MARK = 'gatehouse dashboard bench seed';
