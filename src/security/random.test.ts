import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { newOpaqueToken, randomDigits, randomHex, sha256Hex } from './random.js';

describe('newOpaqueToken', () => {
  it('gives at least 43 base64url characters (256 bits)', () => {
    assert.match(newOpaqueToken().raw, /^[A-Za-z0-9_-]{43,}$/);
  });

  it('gives the SHA-256 hex of the raw value as its hash', () => {
    const { raw, hash } = newOpaqueToken();
    assert.equal(hash, createHash('sha256').update(raw).digest('hex'));
    assert.match(hash, /^[0-9a-f]{64}$/);
  });

  it('gives a different token each time', () => {
    const a = newOpaqueToken();
    const b = newOpaqueToken();
    assert.notEqual(a.raw, b.raw);
    assert.notEqual(a.hash, b.hash);
  });

  it('honours the requested size', () => {
    assert.equal(newOpaqueToken(48).raw.length, 64);
  });
});

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 vector for "abc"', () => {
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256Hex(Buffer.from('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('randomHex', () => {
  it('gives two hex characters per byte', () => {
    assert.match(randomHex(32), /^[0-9a-f]{64}$/);
  });
});

describe('randomDigits', () => {
  it('gives exactly 6 decimal digits for a length of 6', () => {
    for (let i = 0; i < 50; i++) assert.match(randomDigits(6), /^\d{6}$/);
  });

  it('draws every digit, leading zeros included', () => {
    // 2,000 draws: the chance that some digit never appears is about 10 × 0.9^2000, i.e. none.
    const seen = new Set(randomDigits(2000));
    assert.equal(seen.size, 10);
  });
});
