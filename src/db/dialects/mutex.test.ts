import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Mutex } from './mutex.js';

/** Lets every queued promise reaction run (a macrotask boundary), without any timing assumption. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Mutex', () => {
  it('grants the lock at once when nobody holds it', async () => {
    const release = await new Mutex().acquire();
    assert.equal(typeof release, 'function');
  });

  it('is exclusive: a second acquirer waits until the holder releases', async () => {
    const mutex = new Mutex();
    const release = await mutex.acquire();
    let granted = false;
    const second = mutex.acquire().then((r) => { granted = true; return r; });
    await settle();
    assert.equal(granted, false);
    release();
    (await second)();
    assert.equal(granted, true);
  });

  it('grants the lock in FIFO order', async () => {
    const mutex = new Mutex();
    const order: number[] = [];
    const releases = new Map<number, () => void>();
    const waits = [1, 2, 3, 4].map((n) => mutex.acquire().then((release) => { order.push(n); releases.set(n, release); }));
    await settle();
    assert.deepEqual(order, [1]);
    for (const n of [1, 2, 3]) {
      releases.get(n)?.();
      await settle();
      assert.deepEqual(order, [1, 2, 3, 4].slice(0, n + 1));
    }
    releases.get(4)?.();
    await Promise.all(waits);
  });

  it('never lets two holders in at once under contention', async () => {
    const mutex = new Mutex();
    let inside = 0;
    let maxInside = 0;
    const work = async () => {
      const release = await mutex.acquire();
      inside++;
      maxInside = Math.max(maxInside, inside);
      await settle();
      inside--;
      release();
    };
    await Promise.all(Array.from({ length: 20 }, work));
    assert.equal(maxInside, 1);
  });

  it('ignores a second release by the same holder', async () => {
    const mutex = new Mutex();
    const first = await mutex.acquire();
    const second = mutex.acquire();
    let thirdGranted = false;
    const third = mutex.acquire().then((r) => { thirdGranted = true; return r; });
    first();
    const releaseSecond = await second;
    first();
    await settle();
    assert.equal(thirdGranted, false);
    releaseSecond();
    (await third)();
  });
});
