import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { repeatingPass } from './repeating-pass.js';

type Report = { sent: number; failed: number };

/** A pass held open until the test releases it; counts the passes begun. */
function heldPasses() {
  const releases: Array<(r: Report) => void> = [];
  const pass = () => new Promise<Report>((resolve) => releases.push(resolve));
  return { pass, releases, begun: () => releases.length };
}
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('repeatingPass', () => {
  it('runs one pass and answers its report', async () => {
    const held = heldPasses();
    const flush = repeatingPass(held.pass, () => ({ sent: 0, failed: 0 }));
    const done = flush();
    await settle();
    held.releases[0]!({ sent: 2, failed: 1 });
    assert.deepEqual(await done, { sent: 2, failed: 1 });
    assert.equal(held.begun(), 1);
  });

  it('a call during a pass joins it and causes exactly one more pass; the sum is answered to both', async () => {
    const held = heldPasses();
    const flush = repeatingPass(held.pass, () => ({ sent: 0, failed: 0 }));
    const first = flush();
    await settle();
    const second = flush();
    const third = flush();
    assert.equal(held.begun(), 1, 'never two passes at once');
    held.releases[0]!({ sent: 1, failed: 0 });
    await settle();
    assert.equal(held.begun(), 2, 'one more pass for the calls made meanwhile');
    held.releases[1]!({ sent: 3, failed: 2 });
    const answers = await Promise.all([first, second, third]);
    for (const a of answers) assert.deepEqual(a, { sent: 4, failed: 2 });
    assert.equal(held.begun(), 2);
  });

  it('starts afresh after a failed pass', async () => {
    let calls = 0;
    const flush = repeatingPass(async () => {
      calls++;
      if (calls === 1) throw new Error('database down');
      return { sent: 1, failed: 0 };
    }, () => ({ sent: 0, failed: 0 }));
    await assert.rejects(flush(), /database down/);
    assert.deepEqual(await flush(), { sent: 1, failed: 0 });
  });
});

describe('repeatingPass stop', () => {
  it('waits for the running pass and the one asked for meanwhile, then starts no other', async () => {
    const held = heldPasses();
    const flush = repeatingPass(held.pass, () => ({ sent: 0, failed: 0 }));
    const first = flush();
    await settle();
    void flush();
    let stopped = false;
    const stopping = flush.stop().then(() => { stopped = true; });
    held.releases[0]!({ sent: 1, failed: 0 });
    await settle();
    assert.equal(stopped, false, 'the extra pass still runs');
    held.releases[1]!({ sent: 1, failed: 0 });
    await stopping;
    assert.deepEqual(await first, { sent: 2, failed: 0 });
    assert.deepEqual(await flush(), { sent: 0, failed: 0 });
    assert.equal(held.begun(), 2, 'no pass after stop');
  });

  it('resolves at once when no pass runs, and when the running one fails', async () => {
    const flush = repeatingPass(async () => { throw new Error('database down'); }, () => ({ sent: 0, failed: 0 }));
    await flush.stop();
    const again = repeatingPass(async () => { throw new Error('database down'); }, () => ({ sent: 0, failed: 0 }));
    const failing = again();
    await again.stop();
    await assert.rejects(failing, /database down/);
  });
});
