import assert from 'node:assert/strict';

/** docs/decisions.md "Several instances": a revocation takes effect on every instance within 1 s. */
export const BOUND_MS = 1000;
/** Probes start this often. */
export const POLL_MS = 50;
/**
 * How long a probe keeps watching past the bound: a change seen late is then reported with its delay, instead of a bare
 * "not seen", and a loaded machine's slow answers do not cut the watch short.
 */
const WATCH_MS = BOUND_MS + 5000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `probe` every 50 ms (or as soon as the previous one answered, when it took longer) until it answers true, and
 * answers the delay from `since` (when the change was made) to the start of that probe. A probe throws on an answer that
 * is neither the old state nor the expected new one.
 */
export async function delayUntil(what: string, since: number, probe: () => Promise<boolean>): Promise<number> {
  for (;;) {
    const started = Date.now();
    if (await probe()) return started - since;
    if (Date.now() - since > WATCH_MS) assert.fail(`${what}: not seen ${WATCH_MS} ms after the change`);
    await sleep(Math.max(0, started + POLL_MS - Date.now()));
  }
}

/**
 * Asserts each observed delay against the bound. The change took effect between the start of the last probe that still
 * saw the old state and the start of the first that saw the new one, one 50 ms interval later while answers are quick:
 * a change made within 1 s is observed within 1 s plus one interval, and one observed later took more than 1 s.
 */
export function assertWithinBound(delays: Record<string, number>): void {
  for (const [what, delay] of Object.entries(delays)) {
    assert.ok(delay <= BOUND_MS + POLL_MS, `${what} after ${delay} ms, more than ${BOUND_MS} ms (+ one ${POLL_MS} ms poll)`);
  }
}

/** Polls every instance in `indexes` at once; the delays by the name `label` gives each. */
export async function delaysOn(indexes: readonly number[], label: (i: number) => string, since: number,
  probe: (i: number) => Promise<boolean>): Promise<Record<string, number>> {
  const delays = await Promise.all(indexes.map((i) => delayUntil(label(i), since, () => probe(i))));
  return Object.fromEntries(indexes.map((i, n) => [label(i), delays[n]!]));
}

/** The protected header of a JWT (its `kid` names the signing key). */
export function jwtHeader(token: string): { alg: string; kid?: string } {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { alg: string; kid?: string };
}
