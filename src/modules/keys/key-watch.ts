import type { ChangeBus } from '../../db/change-bus.js';

/**
 * Besides the change notices, every instance reads the stored keys' version (one small query) this often: the bound
 * for a notice that could not be sent (Redis and PostgreSQL's NOTIFY both failing at the rotation) or heard (a LISTEN
 * behind a transaction-mode pooler, without Redis).
 */
export const KEYS_POLL_MS = 5_000;

export interface KeyWatchOptions {
  changes: ChangeBus;
  /** Compares the stored version with the loaded one and reloads when they differ. */
  check: () => Promise<void>;
  onError: (message: string) => void;
}

/**
 * Keeps one instance's keys current: a reload on each `signing-keys` change notice (db/change-bus.ts, which also runs it
 * when a lost listening connection comes back), and a slow poll of the version. Returns what stops both.
 */
export function watchKeys({ changes, check, onError }: KeyWatchOptions): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const run = () => check().catch((err: Error) => onError(`signing keys could not be reloaded: ${err.message}`));
  // A timeout chain, not an interval: a check that outlasts the interval (a stalled database) is never run twice at once.
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void run().finally(schedule), KEYS_POLL_MS);
    timer.unref();
  };
  schedule();
  const unsubscribe = changes.subscribe('signing-keys', () => void run());

  return async () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}
