import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { Semaphore } from '../core/semaphore.js';

export interface Argon2Params {
  memoryCost: number; // KiB
  timeCost: number;
  parallelism: number;
}

/** docs/security.md: argon2id m=19456 KiB, t=2, p=1 (OWASP's recommended minimum). */
export const PRODUCTION_ARGON2: Argon2Params = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Passwords are hashed and checked in Unicode NFKC, so "é" typed as one code point or as "e" plus a combining accent
 * (macOS and iOS keyboards differ) is the same password (NIST SP 800-63B §5.1.1.2).
 */
export const normalizePassword = (password: string): string => password.normalize('NFKC');

export interface PasswordHasher {
  /** The argon2id hash of NFKC(`password`). */
  hash(password: string): Promise<string>;
  /** Whether `encoded` is the hash of NFKC(`password`). */
  verify(encoded: string, password: string): Promise<boolean>;
  /** Whether `encoded` is the hash of `password` as given: only for hashes made before normalization. */
  verifyUnnormalized(encoded: string, password: string): Promise<boolean>;
  /** True when `encoded` was made with other parameters and should be re-hashed after a successful login. */
  needsRehash(encoded: string): boolean;
  /** A valid hash of a random password, verified against when the account does not exist (equal work). */
  readonly dummyHash: string;
}

/**
 * How many hashes run at once by default. argon2id is memory-hard: beyond one per core, more hashes at once only
 * contend for the cores and their caches and each takes longer. At least one thread of libuv's pool stays free
 * for the other work queued there (file access, WebCrypto), which would otherwise wait behind whole hashes.
 */
export function defaultHashConcurrency(cores = availableParallelism(), poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4): number {
  return Math.max(1, Math.min(cores, poolSize - 1));
}

/**
 * argon2id through @node-rs/argon2, whose async API runs on the libuv thread pool, so hashing never
 * blocks the event loop. A semaphore bounds concurrent hashes so memory stays at limit × m.
 */
export async function createArgon2Hasher(params: Argon2Params = PRODUCTION_ARGON2, concurrency = defaultHashConcurrency()): Promise<PasswordHasher> {
  const gate = new Semaphore(concurrency);
  // Algorithm.Argon2id is an ambient const enum; its value is 2.
  const options = { algorithm: 2 as const, ...params };
  const marker = `$argon2id$v=19$m=${params.memoryCost},t=${params.timeCost},p=${params.parallelism}$`;
  const dummyHash = await hash(randomBytes(16).toString('hex'), options);
  const check = (encoded: string, text: string) => gate.run(async () => {
    try { return await verify(encoded, text); } catch { return false; }
  });
  return {
    hash: (password) => gate.run(() => hash(normalizePassword(password), options)),
    verify: (encoded, password) => check(encoded, normalizePassword(password)),
    verifyUnnormalized: check,
    needsRehash: (encoded) => !encoded.startsWith(marker),
    dummyHash,
  };
}
