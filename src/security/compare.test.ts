import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeEqual } from './compare.js';

describe('safeEqual', () => {
  it('is true for equal strings', () => {
    assert.equal(safeEqual('s3cret-value', 's3cret-value'), true);
    assert.equal(safeEqual('pässwörd', 'pässwörd'), true);
  });

  it('is false for strings of the same length that differ', () => {
    assert.equal(safeEqual('s3cret-value', 's3cret-valuf'), false);
  });

  it('is false for strings of different lengths', () => {
    assert.equal(safeEqual('abc', 'abcd'), false);
    assert.equal(safeEqual('abcd', 'abc'), false);
  });

  it('is true for two empty strings and false for an empty and a non-empty one', () => {
    assert.equal(safeEqual('', ''), true);
    assert.equal(safeEqual('', 'a'), false);
    assert.equal(safeEqual('a', ''), false);
  });

  it('is case-sensitive', () => {
    assert.equal(safeEqual('Token', 'token'), false);
  });
});
