import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashMatches, safeEqual, sha256Digest } from './compare.js';
import { sha256Hex } from './random.js';

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

describe('hashMatches', () => {
  const digest = sha256Digest(sha256Hex('the-secret'));

  it('is true for the value whose SHA-256 the digest is', () => {
    assert.equal(hashMatches('the-secret', digest), true);
  });

  it('is false for any other value, however close', () => {
    assert.equal(hashMatches('the-secreT', digest), false);
    assert.equal(hashMatches('the-secret ', digest), false);
    assert.equal(hashMatches('', digest), false);
  });

  it('is false, without throwing, for a digest of another length (a malformed stored hash)', () => {
    assert.equal(hashMatches('the-secret', sha256Digest('abcd')), false);
    assert.equal(hashMatches('the-secret', Buffer.alloc(0)), false);
  });
});
