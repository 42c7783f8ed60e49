import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Semaphore } from './semaphore.js';

interface Deferred { promise: Promise<void>; resolve(): void; reject(error: Error): void }
function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}
/** Lets every queued promise reaction run (a macrotask boundary), without any timing assumption. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs tasks through `sem`, each held open until the test releases it; records how many run at once. */
function harness(sem: Semaphore) {
  let active = 0;
  const state = { maxActive: 0, started: [] as string[] };
  const gates = new Map<string, Deferred>();
  const start = (name: string) => {
    const gate = deferred();
    gates.set(name, gate);
    return sem.run(async () => {
      active++;
      state.maxActive = Math.max(state.maxActive, active);
      state.started.push(name);
      try { await gate.promise; } finally { active--; }
      return name;
    });
  };
  const gate = (name: string): Deferred => {
    const found = gates.get(name);
    assert.ok(found, `task ${name} was started`);
    return found;
  };
  return { state, start, gate, active: () => active };
}

describe('Semaphore', () => {
  it('never runs more than limit tasks at once', async () => {
    const sem = new Semaphore(2);
    const h = harness(sem);
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const runs = names.map((n) => h.start(n));
    await settle();
    assert.equal(h.active(), 2);
    assert.equal(sem.pending, 4);
    for (const n of names) {
      h.gate(n).resolve();
      await settle();
      assert.ok(h.active() <= 2);
    }
    assert.deepEqual(await Promise.all(runs), names);
    assert.equal(h.state.maxActive, 2);
    assert.equal(sem.pending, 0);
  });

  it('starts waiting tasks in FIFO order', async () => {
    const sem = new Semaphore(1);
    const h = harness(sem);
    const runs = ['a', 'b', 'c', 'd'].map((n) => h.start(n));
    await settle();
    assert.deepEqual(h.state.started, ['a']);
    for (const n of ['a', 'b', 'c', 'd']) { h.gate(n).resolve(); await settle(); }
    await Promise.all(runs);
    assert.deepEqual(h.state.started, ['a', 'b', 'c', 'd']);
  });

  it('hands a freed slot to the oldest waiter, not to a caller arriving in the same tick', async () => {
    const sem = new Semaphore(1);
    let active = 0;
    let maxActive = 0;
    const started: string[] = [];
    const track = (name: string, work: Promise<void>) => async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      started.push(name);
      try { await work; } finally { active--; }
    };
    const first = deferred();
    const second = deferred();
    // 'a' hands its own promise to the semaphore, so the slot frees in the reaction that `first` settling triggers.
    const a = sem.run(() => { started.push('a'); return first.promise; });
    const b = sem.run(track('b', second.promise));
    await settle();
    assert.deepEqual(started, ['a']);
    // A caller woken by the same event that ends 'a' asks for the slot while 'b' is still queued.
    let late: Promise<void> | undefined;
    void first.promise.then(() => { late = sem.run(track('late', Promise.resolve())); });
    first.resolve();
    await settle();
    assert.deepEqual(started, ['a', 'b'], "'late' waits until 'b' is done");
    second.resolve();
    await settle();
    await Promise.all([a, b, late]);
    assert.deepEqual(started, ['a', 'b', 'late']);
    assert.equal(maxActive, 1);
  });

  it('releases the slot when a task throws, and passes the error on', async () => {
    const sem = new Semaphore(1);
    const h = harness(sem);
    const failing = h.start('failing');
    const next = h.start('next');
    await settle();
    assert.deepEqual(h.state.started, ['failing']);
    h.gate('failing').reject(new Error('boom'));
    await assert.rejects(failing, /boom/);
    await settle();
    assert.deepEqual(h.state.started, ['failing', 'next']);
    h.gate('next').resolve();
    assert.equal(await next, 'next');
    assert.equal(sem.pending, 0);
  });

  it('releases the slot when a task throws synchronously', async () => {
    const sem = new Semaphore(1);
    await assert.rejects(sem.run(() => { throw new Error('sync'); }), /sync/);
    assert.equal(await sem.run(async () => 'after'), 'after');
  });

  it('refuses a limit that is not a positive integer', () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) assert.throws(() => new Semaphore(limit), RangeError);
  });
});
