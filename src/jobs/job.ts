import type { Container } from '../container.js';

export interface JobResult {
  /** One line for the operator: what the run did. */
  summary: string;
  /** The run found nothing to do: the scheduler logs it at debug level, so idle passes do not bury the rest of the log. */
  idle?: boolean;
  /** Something is going wrong (sends to retry, or given up): the scheduler logs it as a warning. */
  warning?: boolean;
}

/** A background job: one pass over its work with the server's services, logging a line per step. */
export type Job = (container: Container, log: (line: string) => void) => Promise<JobResult>;
