import type { CpuSnapshot } from '../load/cpu.js';
/** Shapes exchanged between the orchestrator (`bench/run.ts`) and its child processes. */

/** The request mixes the load generator knows how to send. */
export type LoadKind =
  | 'gatehouse-login' | 'gatehouse-me' | 'gatehouse-refresh' | 'gatehouse-login-failed' | 'gatehouse-register' | 'gatehouse-org-detail'
  | 'gatehouse-authorize' | 'gatehouse-authorize-child' | 'gatehouse-agent-roles' | 'gatehouse-dashboard-stats' | 'gatehouse-dashboard-auth'
  | 'gatehouse-oauth-authorize' | 'gatehouse-oauth-introspect' | 'gatehouse-oauth-code'
  | 'better-auth-sign-in' | 'better-auth-get-session'
  | 'bare-argon2-route' | 'bare-select' | 'bare-insert-update';

/** The OAuth scenarios' client application and registered resource, with their credentials. */
export interface OauthFixture {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  resource: string;
  resourceClientId: string;
  resourceClientSecret: string;
}

/** What the load child needs to prepare and drive one scenario. */
export interface LoadJob {
  kind: LoadKind;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Gatehouse only: the API prefix and the application credentials. */
  apiPrefix?: string;
  accessKey?: string;
  accessSecret?: string;
  /** Gatehouse only: the OAuth scenarios' client and resource. */
  oauth?: OauthFixture;
  /** Seeded accounts (`userEmail(1..count)`) or, for the bare baselines, seeded rows. */
  userCount: number;
  password: string;
  durationS: number;
  warmupS: number;
  connections: number;
  /** Makes generated e-mail addresses unique across runs against a reused database. */
  runId: string;
  /** The server's process, whose CPU time the load child reads around the measured run. */
  serverPid?: number;
  /** The scenario's PostgreSQL database: other databases' connections are left out of PostgreSQL's CPU time. */
  database?: string;
  /**
   * Several instances of one server, the load split evenly over them without a proxy: autocannon gives connection i
   * to `origins[i % n]`. `origin` (where the scenario signs in first) is one of them.
   */
  origins?: string[];
  /** With `origins`: each instance's process, in the same order; their CPU time is summed and kept per instance. */
  serverPids?: number[];
  /**
   * Requests per second over all connections, for a latency comparison at the same load: without it the load
   * generator sends as fast as the server answers (and latency is mostly the queue the rate leaves).
   */
  rate?: number;
}

/** One measured scenario. Latencies in milliseconds. */
export interface LoadResult {
  /** Responses with the status the scenario expects, per second of the measured run. */
  rps: number;
  p50: number;
  p99: number;
  /** All responses and failures seen in the measured run. */
  requests: number;
  expectedStatus: number;
  /** Responses with any other status. */
  unexpected: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCounts: Record<string, number>;
  durationS: number;
  /** CPU milliseconds per request of the measured run: the server, all PostgreSQL processes, the load process. */
  cpuMsPerRequest: CpuSnapshot | null;
}

export type WorkerMessage = { ok: true; result: LoadResult } | { ok: false; error: string };
