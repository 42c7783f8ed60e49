import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { throttled } from './throttle.js';

describe('throttled', () => {
  it('passes the first call, drops the calls within the interval, and passes again after it', () => {
    let t = 1_000;
    const seen: string[] = [];
    const warn = throttled((m: string) => seen.push(m), 60_000, () => t);
    warn('a');
    t += 59_999;
    warn('b');
    t += 1;
    warn('c');
    warn('d');
    assert.deepEqual(seen, ['a', 'c']);
  });
});
