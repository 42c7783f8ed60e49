import type { Container } from '../container.js';

export interface JobResult {
  /** One line for the operator: what the run did. */
  summary: string;
}

export type Job = (container: Container, log: (line: string) => void) => Promise<JobResult>;

/**
 * Background jobs by name, run on a schedule by the server and on demand by `gatehouse jobs run <name>`.
 * Each feature adds its own job here (session cleanup, outbox delivery, expired deletions, heartbeats).
 */
export const JOBS: Record<string, Job> = {};
