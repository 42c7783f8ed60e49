import type { Server } from 'node:http';

/**
 * The faults a test provider can be told to show at some of its endpoints: stall (hold the request longer than the
 * service waits) or garbage (an HTML page instead of JSON). `close` cancels the stalled waits and frees the port.
 */
export function createEndpointFaults<E extends string>(defaults: readonly E[]) {
  let stallMs = 0;
  let stalled = new Set<E>();
  let garbled = new Set<E>();
  const timers = new Set<NodeJS.Timeout>();

  return {
    /** Waits while `endpoint` is stalled; a wait `close` cancels never ends, so the request never gets an answer. */
    hold: (endpoint: E | undefined) => new Promise<void>((resolve) => {
      if (!endpoint || !stalled.has(endpoint)) return resolve();
      const timer = setTimeout(() => { timers.delete(timer); resolve(); }, stallMs);
      timers.add(timer);
    }),
    garbled: (endpoint: E | undefined) => endpoint !== undefined && garbled.has(endpoint),
    /** The controls a test provider hands out. */
    controls: {
      stall(ms: number, on: readonly E[] = defaults) { stallMs = ms; stalled = new Set(on); },
      garbage(on: readonly E[] = defaults) { garbled = new Set(on); },
      restore() { stalled.clear(); garbled.clear(); },
    },
    close: (server: Server) => new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
