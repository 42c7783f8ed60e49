import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PRODUCTION_ARGON2, createArgon2Hasher, defaultHashConcurrency, type PasswordHasher } from './password-hash.js';

// The one test that pays the real argon2id cost: it keeps to a handful of production-cost hashes.
const PASSWORD = 'correct horse battery staple';
const CHEAP = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

describe('argon2id password hasher', () => {
  let hasher: PasswordHasher;
  let cheap: PasswordHasher;
  let encoded: string;

  before(async () => {
    hasher = await createArgon2Hasher();
    cheap = await createArgon2Hasher(CHEAP, 1);
    encoded = await hasher.hash(PASSWORD);
  });

  it('uses the production parameters argon2id m=19456, t=2, p=1', () => {
    assert.deepEqual(PRODUCTION_ARGON2, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
    assert.match(encoded, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
  });

  it('salts every hash', async () => {
    assert.notEqual(await cheap.hash(PASSWORD), await cheap.hash(PASSWORD));
  });

  it('verifies the right password', async () => {
    assert.equal(await hasher.verify(encoded, PASSWORD), true);
  });

  it('rejects a wrong password', async () => {
    assert.equal(await hasher.verify(encoded, `${PASSWORD}!`), false);
  });

  it('answers false, without throwing, for a garbage hash', async () => {
    assert.equal(await hasher.verify('not-a-hash', PASSWORD), false);
    assert.equal(await hasher.verify('', PASSWORD), false);
    assert.equal(await hasher.verify('$argon2id$v=19$m=19456,t=2,p=1$broken', PASSWORD), false);
  });

  it('needs no rehash for a hash made with the same parameters', () => {
    assert.equal(hasher.needsRehash(encoded), false);
    assert.equal(hasher.needsRehash(hasher.dummyHash), false);
  });

  it('needs a rehash for a hash made with other parameters', async () => {
    const weak = await cheap.hash(PASSWORD);
    assert.equal(hasher.needsRehash(weak), true);
    assert.equal(cheap.needsRehash(encoded), true);
    assert.equal(cheap.needsRehash(weak), false);
  });

  it('needs a rehash for a value that is not an argon2id hash', () => {
    assert.equal(hasher.needsRehash('$2b$12$abcdefghijklmnopqrstuv'), true);
    assert.equal(hasher.needsRehash(''), true);
  });

  it('has a dummy hash with the production parameters that verifies false for arbitrary input', async () => {
    assert.match(hasher.dummyHash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(await hasher.verify(hasher.dummyHash, PASSWORD), false);
    assert.equal(await cheap.verify(cheap.dummyHash, ''), false);
  });

  it('verifies a password across hashers with different parameters', async () => {
    // Parameters travel inside the encoded hash, so old hashes keep verifying after a parameter change.
    assert.equal(await cheap.verify(encoded, PASSWORD), true);
  });
});

describe('default hash concurrency', () => {
  it('is one hash per core, leaving at least one thread of the pool free', () => {
    assert.equal(defaultHashConcurrency(2, 4), 2);
    assert.equal(defaultHashConcurrency(1, 4), 1);
    assert.equal(defaultHashConcurrency(8, 4), 3);
    assert.equal(defaultHashConcurrency(8, 16), 8);
  });

  it('is never below one', () => {
    assert.equal(defaultHashConcurrency(4, 1), 1);
    assert.equal(defaultHashConcurrency(0, 4), 1);
  });
});
