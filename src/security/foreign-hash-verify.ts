import { createHash, pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { verify as argon2Verify } from '@node-rs/argon2';
import { compare as bcryptCompare } from 'bcryptjs';
import { Semaphore } from '../core/semaphore.js';
import { parseForeignHash, type ParsedForeignHash } from './foreign-hash.js';

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** Constant-time equality of two digests of the same algorithm (a length mismatch is no secret: it is in the hash). */
const digestsEqual = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/**
 * Each check exactly as the system that made the hash computes it, on the text it hashed (callers pass the password as
 * typed, or in NFKC, see password-verifier.ts):
 * - argon2id / argon2i: the PHC string carries everything; @node-rs/argon2 verifies it on the thread pool.
 * - bcrypt: `$2a$`, `$2b$`, `$2y$` are one algorithm for every password a correct implementation hashed; bcryptjs
 *   truncates at 72 bytes like the others.
 * - Django `bcrypt_sha256`: bcrypt over the hex SHA-256 of the UTF-8 password (Django's BCryptSHA256PasswordHasher),
 *   which lifts bcrypt's 72-byte limit.
 * - Django `pbkdf2_sha256`: PBKDF2-HMAC-SHA256 with the salt as UTF-8 text, 32-byte digest.
 * - scrypt PHC: node's scrypt with N, r, p from the string; `maxmem` just above what they need (bounded at parse).
 * PBKDF2 and scrypt run on libuv's thread pool; bcryptjs runs in short slices on the event loop.
 */
async function check(hash: ParsedForeignHash, password: string): Promise<boolean> {
  switch (hash.format) {
    case 'argon2id':
    case 'argon2i':
      return argon2Verify(hash.encoded, password);
    case 'bcrypt':
      return bcryptCompare(password, hash.bcrypt);
    case 'bcrypt_sha256':
      return bcryptCompare(createHash('sha256').update(password, 'utf8').digest('hex'), hash.bcrypt);
    case 'pbkdf2_sha256': {
      const derived = await pbkdf2Async(Buffer.from(password, 'utf8'), Buffer.from(hash.salt, 'utf8'), hash.iterations, 32, 'sha256');
      return digestsEqual(derived, hash.digest);
    }
    case 'scrypt': {
      const maxmem = 128 * hash.n * hash.r + 128 * hash.r * hash.p + 1024 * 1024;
      const derived = await scryptAsync(password, hash.salt, hash.digest.length, { N: hash.n, r: hash.r, p: hash.p, maxmem });
      return digestsEqual(derived, hash.digest);
    }
  }
}

export interface ForeignHashVerifier {
  /**
   * Whether `encoded` (an imported hash) is the hash of `password`, taken as given. False for an unknown format, a
   * malformed hash or one whose parameters exceed FOREIGN_HASH_LIMITS: such a hash is never computed.
   */
  verify(encoded: string, password: string): Promise<boolean>;
}

/** A semaphore bounds concurrent checks, as for argon2id, so memory and CPU stay predictable under a login burst. */
export function createForeignHashVerifier(concurrency: number): ForeignHashVerifier {
  const gate = new Semaphore(concurrency);
  return {
    verify: async (encoded, password) => {
      const parsed = parseForeignHash(encoded);
      if (!parsed.ok) return false;
      return gate.run(async () => {
        try { return await check(parsed.hash, password); } catch { return false; }
      });
    },
  };
}
